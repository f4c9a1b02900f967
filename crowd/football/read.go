package football

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/logic"
)

// ProBowlTeams are the all-star "teams" of Pro Bowl games, which are not
// real play calls under pressure and are dropped.
var ProBowlTeams = []string{"AFC", "NFC", "RIC", "IRV", "CRT", "SAN"}

// Stats counts what happened to the rows of the input.
type Stats struct {
	Rows      int // data rows read
	Answers   int // rows that became answers
	NonPlays  int // kickoffs, extra points, timeouts, no plays, ends of quarters, …
	TwoPoint  int // two-point conversion attempts, which have no down and distance
	Spikes    int // spikes: clock stops, not one of the five play calls
	ProBowl   int // plays of Pro Bowl games
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
	s.Malformed += o.Malformed
}

// layout names the columns of one of the two CSV layouts.
type layout struct {
	kind                                         string
	down, togo, yards, quarter, time, score, typ string
	team                                         string
	twoPoint                                     string // column that is not NA on two-point tries, if any
	// secondsInQuarter converts the time column to seconds left in the quarter.
	secondsInQuarter func(seconds float64, quarter int) int
	calls            map[string]string // play type to action ("" drops it as a spike)
}

var playByPlay = layout{
	kind: "play-by-play", down: "down", togo: "ydstogo", yards: "yrdline100", quarter: "qtr",
	time: "TimeSecs", score: "ScoreDiff", typ: "PlayType", team: "posteam", twoPoint: "TwoPointConv",
	// TimeSecs is the time left in the game.
	secondsInQuarter: func(t float64, q int) int { return int(t) - (4-q)*900 },
	calls: map[string]string{"Run": "run", "Pass": "pass", "Sack": "pass", "Punt": "punt",
		"Field Goal": "field_goal", "QB Kneel": "kneel", "Spike": ""},
}

var fourthDown = layout{
	kind: "fourth-down", down: "", togo: "ydstogo", yards: "yardline_100", quarter: "qtr",
	time: "quarter_seconds_remaining", score: "score_differential", typ: "play_type", team: "posteam",
	secondsInQuarter: func(t float64, _ int) int { return int(t) },
	calls: map[string]string{"run": "run", "pass": "pass", "punt": "punt", "field_goal": "field_goal",
		"qb_kneel": "kneel", "qb_spike": ""},
}

// Read reads one CSV file of either layout and returns an answer per play
// call. Non-plays, spikes and Pro Bowl games are dropped and counted; rows
// of a play call with a missing or impossible value, and rows the CSV reader
// cannot read, are skipped with a warning naming file and line. name is
// used in messages.
func Read(r io.Reader, name string) ([]dataset.Answer, Stats, []dataset.Warning, error) {
	cr := csv.NewReader(logic.SkipBOM(r))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			err = errors.New("empty file")
		}
		return nil, Stats{}, nil, fmt.Errorf("read %s: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimSpace(h)] = i
	}
	lay, err := detect(col)
	if err != nil {
		return nil, Stats{}, nil, fmt.Errorf("read %s: %w", name, err)
	}
	var (
		answers []dataset.Answer
		st      Stats
		warns   []dataset.Warning
	)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		st.Rows++
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			st.Malformed++
			warns = append(warns, dataset.Warning{File: name, Line: pe.Line, Column: pe.Column, Msg: "skipped row: " + pe.Err.Error()})
			continue
		}
		if err != nil {
			return nil, st, warns, fmt.Errorf("read %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			st.Malformed++
			warns = append(warns, dataset.Warning{File: name, Line: line, Msg: fmt.Sprintf("skipped row: %d fields, the header has %d", len(rec), len(header))})
			continue
		}
		get := func(c string) string {
			if i, ok := col[c]; ok {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		action, known := lay.calls[get(lay.typ)]
		team := get(lay.team)
		switch {
		case !known:
			st.NonPlays++
			continue
		case action == "":
			st.Spikes++
			continue
		case isProBowl(team):
			st.ProBowl++
			continue
		case lay.isTwoPoint(get):
			st.TwoPoint++
			continue
		}
		sit, err := lay.situation(get)
		if err == nil && team == "" {
			err = fmt.Errorf("no team (column %q)", lay.team)
		}
		if err != nil {
			st.Malformed++
			warns = append(warns, dataset.Warning{File: name, Line: line, Msg: "skipped " + get(lay.typ) + " play: " + err.Error()})
			continue
		}
		st.Answers++
		answers = append(answers, dataset.Answer{Situation: sit.Descriptors(), Annotator: team, Action: action})
	}
	return answers, st, warns, nil
}

func detect(col map[string]int) (layout, error) {
	for _, lay := range []layout{playByPlay, fourthDown} {
		ok := true
		for _, c := range []string{lay.down, lay.togo, lay.yards, lay.quarter, lay.time, lay.score, lay.typ, lay.team} {
			if _, has := col[c]; c != "" && !has {
				ok = false
			}
		}
		if ok {
			return lay, nil
		}
	}
	return layout{}, errors.New("header: not an NFL play-by-play table (needs down, ydstogo, yrdline100, qtr, TimeSecs, " +
		"ScoreDiff, PlayType, posteam) nor a fourth-down table (needs ydstogo, yardline_100, qtr, " +
		"quarter_seconds_remaining, score_differential, play_type, posteam)")
}

func (lay layout) isTwoPoint(get func(string) string) bool {
	if lay.twoPoint == "" {
		return false
	}
	v := get(lay.twoPoint)
	return v != "" && v != "NA"
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
	var s Situation
	down := 4.0
	var err error
	if lay.down != "" {
		if down, err = num(lay.down, 1, 4); err != nil {
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
		x, err := num(f.col, f.lo, f.hi)
		if err != nil {
			return s, err
		}
		*f.dst = int(x)
	}
	s.Down = int(down)
	if s.Quarter <= 4 {
		t, err := num(lay.time, -3600, 3600)
		if err != nil {
			return s, err
		}
		s.SecondsInQuarter = lay.secondsInQuarter(t, s.Quarter)
		if s.SecondsInQuarter < 0 || s.SecondsInQuarter > 900 {
			return s, fmt.Errorf("%s %v gives %d s left in quarter %d", lay.time, t, s.SecondsInQuarter, s.Quarter)
		}
	}
	return s, nil
}
