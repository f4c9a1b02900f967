// Package table learns possibilistic theories from tables: a CSV file with
// a header, one row per case, feature columns and a class column, such as
// the UCI tables of the rule learners with exceptions (FOLD-R++, FOLD-RM,
// RIPPER).
//
// A table is an answer table with one answer per row (see package crowd):
// a row's situation is the conjunction of its literals, its class is the
// answer, and the learner learns from the default "situation |~ class" and
// a non-default "situation |~ other class". Categorical columns become
// atoms col=value; numeric columns become threshold atoms col<=t whose cut
// points are chosen on the training rows alone (Cuts: the boundary points
// where the class changes, reduced by Fayyad and Irani's minimum
// description length criterion). A missing value ('?' or an empty field)
// gives no literal. The class is one atom per class value with exactly one
// of them true, as the actions of the crowd domains; hard rules also say
// that a column has at most one value and that the thresholds of a column
// are ordered (col<=3 -> col<=5), so no world of the reasoner has x <= 3
// and x > 5. The learner reasons with an equivalent, smaller form of "at
// most one value" (Encoding.LearnerHard); the theory states it pairwise.
//
// Learn runs the learning protocol (package learn) on the training rows:
// the number of iterations is chosen on held-out rows, each held-out part
// encoded with the cut points and values of its own training rows
// (NewProblem), and scored as the task is, one class per row.
//
// The theory prints its atoms as a person writes them (odor=foul,
// capital_gain > 6849) and reads back (package logic). Predict answers one
// class per row, NoClass when the theory entails no single class, and
// Evaluate scores the answers: accuracy, macro-F1 and the confusion table
// (eval.Confusion).
package table

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Table is a table read from CSV: every column of the file, by name, with
// its values per row.
type Table struct {
	Name    string    // the file name, for messages
	Columns []*Column // in the header's order
	Rows    int
	// Lines holds the line of each row in the file (a quoted field may span
	// lines), for messages.
	Lines []int
	// Notes say what the reader decided that a person should know, such as
	// a column left out of the features as an identifier.
	Notes []string
	// Skipped holds, with Options.SkipBadRows, an error for every row that
	// was left out, naming its file, line and column (a *logic.Error).
	Skipped []error
}

// Column is one column of a table. A numeric column holds numbers (NaN
// where missing); a categorical one holds codes into Values (-1 where
// missing).
type Column struct {
	Name    string
	Index   int // position in the header, from 0
	Numeric bool
	Num     []float64
	Codes   []int32
	Values  []string // the distinct values of a categorical column, in order of first appearance
}

// Missing reports whether the column has no value in row i.
func (c *Column) Missing(i int) bool {
	if c.Numeric {
		return math.IsNaN(c.Num[i])
	}
	return c.Codes[i] < 0
}

// Value returns the text of the column's value in row i ("" when missing).
func (c *Column) Value(i int) string {
	switch {
	case c.Missing(i):
		return ""
	case c.Numeric:
		return logic.FormatThreshold(c.Num[i])
	}
	return c.Values[c.Codes[i]]
}

