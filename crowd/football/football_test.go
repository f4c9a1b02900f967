package football

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

func TestDescriptors(t *testing.T) {
	cases := []struct {
		s    Situation
		want string
	}{
		{Situation{Down: 4, ToGo: 12, YardsToGoal: 75, Quarter: 2, SecondsInQuarter: 400, ScoreDiff: -3},
			"distance_long down_4 own_territory quarter_2 trailing_by_1_to_8"},
		{Situation{Down: 4, ToGo: 2, YardsToGoal: 30, Quarter: 4, SecondsInQuarter: 100, ScoreDiff: 9},
			"distance_short down_4 field_goal_range leading_by_9_to_16 opponent_territory quarter_4 two_minutes_left_in_half under_5_minutes_left_in_game"},
		{Situation{Down: 1, ToGo: 3, YardsToGoal: 3, Quarter: 5, ScoreDiff: 0},
			"distance_short down_1 field_goal_range goal_line opponent_territory overtime red_zone tied"},
		{Situation{Down: 2, ToGo: 5, YardsToGoal: 95, Quarter: 1, SecondsInQuarter: 60, ScoreDiff: -17},
			"backed_up distance_medium down_2 own_territory quarter_1 trailing_by_17_or_more"},
		{Situation{Down: 3, ToGo: 8, YardsToGoal: 50, Quarter: 4, SecondsInQuarter: 300, ScoreDiff: 16},
			"distance_long down_3 leading_by_9_to_16 opponent_territory quarter_4 under_5_minutes_left_in_game"},
	}
	for _, c := range cases {
		if got := strings.Join(c.s.Descriptors(), " "); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.s, got, c.want)
		}
	}
}

const playByPlayCSV = `GameID,qtr,down,TimeSecs,yrdline100,ydstogo,posteam,PlayType,TwoPointConv,ScoreDiff
1,1,NA,3600,30,0,,Kickoff,NA,NA
1,1,1,3590,75,10,NE,Run,NA,0
1,1,2,3550,70,5,NE,Sack,NA,0
1,1,3,3500,80,15,NE,Pass,NA,0
1,1,4,3490,80,15,NE,Punt,NA,0
1,2,4,1820,20,3,DEN,Field Goal,NA,-7
1,4,1,30,60,10,DEN,QB Kneel,NA,3
1,4,1,40,60,10,DEN,Spike,NA,3
1,4,NA,200,2,2,DEN,Pass,Success,-6
1,2,7,1820,20,3,DEN,Run,NA,-7
1,2,1,1820,20,3,DEN,Run,NA
1,1,1,3590,75,10,AFC,Run,NA,0
1,1,1,3590,75,10,,Run,NA,0
1,3,1,3000,75,10,NE,Pass,NA,0
`

func TestReadPlayByPlay(t *testing.T) {
	answers, st, warns, err := Read(strings.NewReader(playByPlayCSV), "pbp.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range answers {
		got = append(got, a.Annotator+" "+a.Action)
	}
	want := []string{"NE run", "NE pass", "NE pass", "NE punt", "DEN field_goal", "DEN kneel"}
	if !slices.Equal(got, want) {
		t.Fatalf("answers %v, want %v (a sack is a pass call)", got, want)
	}
	wantSt := Stats{Rows: 14, Answers: 6, NonPlays: 1, TwoPoint: 1, Spikes: 1, ProBowl: 1, Malformed: 4}
	if st != wantSt {
		t.Fatalf("stats %+v, want %+v", st, wantSt)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.Error())
	}
	wantW := []string{
		`pbp.csv:11: skipped Run play: down 7 outside 1..4`,
		`pbp.csv:12: skipped row: 9 fields, the header has 10`,
		`pbp.csv:14: skipped Run play: no team (column "posteam")`,
		`pbp.csv:15: skipped Pass play: TimeSecs 3000 gives 2100 s left in quarter 3`,
	}
	if !slices.Equal(ws, wantW) {
		t.Fatalf("warnings\n%s\nwant\n%s", strings.Join(ws, "\n"), strings.Join(wantW, "\n"))
	}
	if strings.Join(answers[4].Situation, " ") != "distance_short down_4 field_goal_range opponent_territory quarter_2 red_zone trailing_by_1_to_8 two_minutes_left_in_half" {
		t.Fatalf("field goal situation %v", answers[4].Situation)
	}
}

