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
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-logic/strata/logic"
)

// Table is a table read from a file: every column of the file, by name,
// with its values per row.
type Table struct {
	Name    string    // the file name, for messages
	Format  Format    // the format it was read as
	Columns []*Column // in the header's order
	Rows    int
	// Lines holds the line of each row in the file (a quoted field may span
	// lines; in a Parquet file, the row's number from 1), for messages.
	Lines []int
	// Notes say what the reader decided that a person should know, such as
	// a column left out of the features as an identifier.
	Notes []string
	// Warnings say what the reader changed in the file's header, each
	// naming the file, line and column (a *logic.ParseError): a repeated
	// column name read under another name, or left out (Options.Duplicates).
	Warnings []error
	// Skipped holds, with Options.SkipBadRows, an error for every row that
	// was left out, naming its file, line and column (a *logic.ParseError).
	Skipped []error
}

// Column is one column of a table. A numeric column holds numbers (NaN
// where missing); a categorical one holds codes into Values (-1 where
// missing).
type Column struct {
	Name    string
	Index   int            // position in the header, from 0
	Pos     logic.Position // of its name in the header
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

// at returns the position of c's name in the header, or the file's alone
// for a column not read from one.
func (t *Table) at(c *Column) logic.Position {
	if c.Pos.File == "" {
		return logic.Position{File: t.Name}
	}
	return c.Pos
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
	// Format is the file's format; Auto recognises it from the name or the
	// content.
	Format Format
	// Delimiter separates the fields of delimited text (CSV, TSV): any
	// character but a quote or a line break. 0: a tab for TSV; for CSV the
	// one the header line shows (',', ';', tab or '|'; ',' when unclear).
	Delimiter rune
	// Duplicates says what to do with a column name the header repeats.
	Duplicates Duplicates
}

// Duplicates says what Read does with a column whose name the header has
// already given (as some public tables have it); the zero value renames.
type Duplicates int

const (
	// Rename reads the second column of a name as NAME.2, the third as
	// NAME.3 (the next number no header name takes), with a warning.
	Rename Duplicates = iota
	// KeepFirst reads the first column of a name and leaves the others
	// out, with a warning.
	KeepFirst
	// Refuse fails on a repeated name.
	Refuse
)

var duplicatesNames = []string{"rename", "first", "error"}

// DuplicatesNames returns the names of the Duplicates values, in order:
// the words of strata's --duplicate-columns.
func DuplicatesNames() []string { return append([]string{}, duplicatesNames...) }

func (d Duplicates) String() string {
	if d >= 0 && int(d) < len(duplicatesNames) {
		return duplicatesNames[d]
	}
	return fmt.Sprintf("Duplicates(%d)", int(d))
}

// ParseDuplicates returns the Duplicates value of the given name.
func ParseDuplicates(s string) (Duplicates, error) {
	for i, n := range duplicatesNames {
		if s == n {
			return Duplicates(i), nil
		}
	}
	return Rename, fmt.Errorf("duplicate columns %q: want %s", s, strings.Join(duplicatesNames, ", "))
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
	declared bool // numeric as the file's format declares it
	maybeNum bool // inferred, and every value so far is a number
	dict     map[string]int32
	gaveUp   bool // an inferred column with too many values to keep its text
}

// Read reads a table with a header: CSV, TSV or another delimited text,
// ARFF or Parquet (Options.Format; by default recognised from the name or
// the content), gzip-compressed or not. It fails, naming the file, line
// and column (in a Parquet file, the row and column), on a ragged row, an
// empty column name, a value that is not a number in a numeric column, a
// quoting error, an empty table, or a column of opts that the header
// lacks; with Options.SkipBadRows it leaves out ragged rows and rows with
// text in a numeric column, and records them in Table.Skipped. A repeated
// column name is renamed, left out or refused as Options.Duplicates says.
// Fields are trimmed of blanks.
func Read(r io.Reader, name string, opts Options) (*Table, error) {
	if d := opts.Delimiter; d != 0 && (d == '"' || d == '\r' || d == '\n' || !utf8.ValidRune(d) || d == utf8.RuneError) {
		return nil, fmt.Errorf("%s: %q cannot separate fields", name, d)
	}
	br, format, err := open(r, name, opts.Format)
	if err != nil {
		return nil, err
	}
	var src source
	switch format {
	case CSV, TSV:
		delim := opts.Delimiter
		switch {
		case delim != 0:
		case format == TSV:
			delim = '\t'
		default:
			head, _ := br.Peek(sniffBytes)
			delim = sniffDelimiter(head)
		}
		src = newCSVSource(br, name, delim, format == TSV)
	case ARFF:
		src = &arffSource{name: name, r: br}
	case Parquet:
		src = &parquetSource{name: name, r: br}
	default:
		return nil, fmt.Errorf("%s: unknown table format %v", name, format)
	}
	t, err := readSource(src, name, opts)
	if err != nil {
		return nil, err
	}
	t.Format = format
	return t, nil
}

// readSource reads the header and the rows of a table from src.
func readSource(src source, name string, opts Options) (*Table, error) {
	header, kinds, err := src.header()
	if err != nil {
		return nil, err
	}
	t := &Table{Name: name}
	cols, err := t.columns(src, header, kinds, opts)
	if err != nil {
		return nil, err
	}
	for {
		rec, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" && len(cols) > 1 {
			continue // a blank line
		}
		if err := checkRow(src, rec, cols); err != nil {
			if !opts.SkipBadRows {
				return nil, err
			}
			t.Skipped = append(t.Skipped, err)
			continue
		}
		for i, field := range rec {
			if cols[i] != nil {
				cols[i].add(strings.TrimSpace(field))
			}
		}
		t.Lines = append(t.Lines, src.line())
		t.Rows++
	}
	if t.Rows == 0 {
		return nil, logic.Errorf(src.end(), "empty table: a header and no rows")
	}
	for _, c := range cols {
		if c != nil {
			c.finish()
		}
	}
	return t, nil
}

