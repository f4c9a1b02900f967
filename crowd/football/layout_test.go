package football

import (
	"slices"
	"strings"
	"testing"
)

// currentCSV is the current nflscrapR / nflfastR layout: a down column
// beside every column of the fourth-down files, sacks as pass plays with
// sack = 1, NA for missing values, and season_type.
const currentCSV = `play_id,game_id,posteam,yardline_100,quarter_seconds_remaining,game_seconds_remaining,qtr,down,ydstogo,play_type,sack,two_point_attempt,score_differential,season_type
1,g1,NA,35,900,3600,1,NA,0,kickoff,0,0,NA,POST
2,g1,NE,75,890,3590,1,1,10,run,0,0,0,POST
3,g1,NE,70,850,3550,1,2,5,pass,1,0,0,POST
4,g1,NE,80,800,3500,1,3,15,pass,0,0,0,POST
5,g1,NE,80,790,3490,1,4,15,punt,0,0,0,POST
6,g1,DEN,20,20,1820,2,4,3,field_goal,0,0,-7,POST
7,g1,DEN,60,30,30,4,1,10,qb_kneel,0,0,3,POST
8,g1,DEN,60,40,40,4,1,10,qb_spike,0,0,3,POST
9,g1,DEN,2,200,200,4,NA,2,pass,0,1,-6,POST
10,g1,DEN,20,20,1820,2,NA,3,run,0,0,-7,POST
11,g1,DEN,20,20,1820,2,1,NA,run,0,0,-7,POST
12,g1,AFC,75,890,3590,1,1,10,run,0,0,0,POST
13,g1,NA,75,890,3590,1,1,10,run,0,0,0,POST
14,g1,NE,75,890,3590,1,1,10,no_play,0,0,0,POST
15,g2,NE,75,890,3590,1,1,10,run,0,0,0,PRE
16,g1,NE,75,2000,3590,3,1,10,run,0,0,0,POST
`

func TestReadCurrent(t *testing.T) {
	plays, st, warns, err := readPlays(strings.NewReader(currentCSV), "cur.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range plays {
		got = append(got, p.ID+" "+p.Annotator+" "+p.Action+" down "+string(rune('0'+p.Down)))
	}
	want := []string{"2 NE run down 1", "3 NE pass down 2", "4 NE pass down 3", "5 NE punt down 4",
		"6 DEN field_goal down 4", "7 DEN kneel down 1"}
	if !slices.Equal(got, want) {
		t.Fatalf("plays %v, want %v (the down is the file's, a sack is a pass call)", got, want)
	}
	for _, p := range plays {
		if !slices.Contains(p.Situation, "down_"+string(rune('0'+p.Down))) || p.Game != "g1" {
			t.Fatalf("play %+v", p)
		}
	}
	wantSt := Stats{Rows: 16, Answers: 6, NonPlays: 2, TwoPoint: 1, Spikes: 1, ProBowl: 1, Preseason: 1, Malformed: 4}
	if st != wantSt {
		t.Fatalf("stats %+v, want %+v", st, wantSt)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.Error())
	}
	wantW := []string{
		`cur.csv:11: skipped run play: down "NA" is not a number`,
		`cur.csv:12: skipped run play: ydstogo "NA" is not a number`,
		`cur.csv:14: skipped run play: no team (column "posteam")`,
		`cur.csv:17: skipped run play: quarter_seconds_remaining 2000 gives 2000 s left in quarter 3`,
	}
	if !slices.Equal(ws, wantW) {
		t.Fatalf("warnings\n%s\nwant\n%s", strings.Join(ws, "\n"), strings.Join(wantW, "\n"))
	}
}