const fourthDownCSV = `game_id,play_id,posteam,play_type,yardline_100,ydstogo,qtr,quarter_seconds_remaining,score_differential
g,1,BUF,punt,76.0,6.0,1.0,819.0,0.0
g,2,CHI,qb_kneel,60.0,2.0,4.0,20.0,4.0
g,3,CHI,no_play,60.0,2.0,4.0,20.0,4.0
g,4,CHI,NA,60.0,2.0,4.0,20.0,4.0
g,5,CHI,go,60.0,2.0,4.0,20.0,4.0
g,6,CHI,run,x,2.0,4.0,20.0,4.0
`

func TestReadFourthDown(t *testing.T) {
	answers, st, warns, err := Read(strings.NewReader(fourthDownCSV), "4th.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 2 || answers[0].Action != "punt" || answers[1].Action != "kneel" || answers[1].Annotator != "CHI" {
		t.Fatalf("answers %+v", answers)
	}
	if !slices.Contains(answers[0].Situation, "down_4") || !slices.Contains(answers[1].Situation, "two_minutes_left_in_half") {
		t.Fatalf("situations %v %v", answers[0].Situation, answers[1].Situation)
	}
	if st.NonPlays != 3 || st.Malformed != 1 || len(warns) != 1 || !strings.Contains(warns[0].Error(), `4th.csv:7: skipped run play: yardline_100 "x" is not a number`) {
		t.Fatalf("stats %+v warnings %v", st, warns)
	}
	_, _, _, err = Read(strings.NewReader("a,b\n1,2\n"), "x.csv")
	if err == nil || !strings.Contains(err.Error(), "x.csv:1: header: not a table of a known layout; nflscrapR legacy play-by-play needs down,") {
		t.Fatalf("unknown layout: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(playByPlayCSV)
	f.Add(fourthDownCSV)
	f.Add(currentCSV)
	// A header that fits two layouts, and one with a down column but a
	// missing column of the current layout.
	f.Add("down,ydstogo,yrdline100,qtr,TimeSecs,ScoreDiff,PlayType,posteam,yardline_100,quarter_seconds_remaining,score_differential,play_type,two_point_attempt\n")
	f.Add("down,ydstogo,yardline_100,qtr,quarter_seconds_remaining,score_differential,play_type,posteam\n4,1,1,1,1,1,run,NE\n")
	f.Fuzz(func(t *testing.T, src string) {
		answers, st, _, err := Read(strings.NewReader(src), "fuzz.csv")
		if err != nil {
			return
		}
		if st.Answers != len(answers) || st.Rows != st.Answers+st.NonPlays+st.TwoPoint+st.Spikes+st.ProBowl+st.Preseason+st.Malformed {
			t.Fatalf("stats %+v do not add up (%d answers)", st, len(answers))
		}
		for _, a := range answers {
			if !slices.Contains(Actions, a.Action) || a.Annotator == "" || len(a.Situation) < 5 {
				t.Fatalf("answer %+v", a)
			}
		}
	})
}

// The real playoff files read without a warning; Pro Bowl teams are gone.
func TestPlayoffData(t *testing.T) {
	dir := shared.Path(t, "football/playoffs")
	files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
	if len(files) != 7 {
		t.Fatalf("%d playoff files, want 7", len(files))
	}
	var total Stats
	teams := map[string]bool{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		answers, st, warns, err := Read(f, name)
		f.Close()
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: %v %v", name, err, warns)
		}
		total.Add(st)
		for _, a := range answers {
			teams[a.Annotator] = true
		}
	}
	for _, pb := range ProBowlTeams {
		if teams[pb] {
			t.Fatalf("Pro Bowl team %s kept", pb)
		}
	}
	if total.Answers < 10000 || total.ProBowl == 0 || total.TwoPoint == 0 || len(teams) < 20 {
		t.Fatalf("stats %+v, %d teams", total, len(teams))
	}
}