// columns makes the columns of the header's names, of the kinds the
// format declares them, as opts says; a column of a repeated name left out
// is nil.
func (t *Table) columns(src source, header []string, kinds []kind, opts Options) ([]*column, error) {
	numeric, categorical := setOf(opts.Numeric), setOf(opts.Categorical)
	names := make([]string, len(header))
	taken := map[string]bool{}
	for i, h := range header {
		names[i] = strings.TrimSpace(h)
		taken[names[i]] = true
	}
	first := map[string]int{}
	cols := make([]*column, len(header))
	for i, h := range names {
		if h == "" {
			return nil, src.errorAt(i, fmt.Errorf("column %d has no name", i+1))
		}
		if j, ok := first[h]; ok {
			switch opts.Duplicates {
			case Refuse:
				return nil, src.errorAt(i, fmt.Errorf("column %q appears twice in the header (first as column %d)", h, j+1))
			case KeepFirst:
				t.Warnings = append(t.Warnings, src.errorAt(i, fmt.Errorf("column %q appears again (first as column %d): column %d left out", h, j+1, i+1)))
				continue
			}
			k := 2
			for taken[fmt.Sprintf("%s.%d", h, k)] {
				k++
			}
			renamed := fmt.Sprintf("%s.%d", h, k)
			taken[renamed] = true
			t.Warnings = append(t.Warnings, src.errorAt(i, fmt.Errorf("column %q appears again (first as column %d): column %d read as %q", h, j+1, i+1, renamed)))
			h = renamed
		}
		first[h] = i
		if numeric[h] && categorical[h] {
			return nil, src.errorAt(i, fmt.Errorf("column %q is given as both numeric and categorical", h))
		}
		c := &column{Column: &Column{Name: h, Index: i, Pos: src.pos(i)}, dict: map[string]int32{}}
		switch {
		case numeric[h]:
			c.Numeric, c.fixed, c.dict = true, true, nil
		case categorical[h] || opts.Numeric != nil:
			c.fixed = true
		case kinds[i] == declaredNumeric:
			c.Numeric, c.fixed, c.dict, c.declared = true, true, nil, true
		case kinds[i] == declaredCategorical:
			c.fixed = true
		default:
			c.maybeNum = true
		}
		cols[i] = c
		t.Columns = append(t.Columns, c.Column)
	}
	for _, ns := range [][]string{opts.Numeric, opts.Categorical} {
		for _, n := range ns {
			if t.Column(n) == nil {
				return nil, src.errorAt(0, fmt.Errorf("no column %q in the header (columns: %s)", n, strings.Join(headerNames(t), ", ")))
			}
		}
	}
	return cols, nil
}

// checkRow returns the positioned error of a row that cannot be added to
// the columns: a number of fields that is not the header's, or a value
// that is not a number in a column that must hold numbers.
func checkRow(src source, rec []string, cols []*column) error {
	if len(rec) != len(cols) {
		return src.errorAt(len(rec)-1, fmt.Errorf("row has %d fields, the header %d", len(rec), len(cols)))
	}
	for i, field := range rec {
		if cols[i] == nil {
			continue
		}
		if err := cols[i].check(strings.TrimSpace(field)); err != nil {
			return src.errorAt(i, fmt.Errorf("column %q: %w", cols[i].Name, err))
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
		if c.declared {
			return fmt.Errorf("%v, in a column the file's format declares numeric", err)
		}
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
