package football

import (
	"slices"
	"strings"
	"testing"
)

// TestWholeNumbersAndProBowl: a down of 2.9 (or yards, quarters, points
// with a fraction) is a skipped row, not down_2; "3.0" is 3; the Pro Bowl
// teams APR and NPR of the 2018–19 layout are dropped like AFC and NFC; a
// fraction of a second left counts up.
func TestWholeNumbersAndProBowl(t *testing.T) {
	const csv = `play_id,game_id,posteam,yardline_100,quarter_seconds_remaining,game_seconds_remaining,qtr,down,ydstogo,play_type,sack,two_point_attempt,score_differential,season_type
1,g,NE,75,890,3590,1,2.9,10,run,0,0,0,POST
2,g,NE,75,890,3590,1,3.0,10.0,run,0,0,0.0,POST
3,g,NE,75.5,890,3590,1,1,10,run,0,0,0,POST
4,g,NE,75,890,3590,1,1,10,run,0,0,2.5,POST
5,g,APR,75,890,3590,1,1,10,run,0,0,0,POST
6,g,NPR,75,890,3590,1,1,10,pass,0,0,0,POST
7,g,NE,75,120.5,3590,2,1,10,pass,0,0,0,POST
8,g,NE,75,120,3590,2,1,10,pass,0,0,0,POST
`
	plays, st, warns, err := readPlays(strings.NewReader(csv), "w.csv")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range plays {
		ids = append(ids, p.ID)
	}
	if !slices.Equal(ids, []string{"2", "7", "8"}) || plays[0].Down != 3 {
		t.Fatalf("plays %v", plays)
	}
	if slices.Contains(plays[1].Situation, "two_minutes_left_in_half") || !slices.Contains(plays[2].Situation, "two_minutes_left_in_half") {
		t.Errorf("120.5 s and 120 s left: %v, %v", plays[1].Situation, plays[2].Situation)
	}
	if st.ProBowl != 2 || st.Malformed != 3 {
		t.Errorf("stats %+v", st)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.Error())
	}
	want := []string{
		"w.csv:2: skipped run play: down 2.9 is not a whole number",
		"w.csv:4: skipped run play: yardline_100 75.5 is not a whole number",
		"w.csv:5: skipped run play: score_differential 2.5 is not a whole number",
	}
	if !slices.Equal(ws, want) {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(ws, "\n"), strings.Join(want, "\n"))
	}
}
