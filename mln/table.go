package mln

import (
	"fmt"
	"io"
	"strconv"

	"github.com/strata-logic/strata/logic"
)

// Table is a binary data table: one row per example, one 0/1 column per
// variable, as in the density-estimation benchmarks (NLTCS, MSNBC, Plants,
// DNA) from which the paper's Markov logic networks were learned. The zero
// value is an empty table; its width is fixed by the first row added.
type Table struct {
	Cols int    // number of variables
	data []bool // row-major, Cols values per row
}

// Rows returns the number of rows.
func (t *Table) Rows() int {
	if t.Cols == 0 {
		return 0
	}
	return len(t.data) / t.Cols
}

// Row returns row i; the slice aliases the table and must not be modified.
func (t *Table) Row(i int) []bool { return t.data[i*t.Cols : (i+1)*t.Cols : (i+1)*t.Cols] }

// Append adds a row, which must have Cols values (any number for the first
// row of an empty table).
func (t *Table) Append(row []bool) error {
	if t.Cols == 0 && len(t.data) == 0 {
		t.Cols = len(row)
	}
	if len(row) != t.Cols || len(row) == 0 {
		return fmt.Errorf("row of %d values in a table of %d columns", len(row), t.Cols)
	}
	t.data = append(t.data, row...)
	return nil
}

// Names returns the atom names of the columns, a1 ... an: 1-based, in column
// order, the naming the paper uses for the NLTCS theory (a12, a14, ...).
func (t *Table) Names() []string {
	names := make([]string, t.Cols)
	for i := range names {
		names[i] = "a" + strconv.Itoa(i+1)
	}
	return names
}

// ReadTable reads comma-separated 0/1 rows without a header, the format of
// ../shared/data/debd. Blank lines are skipped. Every row must have as many
// values as the first; errors give name, line and column and say what was
// expected.
func ReadTable(r io.Reader, name string) (*Table, error) {
	t := &Table{}
	var row []bool
	err := logic.LineFormat{}.Each(r, name, func(line int, text string) error {
		var err error
		row, err = parseRow(text, row[:0], t.Cols, logic.Position{File: name, Line: line})
		if err != nil {
			return err
		}
		t.Append(row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// parseRow parses "0,1,1" into row. want is the expected number of values,
// or 0 when any number is fine; at is the line, for errors.
func parseRow(text string, row []bool, want int, at logic.Position) ([]bool, error) {
	fail := func(col int, format string, args ...any) ([]bool, error) {
		at.Col = col
		return nil, logic.Errorf(at, format, args...)
	}
	col := 1
	expectValue := true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
		case expectValue && (c == '0' || c == '1'):
			row = append(row, c == '1')
			expectValue = false
		case !expectValue && c == ',':
			expectValue = true
		case expectValue:
			return fail(i+1, "expected 0 or 1, found %q", rune(c))
		default:
			return fail(i+1, "expected ',' or end of row, found %q", rune(c))
		}
		col = i + 2
		if want > 0 && len(row) > want {
			return fail(i+1, "row has more than the %d values of the first row", want)
		}
	}
	if expectValue {
		return fail(col, "expected 0 or 1 at end of row")
	}
	if want > 0 && len(row) != want {
		return fail(col, "row has %d values, the first row has %d", len(row), want)
	}
	return row, nil
}
