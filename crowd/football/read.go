package football

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/logic"
)

// ProBowlTeams are the all-star "teams" of Pro Bowl games, which are not
// real play calls under pressure and are dropped: AFC and NFC, the drafted
// teams of 2014–2016 (RIC, IRV, CRT, SAN), and APR and NPR, the AFC and
// NFC Pro Bowl teams of the 2018–19 layout.
var ProBowlTeams = []string{"AFC", "NFC", "RIC", "IRV", "CRT", "SAN", "APR", "NPR"}

// Stats counts what happened to the rows of the input.
type Stats struct {
	Rows      int // data rows read
	Answers   int // rows that became answers
	NonPlays  int // kickoffs, extra points, timeouts, no plays, ends of quarters, …
	TwoPoint  int // two-point conversion attempts, which have no down and distance
	Spikes    int // spikes: clock stops, not one of the five play calls
	ProBowl   int // plays of Pro Bowl games
	Preseason int // plays of preseason games (season_type PRE)
	Malformed int // rows skipped with a warning
}

// Add adds the counts of o to s.
func (s *Stats) Add(o Stats) {
	s.Rows += o.Rows
	s.Answers += o.Answers
	s.NonPlays += o.NonPlays
	s.TwoPoint += o.TwoPoint
	s.Spikes += o.Spikes
	s.ProBowl += o.ProBowl
	s.Preseason += o.Preseason
	s.Malformed += o.Malformed
}

// layout names the columns of one of the CSV layouts.
type layout struct {
	kind                                         string
	down, togo, yards, quarter, time, score, typ string
	team                                         string
	game, play                                   string // columns identifying a play, when present
	// twoPoint is the column marking two-point tries (not NA and not 0 on
	// them), if any; seasonType, if present, says REG, POST or PRE.
	twoPoint, seasonType string
	// needs are the columns a table must have to be read in this layout:
	// the situation, the call and the team, and the columns that tell it
	// apart from the other layouts; a table with a column of excludes is
	// never read in it.
	needs, excludes []string
	// secondsInQuarter converts the time column to seconds left in the quarter.
	secondsInQuarter func(seconds float64, quarter int) int
	calls            map[string]string // play type to action ("" drops it as a spike)
}

// legacy is nflscrapR's first layout (legacy_data/ of nflscrapR-data).
var legacy = layout{
	kind: "nflscrapR legacy play-by-play", down: "down", togo: "ydstogo", yards: "yrdline100", quarter: "qtr",
	time: "TimeSecs", score: "ScoreDiff", typ: "PlayType", team: "posteam", twoPoint: "TwoPointConv",
	game: "GameID", play: "play_id",
	needs: []string{"down", "ydstogo", "yrdline100", "qtr", "TimeSecs", "ScoreDiff", "PlayType", "posteam"},
	// TimeSecs is the time left in the game.
	secondsInQuarter: func(t float64, q int) int { return int(t) - (4-q)*900 },
	calls: map[string]string{"Run": "run", "Pass": "pass", "Sack": "pass", "Punt": "punt",
		"Field Goal": "field_goal", "QB Kneel": "kneel", "Spike": ""},
}

// fastCalls are the play calls of nflfastR's play_type; a sack is a pass
// play there (with sack = 1).
var fastCalls = map[string]string{"run": "run", "pass": "pass", "punt": "punt", "field_goal": "field_goal",
	"qb_kneel": "kneel", "qb_spike": ""}

// current is the layout of nflscrapR's play_by_play_data/ and of nflfastR.
var current = layout{
	kind: "nflscrapR/nflfastR play-by-play", down: "down", togo: "ydstogo", yards: "yardline_100", quarter: "qtr",
	time: "quarter_seconds_remaining", score: "score_differential", typ: "play_type", team: "posteam",
	twoPoint: "two_point_attempt", seasonType: "season_type", game: "game_id", play: "play_id",
	needs: []string{"down", "ydstogo", "yardline_100", "qtr", "quarter_seconds_remaining", "score_differential",
		"play_type", "posteam", "two_point_attempt"},
	secondsInQuarter: func(t float64, _ int) int { return int(t) },
	calls:            fastCalls,
}