// Column returns the column named name, or nil.
func (t *Table) Column(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Options say how to read a table. The zero value reads every column and
// infers its type.
type Options struct {
	// Numeric names the columns that are numbers: a value that is not one
	// is an error. A column not named is categorical when Numeric is not
	// nil, and inferred when it is nil: numeric when every value is a
	// number.
	Numeric []string
	// Categorical names columns that are categorical whatever their values
	// (the class and group columns always are).
	Categorical []string
	// SkipBadRows leaves out the rows that cannot be read, instead of
	// failing on the first: a row with more or fewer fields than the
	// header, or a value that is not a number in a numeric column. Each is
	// recorded in Table.Skipped with its position, for the caller to
	// report; a quoting error, which leaves the rest of the file unclear,
	// still fails.
	SkipBadRows bool
}

// Missing reports whether a field is a missing value: '?' or empty.
func Missing(field string) bool { return field == "" || field == "?" }

// maxInferredValues is the number of distinct values up to which a column
// whose type is inferred keeps its text: a column with more distinct values,
// all numbers so far, is numeric from then on, and a text value after that
// is an error (as categories, that many values could not be learned from).
const maxInferredValues = 4096

// column is a column being read.
type column struct {
	*Column
	fixed    bool // the type was given
	maybeNum bool // inferred, and every value so far is a number
	dict     map[string]int32
	gaveUp   bool // an inferred column with too many values to keep its text
}

// Read reads a table in CSV with a header. It fails, naming the file, line
// and column, on a ragged row, a repeated or empty column name, a value
// that is not a number in a numeric column, a quoting error, an empty
// table, or a column of opts that the header lacks; with
// Options.SkipBadRows it leaves out ragged rows and rows with text in a
// numeric column, and records them in Table.Skipped. Fields are trimmed of
// blanks.
func Read(r io.Reader, name string, opts Options) (*Table, error) {
	cr := csv.NewReader(logic.SkipBOM(r))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, logic.Errorf(logic.Position{File: name, Line: 1, Col: 1}, "empty table: expected a header line naming the columns")
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	t := &Table{Name: name}
	cols := make([]*column, len(header))
	seen := map[string]bool{}
	numeric := setOf(opts.Numeric)
	categorical := setOf(opts.Categorical)
	for i, h := range header {
		h = strings.TrimSpace(h)
		line, col := cr.FieldPos(i)
		pos := logic.Position{File: name, Line: line, Col: col}
		switch {
		case h == "":
			return nil, logic.Errorf(pos, "column %d has no name", i+1)
		case seen[h]:
			return nil, logic.Errorf(pos, "column %q appears twice in the header", h)
		case numeric[h] && categorical[h]:
			return nil, logic.Errorf(pos, "column %q is given as both numeric and categorical", h)
		}
		seen[h] = true
		c := &column{Column: &Column{Name: h, Index: i}, dict: map[string]int32{}}
		switch {
		case numeric[h]:
			c.Numeric, c.fixed, c.dict = true, true, nil
		case categorical[h] || opts.Numeric != nil:
			c.fixed = true
		default:
			c.maybeNum = true
		}
		cols[i] = c
		t.Columns = append(t.Columns, c.Column)
	}
	for _, names := range [][]string{opts.Numeric, opts.Categorical} {
		for _, n := range names {
			if !seen[n] {
				return nil, logic.Errorf(logic.Position{File: name, Line: 1, Col: 1}, "no column %q in the header (columns: %s)", n, strings.Join(headerNames(t), ", "))
			}
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && len(cols) > 1 {
			continue // a blank line
		}
		if err := checkRow(cr, name, rec, cols); err != nil {
			if !opts.SkipBadRows {
				return nil, err
			}
			t.Skipped = append(t.Skipped, err)
			continue
		}
		for i, field := range rec {
			cols[i].add(strings.TrimSpace(field))
		}
		t.Lines = append(t.Lines, line)
		t.Rows++
	}
	if t.Rows == 0 {
		l, _ := cr.FieldPos(0)
		return nil, logic.Errorf(logic.Position{File: name, Line: l + 1, Col: 1}, "empty table: a header and no rows")
	}
	for _, c := range cols {
		c.finish()
	}
	return t, nil
}

// checkRow returns the positioned error of a row that cannot be added to
// the columns: a number of fields that is not the header's, or a value
// that is not a number in a column that must hold numbers.
func checkRow(cr *csv.Reader, name string, rec []string, cols []*column) error {
	if len(rec) != len(cols) {
		l, c := cr.FieldPos(len(rec) - 1)
		return logic.Errorf(logic.Position{File: name, Line: l, Col: c}, "row has %d fields, the header %d", len(rec), len(cols))
	}
	for i, field := range rec {
		if err := cols[i].check(strings.TrimSpace(field)); err != nil {
			l, c := cr.FieldPos(i)
			return logic.Errorf(logic.Position{File: name, Line: l, Col: c}, "column %q: %v", cols[i].Name, err)
		}
	}
	return nil
}

// check returns why v cannot be the column's next value, if it cannot: a
// column given as numeric, or inferred as numeric past the values whose
// text it keeps, takes numbers only.
func (c *column) check(v string) error {
	if !(c.fixed && c.Numeric || !c.fixed && c.maybeNum && c.gaveUp) || Missing(v) {
		return nil
	}
	if _, err := parseNumber(v); err != nil {
		if c.gaveUp {
			return fmt.Errorf("%v, in a column of more than %d distinct numbers before it (name it as categorical if it is)", err, maxInferredValues)
		}
		return err
	}
	return nil
}

// add appends one field, which check accepts.
func (c *column) add(v string) {
	switch {
	case c.fixed && c.Numeric:
		c.addNumber(v)
		return
	case c.fixed:
		c.addText(v)
		return
	}
	// Inferred: keep the text (up to maxInferredValues distinct values) and
	// the numbers while every value is one.
	if !c.gaveUp {
		c.addText(v)
	}
	if !c.maybeNum {
		return
	}
	if !c.addNumber(v) {
		c.maybeNum, c.Num = false, nil
		return
	}
	if len(c.Values) > maxInferredValues && !c.gaveUp {
		c.gaveUp, c.Codes, c.Values, c.dict = true, nil, nil, nil
	}
}

// addNumber appends v as a number, NaN when missing, and reports whether
// it is one.
func (c *column) addNumber(v string) bool {
	if Missing(v) {
		c.Num = append(c.Num, math.NaN())
		return true
	}
	x, err := parseNumber(v)
	if err != nil {
		return false
	}
	c.Num = append(c.Num, x)
	return true
}

func (c *column) addText(v string) {
	if Missing(v) {
		c.Codes = append(c.Codes, -1)
		return
	}
	k, ok := c.dict[v]
	if !ok {
		k = int32(len(c.Values))
		c.dict[v] = k
		c.Values = append(c.Values, v)
	}
	c.Codes = append(c.Codes, k)
}

// finish settles an inferred column's type: numeric when every value was a
// number and some value was there.
func (c *column) finish() {
	if !c.fixed {
		c.Numeric = c.maybeNum && slices.ContainsFunc(c.Num, func(x float64) bool { return !math.IsNaN(x) })
	}
	if c.Numeric {
		c.Codes, c.Values = nil, nil
	} else {
		c.Num = nil
	}
	c.dict = nil
}

// parseNumber reads a finite decimal number.
func parseNumber(v string) (float64, error) {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%q is not a number", v)
	}
	return x, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return logic.Errorf(logic.Position{File: name, Line: pe.Line, Col: pe.Column}, "%v", pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

func setOf(names []string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func headerNames(t *Table) []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}
