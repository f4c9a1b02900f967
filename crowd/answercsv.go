package crowd

import (
	"errors"
	"fmt"
	"io"
	"math"
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
// Values listed in Missing, and NaN in any spelling (how numeric exports
// such as pandas' and R's write a missing number), give no descriptor.
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

// checkColumns refuses a format whose annotator, answer and situation
// columns overlap: an answer that is its own annotator, or a situation
// that holds the answer (which would make learning trivial) or the
// annotator (whom the split holds out).
func (f *AnswerFormat) checkColumns() error {
	switch {
	case f.Annotator == "" || f.Answer == "":
		return errors.New("the annotator and answer columns must be named")
	case f.Annotator == f.Answer:
		return fmt.Errorf("the annotator and the answer are both column %q: give two different columns", f.Answer)
	}
	role := func(c string) string {
		switch c {
		case f.Annotator:
			return "annotator"
		case f.Answer:
			return "answer"
		}
		return ""
	}
	for _, c := range f.Situation {
		if r := role(c); r != "" {
			return fmt.Errorf("situation column %q is also the %s column", c, r)
		}
	}
	for _, iv := range f.Intervals {
		if r := role(iv.Column); r != "" {
			return fmt.Errorf("descriptor %s describes column %q, which is the %s column", iv.Name, iv.Column, r)
		}
	}
	return nil
}

// missing reports whether v means "not given": a value of Missing, or NaN.
func (f *AnswerFormat) missing(v string) bool {
	if slices.Contains(f.Missing, v) {
		return true
	}
	x, err := strconv.ParseFloat(v, 64)
	return err == nil && math.IsNaN(x)
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

// AnswerSource is one CSV table of ReadAnswerSources.
type AnswerSource struct {
	R    io.Reader
	Name string
	// Test puts the source's answers into the test part. Test rows do not
	// decide column kinds and bins, which are chosen on the training rows.
	Test bool
}

// ReadAnswerSources reads CSV answer tables with the same header as one
// table and returns it with the split that puts the answers of Test
// sources into the test part and the others into the training part. An
// annotator may then be on both sides.
//
// Rows that cannot be used (a wrong number of fields, a broken quote, an
// empty annotator or answer, an answer that is not one of Actions, a
// non-numeric value in a column with Intervals) are skipped and reported as
// warnings naming file, line and column; a missing header column, two
// values of situation columns that would become the same atom, or a table
// without any usable row is an error. The table's Descriptors are every
// atom the column plan gives: the intervals, the Boolean columns, every
// bin, and a column_value atom per value of a categorical column. A
// source's Name is used in messages.
func ReadAnswerSources(sources []AnswerSource, format AnswerFormat) (*AnswerTable, Split, logic.ErrorList, error) {
	if err := format.checkColumns(); err != nil {
		return nil, Split{}, nil, err
	}
	format.defaults()
	var (
		lay   *answerLayout
		warns logic.ErrorList
		rows  []answerRow
	)
	for _, src := range sources {
		header := func(line int, header []string) error {
			at := logic.Position{File: src.Name, Line: line}
			if lay == nil {
				var err error
				if lay, err = newAnswerLayout(header, format); err != nil {
					return &logic.ParseError{Pos: at, Err: err}
				}
			} else if !slices.Equal(trimAll(header), trimAll(lay.header)) {
				return logic.Errorf(at, "header: the columns differ from those of %s (%s)",
					sources[0].Name, columnList(lay.header))
			}
			return nil
		}
		row := func(line int, rec []string) error {
			rows = append(rows, answerRow{file: src.Name, line: line, rec: rec, test: src.Test})
			return nil
		}
		if _, err := ReadCSV(src.R, src.Name, &warns, header, row); err != nil {
			return nil, Split{}, warns, err
		}
	}
	if lay == nil {
		return nil, Split{}, nil, errors.New("no answer tables")
	}
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
	}
	t, split, w, err := lay.answers(rows)
	warns = append(warns, w...)
	if err != nil {
		return nil, Split{}, warns, fmt.Errorf("read %s: %w", strings.Join(names, ", "), err)
	}
	if len(t.Answers) == 0 {
		return nil, Split{}, warns, fmt.Errorf("read %s: %w", strings.Join(names, ", "), ErrNoAnswers)
	}
	return t, split, warns, nil
}

// columnList lists the columns of a header for a message, each quoted:
// a header is input, and a control character or a line break in it must
// not reach the terminal as it is.
func columnList(header []string) string {
	qs := make([]string, len(header))
	for i, h := range header {
		qs[i] = strconv.Quote(strings.TrimSpace(h))
	}
	return strings.Join(qs, ", ")
}

func trimAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.TrimSpace(x)
	}
	return out
}

type answerRow struct {
	file string
	line int
	rec  []string
	test bool
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
	// categorical marks the columns that give one atom per value.
	categorical map[int]bool
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
			return 0, fmt.Errorf("header: no %s column %q (columns: %s)", what, c, columnList(header))
		}
		return i, nil
	}
	lay := &answerLayout{format: f, header: header, intervals: map[int][]Interval{}, categorical: map[int]bool{}}
	var err error
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
		return nil, errors.New("header: no situation columns")
	}
	return lay, nil
}

// describer turns a value of a situation column into its atom; ok is false
// for no atom, and err says why a value does not fit the column.
type describer func(v string) (atom string, ok bool, err error)