// fourthDown is the layout of the fourth_calculator decision files: every
// row is a fourth down, and there is no down column.
var fourthDown = layout{
	kind: "fourth-down decisions", togo: "ydstogo", yards: "yardline_100", quarter: "qtr",
	time: "quarter_seconds_remaining", score: "score_differential", typ: "play_type", team: "posteam",
	game: "game_id", play: "play_id",
	needs: []string{"ydstogo", "yardline_100", "qtr", "quarter_seconds_remaining", "score_differential",
		"play_type", "posteam"},
	excludes:         []string{"down"},
	secondsInQuarter: func(t float64, _ int) int { return int(t) },
	calls:            fastCalls,
}

// layouts are the CSV layouts Read recognises.
var layouts = []layout{legacy, current, fourthDown}

// play is one play call read from a table, with what identifies it.
type play struct {
	Game, ID string // the game and play id columns, when the table has them
	Line     int    // line of the row in the file
	Down     int    // the down read from the table (4 for fourth-down decisions)
	crowd.Answer
}

// Read reads one CSV file of any of the layouts and returns an answer per
// play call. Non-plays, spikes, two-point tries, preseason games and Pro
// Bowl games are dropped and counted; rows of a play call with a missing
// or impossible value, and rows the CSV reader cannot read, are skipped
// with a warning naming file and line. name is used in messages.
func Read(r io.Reader, name string) ([]crowd.Answer, Stats, logic.ErrorList, error) {
	plays, st, warns, err := readPlays(r, name)
	answers := make([]crowd.Answer, len(plays))
	for i, p := range plays {
		answers[i] = p.Answer
	}
	return answers, st, warns, err
}

