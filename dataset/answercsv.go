package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// AnswerFormat says how to read a CSV answer table: one row per answer, a
// header row naming the columns, an annotator column, an answer column and
// situation columns. Situation columns become propositional descriptors:
//
//   - a column with user-given Intervals gives exactly those descriptors;
//   - a Boolean column (values 0/1, true/false or yes/no) gives the atom
//     named after the column when true;
//   - a numeric column with more than MaxLevels distinct values is cut into
//     Bins bins of about equal size ("ydstogo_4_to_7");
//   - any other column gives one atom per value ("down_4", "weather_rain").
//
// Values listed in Missing give no descriptor.
type AnswerFormat struct {
	Annotator string     // column of the annotator; required
	Answer    string     // column of the answer; required
	DontKnow  []string   // answer values meaning "don't know" (default: "dont_know", "don't know", "?")
	Actions   []string   // the actions, made atoms by AtomName; nil: every answer seen, sorted
	Situation []string   // situation columns; nil: every column but the annotator, answer and Ignore
	Ignore    []string   // columns that are not part of the situation
	Intervals []Interval // user-given descriptors of numeric columns
	Bins      int        // bins of an automatic numeric column (default 3)
	MaxLevels int        // a numeric column with at most this many values is categorical (default 8)
	Missing   []string   // values meaning "not given" (default: "", "NA", "?")
}

func (f *AnswerFormat) defaults() {
	if f.DontKnow == nil {
		f.DontKnow = []string{"dont_know", "don't know", "?"}
	}
	if f.Bins <= 0 {
		f.Bins = 3
	}
	if f.MaxLevels <= 0 {
		f.MaxLevels = 8
	}
	if f.Missing == nil {
		f.Missing = []string{"", "NA", "?"}
	}
	// Given actions are spelled as the answers become atoms: "Field Goal"
	// and field_goal are the same action.
	actions := make([]string, len(f.Actions))
	for i, a := range f.Actions {
		actions[i] = AtomName(a)
	}
	if f.Actions != nil {
		f.Actions = actions
	}
}

// ReadAnswers reads a CSV answer table. Rows that cannot be used (a wrong
// number of fields, a broken quote, an empty annotator or answer, an answer
// that is not one of Actions, a non-numeric value in a column with
// Intervals) are skipped and reported as warnings naming file, line and
// column; a missing header column or a table without any usable row is an
// error. name is used in messages.
func ReadAnswers(r io.Reader, name string, format AnswerFormat) (*AnswerTable, []Warning, error) {
	format.defaults()
	cr := csv.NewReader(logic.SkipBOM(r))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, nil, fmt.Errorf("read %s: empty file, expected a header row", name)
		}
		return nil, nil, fmt.Errorf("read %s: header: %w", name, err)
	}
	lay, err := newAnswerLayout(header, format)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", name, err)
	}
	var warns []Warning
	var rows []answerRow
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			warns = append(warns, Warning{File: name, Line: pe.Line, Column: pe.Column, Msg: "skipped row: " + pe.Err.Error()})
			continue
		}
		if err != nil {
			return nil, warns, fmt.Errorf("read %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			warns = append(warns, Warning{File: name, Line: line, Msg: fmt.Sprintf("skipped row: %d fields, the header has %d", len(rec), len(header))})
			continue
		}
		rows = append(rows, answerRow{line: line, rec: rec})
	}
	t, w := lay.answers(name, rows)
	warns = append(warns, w...)
	if len(t.Answers) == 0 {
		return nil, warns, fmt.Errorf("read %s: %w", name, ErrNoAnswers)
	}
	return t, warns, nil
}

type answerRow struct {
	line int
	rec  []string
}

// answerLayout is the column plan of a table: where the annotator and answer
// are and how each situation column is described.
type answerLayout struct {
	format    AnswerFormat
	header    []string
	annotator int
	answer    int
	situation []int
	intervals map[int][]Interval
}

func newAnswerLayout(header []string, f AnswerFormat) (*answerLayout, error) {
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if _, dup := col[h]; dup {
			return nil, fmt.Errorf("header: column %q appears twice", h)
		}
		col[h] = i
	}
	find := func(what, c string) (int, error) {
		i, ok := col[c]
		if !ok {
			return 0, fmt.Errorf("header: no %s column %q (columns: %s)", what, c, strings.Join(header, ", "))
		}
		return i, nil
	}
	lay := &answerLayout{format: f, header: header, intervals: map[int][]Interval{}}
	var err error
	if f.Annotator == "" || f.Answer == "" {
		return nil, errors.New("the annotator and answer columns must be named")
	}
	if lay.annotator, err = find("annotator", f.Annotator); err != nil {
		return nil, err
	}
	if lay.answer, err = find("answer", f.Answer); err != nil {
		return nil, err
	}
	sit := f.Situation
	if sit == nil {
		for _, h := range header {
			h = strings.TrimSpace(h)
			if h != f.Annotator && h != f.Answer && !slices.Contains(f.Ignore, h) {
				sit = append(sit, h)
			}
		}
	}
	for _, c := range sit {
		i, err := find("situation", c)
		if err != nil {
			return nil, err
		}
		lay.situation = append(lay.situation, i)
	}
	for _, iv := range f.Intervals {
		i, err := find("descriptor "+iv.Name+"'s", iv.Column)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(lay.situation, i) {
			lay.situation = append(lay.situation, i)
		}
		lay.intervals[i] = append(lay.intervals[i], iv)
	}
	if len(lay.situation) == 0 {
		return nil, errors.New("no situation columns")
	}
	return lay, nil
}