// A table with a down column (the current
// layout has every column of the fourth-down files) is never read as
// fourth-down data.
func TestCurrentIsNotFourthDown(t *testing.T) {
	answers, _, _, err := Read(strings.NewReader(currentCSV), "cur.csv")
	if err != nil {
		t.Fatal(err)
	}
	fourth := 0
	for _, a := range answers {
		if slices.Contains(a.Situation, "down_4") {
			fourth++
		}
	}
	if fourth != 2 {
		t.Fatalf("%d of %d plays read as 4th downs, want 2", fourth, len(answers))
	}
}

func TestDetectLayout(t *testing.T) {
	cases := []struct {
		header string
		kind   string // "" for an error
		errs   []string
	}{
		{"down,ydstogo,yrdline100,qtr,TimeSecs,ScoreDiff,PlayType,posteam", legacy.kind, nil},
		{"down,ydstogo,yardline_100,qtr,quarter_seconds_remaining,score_differential,play_type,posteam,two_point_attempt", current.kind, nil},
		{"ydstogo,yardline_100,qtr,quarter_seconds_remaining,score_differential,play_type,posteam,go", fourthDown.kind, nil},
		// A down column rules out the fourth-down layout, even when a column
		// of the current layout is missing.
		{"down,ydstogo,yardline_100,qtr,quarter_seconds_remaining,score_differential,play_type,posteam", "",
			[]string{"not a table of a known layout", "nflscrapR/nflfastR play-by-play needs", "(missing: two_point_attempt)",
				"fourth-down decisions needs ydstogo", "and no down column"}},
		// Both play-by-play layouts at once: which columns hold the play?
		{"down,ydstogo,yrdline100,qtr,TimeSecs,ScoreDiff,PlayType,posteam,yardline_100,quarter_seconds_remaining,score_differential,play_type,two_point_attempt", "",
			[]string{"ambiguous, it fits the nflscrapR legacy play-by-play layout and the nflscrapR/nflfastR play-by-play layout"}},
		{"a,b", "", []string{"not a table of a known layout", "nflscrapR legacy play-by-play needs down, ydstogo, yrdline100"}},
	}
	for _, c := range cases {
		src := c.header + "\n"
		_, _, _, err := Read(strings.NewReader(src), "h.csv")
		col := map[string]int{}
		for i, h := range strings.Split(c.header, ",") {
			col[h] = i
		}
		lay, derr := detect(col)
		if c.kind != "" {
			if err != nil || derr != nil || lay.kind != c.kind {
				t.Errorf("%s: read as %q (%v), want %s", c.header, lay.kind, err, c.kind)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: read as %s, want an error", c.header, lay.kind)
			continue
		}
		for _, e := range c.errs {
			if !strings.Contains(err.Error(), e) || !strings.HasPrefix(err.Error(), "h.csv:1: header: ") {
				t.Errorf("%s: error %q does not say %q", c.header, err, e)
			}
		}
	}
}

// The vocabulary holds every descriptor of every situation, and every one
// of its descriptors holds in some situation.
func TestDescriptorNames(t *testing.T) {
	names := DescriptorNames()
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Fatalf("not sorted and distinct: %v", names)
	}
	used := map[string]bool{}
	for down := 1; down <= 4; down++ {
		for _, togo := range []int{1, 3, 4, 7, 8, 20} {
			for _, y := range []int{1, 5, 6, 20, 21, 35, 36, 50, 51, 89, 90, 99} {
				for q := 1; q <= 6; q++ {
					for _, sec := range []int{0, 120, 121, 300, 301, 900} {
						for _, diff := range []int{-20, -17, -16, -9, -8, -1, 0, 1, 8, 9, 16, 17, 20} {
							s := Situation{Down: down, ToGo: togo, YardsToGoal: y, Quarter: q, SecondsInQuarter: sec, ScoreDiff: diff}
							for _, d := range s.Descriptors() {
								if !slices.Contains(names, d) {
									t.Fatalf("%+v: descriptor %s not in the vocabulary", s, d)
								}
								used[d] = true
							}
						}
					}
				}
			}
		}
	}
	if len(used) != len(names) {
		t.Fatalf("%d of %d descriptors used", len(used), len(names))
	}
}