// readPlays is Read with the game, play id, line and down of every play
// call, to compare the layouts play by play.
func readPlays(r io.Reader, name string) ([]play, Stats, logic.ErrorList, error) {
	var (
		col   map[string]int
		lay   layout
		plays []play
		st    Stats
		warns logic.ErrorList
	)
	header := func(line int, header []string) error {
		col = map[string]int{}
		for i, h := range header {
			col[strings.TrimSpace(h)] = i
		}
		var err error
		if lay, err = detect(col); err != nil {
			return &logic.ParseError{Pos: logic.Position{File: name, Line: line}, Err: err}
		}
		return nil
	}
	row := func(line int, rec []string) error {
		get := func(c string) string {
			if i, ok := col[c]; ok && c != "" {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		action, known := lay.calls[get(lay.typ)]
		team := get(lay.team)
		if team == "NA" {
			team = "" // nflfastR's missing value
		}
		switch {
		case !known:
			st.NonPlays++
			return nil
		case action == "":
			st.Spikes++
			return nil
		case isProBowl(team):
			st.ProBowl++
			return nil
		case lay.isPreseason(get):
			st.Preseason++
			return nil
		case lay.isTwoPoint(get):
			st.TwoPoint++
			return nil
		}
		sit, err := lay.situation(get)
		if err == nil && team == "" {
			err = fmt.Errorf("no team (column %q)", lay.team)
		}
		if err != nil {
			warns = append(warns, logic.Errorf(logic.Position{File: name, Line: line}, "skipped %s play: %w", get(lay.typ), err))
			return nil
		}
		st.Answers++
		plays = append(plays, play{Game: get(lay.game), ID: get(lay.play), Line: line, Down: sit.Down,
			Answer: crowd.Answer{Situation: sit.Descriptors(), Annotator: team, Action: action}})
		return nil
	}
	rows, err := crowd.ReadCSV(r, name, &warns, header, row)
	// Every warning is a row skipped: one that does not parse, has the
	// wrong number of fields, or describes no situation.
	st.Rows, st.Malformed = rows, len(warns)
	if err != nil {
		return nil, st, warns, err
	}
	return plays, st, warns, nil
}

// detect returns the one layout whose needed columns the header has and
// none of whose excluded columns it has. No such layout, or more than one,
// is an error listing what each layout needs: a reader that guessed could
// turn every play into a fourth down.
func detect(col map[string]int) (layout, error) {
	var fits []layout
	for _, lay := range layouts {
		if lay.fits(col) {
			fits = append(fits, lay)
		}
	}
	if len(fits) == 1 {
		return fits[0], nil
	}
	var b strings.Builder
	if len(fits) == 0 {
		b.WriteString("header: not a table of a known layout;")
	} else {
		b.WriteString("header: ambiguous, it fits")
		for i, lay := range fits {
			if i > 0 {
				b.WriteString(" and")
			}
			fmt.Fprintf(&b, " the %s layout", lay.kind)
		}
		b.WriteString(";")
	}
	for i, lay := range layouts {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s needs %s", lay.kind, strings.Join(lay.needs, ", "))
		if len(lay.excludes) > 0 {
			fmt.Fprintf(&b, " and no %s column", strings.Join(lay.excludes, ", "))
		}
		if missing := lay.missing(col); len(missing) > 0 && len(missing) < len(lay.needs) && len(fits) == 0 {
			fmt.Fprintf(&b, " (missing: %s)", strings.Join(missing, ", "))
		}
	}
	return layout{}, errors.New(b.String())
}

func (lay layout) missing(col map[string]int) []string {
	var out []string
	for _, c := range lay.needs {
		if _, ok := col[c]; !ok {
			out = append(out, c)
		}
	}
	return out
}

func (lay layout) fits(col map[string]int) bool {
	for _, c := range lay.excludes {
		if _, ok := col[c]; ok {
			return false
		}
	}
	return len(lay.missing(col)) == 0
}

// isPreseason reports a preseason game (season_type PRE), whose calls are
// made with reserve players and a reduced playbook, like Pro Bowl calls.
func (lay layout) isPreseason(get func(string) string) bool {
	return lay.seasonType != "" && strings.EqualFold(get(lay.seasonType), "PRE")
}

func (lay layout) isTwoPoint(get func(string) string) bool {
	if lay.twoPoint == "" {
		return false
	}
	v := get(lay.twoPoint)
	return v != "" && v != "NA" && v != "0"
}

func isProBowl(team string) bool {
	for _, t := range ProBowlTeams {
		if team == t {
			return true
		}
	}
	return false
}

// situation reads and checks the situation columns of a row.
func (lay layout) situation(get func(string) string) (Situation, error) {
	num := func(c string, lo, hi float64) (float64, error) {
		v := get(c)
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) {
			return 0, fmt.Errorf("%s %q is not a number", c, v)
		}
		if x < lo || x > hi {
			return 0, fmt.Errorf("%s %v outside %v..%v", c, x, lo, hi)
		}
		return x, nil
	}
	// Downs, yards, quarters and points are whole numbers ("3" or "3.0"):
	// a down of 2.9 is a broken row, not down_2.
	whole := func(c string, lo, hi float64) (int, error) {
		x, err := num(c, lo, hi)
		if err == nil && x != math.Trunc(x) {
			err = fmt.Errorf("%s %v is not a whole number", c, x)
		}
		return int(x), err
	}
	var s Situation
	down := 4
	var err error
	if lay.down != "" {
		if down, err = whole(lay.down, 1, 4); err != nil {
			return s, err
		}
	}
	fields := []struct {
		col    string
		lo, hi float64
		dst    *int
	}{
		{lay.togo, 1, 99, &s.ToGo},
		{lay.yards, 1, 99, &s.YardsToGoal},
		{lay.quarter, 1, 6, &s.Quarter},
		{lay.score, -99, 99, &s.ScoreDiff},
	}
	for _, f := range fields {
		x, err := whole(f.col, f.lo, f.hi)
		if err != nil {
			return s, err
		}
		*f.dst = x
	}
	s.Down = down
	if s.Quarter <= 4 {
		t, err := num(lay.time, -3600, 3600)
		if err != nil {
			return s, err
		}
		// Rounded up: 120.5 s left is more than two minutes.
		s.SecondsInQuarter = lay.secondsInQuarter(math.Ceil(t), s.Quarter)
		if s.SecondsInQuarter < 0 || s.SecondsInQuarter > 900 {
			return s, fmt.Errorf("%s %v gives %d s left in quarter %d", lay.time, t, s.SecondsInQuarter, s.Quarter)
		}
	}
	return s, nil
}