// answers describes the rows. It looks at the whole training part first,
// since automatic bins and column kinds depend on every value of a column.
func (lay *answerLayout) answers(rows []answerRow) (*AnswerTable, Split, logic.ErrorList, error) {
	f := lay.format
	var train []answerRow
	for _, r := range rows {
		if !r.test {
			train = append(train, r)
		}
	}
	if len(train) == 0 && len(rows) > 0 {
		return nil, Split{}, nil, errors.New("every table is a test table: no training answers")
	}
	describe := map[int]describer{}
	for _, c := range lay.situation {
		if _, ok := lay.intervals[c]; !ok {
			describe[c] = lay.columnDescriber(c, train)
		}
	}
	vocab, err := lay.vocabulary(describe, rows)
	if err != nil {
		return nil, Split{}, nil, err
	}
	var warns logic.ErrorList
	warn := func(r answerRow, col int, msg string) {
		warns = append(warns, logic.Errorf(logic.Position{File: r.file, Line: r.line, Col: col + 1}, "skipped row: %s", msg))
	}
	t := &AnswerTable{Actions: slices.Clone(f.Actions), Descriptors: vocab}
	var split Split
	seenActions := map[string]bool{}
	for _, a := range f.Actions {
		seenActions[a] = true
	}
	// spelled keeps the first answer text of each action and where it was:
	// two spellings of one action ("Field Goal" and field_goal) are an
	// error, as two column values of one descriptor are (vocabulary).
	type spelling struct {
		text string
		row  answerRow
	}
	spelled := map[string]spelling{}
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
			if f.missing(v) {
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
			d, ok, err := describe[c](v)
			if err != nil {
				warn(r, c, fmt.Sprintf("%q in column %q: %v", v, lay.header[c], err))
				continue rows
			}
			if ok {
				sit = append(sit, d)
			}
		}
		// Checked on the rows that become answers: a skipped row merges nothing.
		if text := strings.TrimSpace(r.rec[lay.answer]); act != DontKnow {
			if first, ok := spelled[act]; !ok {
				spelled[act] = spelling{text, r}
			} else if first.text != text {
				return nil, Split{}, nil, logic.Errorf(logic.Position{File: r.file, Line: r.line, Col: lay.answer + 1},
					"answers %q (%s:%d) and %q (column %q) both become the action %q; use one spelling",
					first.text, first.row.file, first.row.line, text, strings.TrimSpace(lay.header[lay.answer]), act)
			}
		}
		slices.Sort(sit)
		a := Answer{Situation: slices.Compact(sit), Annotator: ann, Action: act}
		t.Answers = append(t.Answers, a)
		if r.test {
			split.Test = append(split.Test, a)
		} else {
			split.Train = append(split.Train, a)
		}
	}
	if f.Actions == nil {
		slices.Sort(t.Actions)
	}
	return t, split, warns, nil
}

// vocabulary returns every atom the column plan can give, sorted, and
// reports two different column values (or a value and an interval) that
// would become the same atom: "a b"=c and a="b c" are both a_b_c, and a
// reader that merged them would answer about a situation nobody described.
func (lay *answerLayout) vocabulary(describe map[int]describer, rows []answerRow) ([]string, error) {
	origin := map[string]string{}
	add := func(atom, from string, interval bool) error {
		if prev, ok := origin[atom]; ok && prev != from {
			// Intervals are named by the user, who may give one name to
			// several ranges on purpose.
			if !(interval && strings.HasPrefix(prev, "interval ")) {
				return fmt.Errorf("situation columns: %s and %s both become the atom %q; rename a column or a value", prev, from, atom)
			}
		}
		if _, ok := origin[atom]; !ok {
			origin[atom] = from
		}
		return nil
	}
	for _, c := range lay.situation {
		for _, iv := range lay.intervals[c] {
			if err := add(iv.Name, "interval "+iv.Name, true); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range lay.situation {
		d, ok := describe[c]
		if !ok {
			continue
		}
		seen := map[string]bool{}
		for _, r := range rows {
			v := strings.TrimSpace(r.rec[c])
			if seen[v] || lay.format.missing(v) {
				continue
			}
			seen[v] = true
			atom, ok, err := d(v)
			if err != nil || !ok {
				continue
			}
			// A Boolean or binned column gives its atoms to many values.
			from := fmt.Sprintf("column %q", strings.TrimSpace(lay.header[c]))
			if lay.categorical[c] {
				from += fmt.Sprintf(" value %q", v)
			}
			if err := add(atom, from, false); err != nil {
				return nil, err
			}
		}
	}
	out := make([]string, 0, len(origin))
	for a := range origin {
		out = append(out, a)
	}
	slices.Sort(out)
	return out, nil
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

// columnDescriber decides how column c is described from its values in
// rows (the training rows). Every bin of a numeric column is an atom of
// the vocabulary, so the bins are named up front.
func (lay *answerLayout) columnDescriber(c int, rows []answerRow) describer {
	f := lay.format
	name := AtomName(lay.header[c])
	distinct := map[string]bool{}
	var nums []float64
	numeric, boolean := true, true
	for _, r := range rows {
		v := strings.TrimSpace(r.rec[c])
		if f.missing(v) {
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
		return func(v string) (string, bool, error) {
			b, ok := parseBool(v)
			if !ok {
				return "", false, errors.New("not a Boolean value (0/1, true/false, yes/no) like the training rows")
			}
			return name, b, nil
		}
	case numeric && len(distinct) > f.MaxLevels:
		b := quantileBins(lay.header[c], nums, f.Bins)
		return func(v string) (string, bool, error) {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(x) {
				return "", false, errors.New("not a number like the training rows")
			}
			return b.name(x), true, nil
		}
	}
	lay.categorical[c] = true
	return func(v string) (string, bool, error) { return name + "_" + atomText(v), true, nil }
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