// answers describes the rows. It looks at the whole table first, since
// automatic bins and column kinds depend on every value of a column.
func (lay *answerLayout) answers(name string, rows []answerRow) (*AnswerTable, []Warning) {
	f := lay.format
	describe := map[int]func(string) (string, bool){}
	for _, c := range lay.situation {
		if _, ok := lay.intervals[c]; !ok {
			describe[c] = lay.columnDescriber(c, rows)
		}
	}
	var warns []Warning
	warn := func(r answerRow, col int, msg string) {
		warns = append(warns, Warning{File: name, Line: r.line, Column: col + 1, Msg: "skipped row: " + msg})
	}
	t := &AnswerTable{Actions: slices.Clone(f.Actions)}
	seenActions := map[string]bool{}
	for _, a := range f.Actions {
		seenActions[a] = true
	}
rows:
	for _, r := range rows {
		ann := strings.TrimSpace(r.rec[lay.annotator])
		if ann == "" {
			warn(r, lay.annotator, fmt.Sprintf("empty annotator (column %q)", lay.header[lay.annotator]))
			continue
		}
		act, ok := lay.action(r.rec[lay.answer])
		if !ok {
			warn(r, lay.answer, fmt.Sprintf("empty answer (column %q)", lay.header[lay.answer]))
			continue
		}
		if act != DontKnow && !seenActions[act] {
			if f.Actions != nil {
				warn(r, lay.answer, fmt.Sprintf("answer %q is not one of the actions %s", r.rec[lay.answer], strings.Join(f.Actions, ", ")))
				continue
			}
			seenActions[act] = true
			t.Actions = append(t.Actions, act)
		}
		var sit []string
		for _, c := range lay.situation {
			v := strings.TrimSpace(r.rec[c])
			if slices.Contains(f.Missing, v) {
				continue
			}
			if ivs, ok := lay.intervals[c]; ok {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					warn(r, c, fmt.Sprintf("%q in column %q is not a number", v, lay.header[c]))
					continue rows
				}
				for _, iv := range ivs {
					if iv.Holds(x) {
						sit = append(sit, iv.Name)
					}
				}
				continue
			}
			if d, ok := describe[c](v); ok {
				sit = append(sit, d)
			}
		}
		slices.Sort(sit)
		t.Answers = append(t.Answers, Answer{Situation: slices.Compact(sit), Annotator: ann, Action: act})
	}
	if f.Actions == nil {
		slices.Sort(t.Actions)
	}
	return t, warns
}

// action maps an answer value to an action atom, DontKnow, or reports an
// empty answer.
func (lay *answerLayout) action(v string) (string, bool) {
	v = strings.TrimSpace(v)
	for _, d := range lay.format.DontKnow {
		if strings.EqualFold(v, d) {
			return DontKnow, true
		}
	}
	if v == "" {
		return "", false
	}
	return AtomName(v), true
}

// columnDescriber decides how column c is described from all its values.
func (lay *answerLayout) columnDescriber(c int, rows []answerRow) func(string) (string, bool) {
	f := lay.format
	name := AtomName(lay.header[c])
	distinct := map[string]bool{}
	var nums []float64
	numeric, boolean := true, true
	for _, r := range rows {
		v := strings.TrimSpace(r.rec[c])
		if slices.Contains(f.Missing, v) {
			continue
		}
		distinct[v] = true
		if _, ok := parseBool(v); !ok {
			boolean = false
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			numeric = false
		} else {
			nums = append(nums, x)
		}
	}
	switch {
	case boolean && len(distinct) > 0:
		return func(v string) (string, bool) {
			b, _ := parseBool(v)
			return name, b
		}
	case numeric && len(distinct) > f.MaxLevels:
		b := quantileBins(lay.header[c], nums, f.Bins)
		return func(v string) (string, bool) {
			x, err := strconv.ParseFloat(v, 64)
			return b.name(x), err == nil
		}
	}
	return func(v string) (string, bool) { return name + "_" + atomText(v), true }
}

func parseBool(v string) (value, ok bool) {
	switch strings.ToLower(v) {
	case "1", "true", "yes":
		return true, true
	case "0", "false", "no":
		return false, true
	}
	return false, false
}
