package table

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

func read(t *testing.T, src string, o Options) *Table {
	t.Helper()
	tab, err := Read(strings.NewReader(src), "t.csv", o)
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

func TestReadInfers(t *testing.T) {
	tab := read(t, "id,age,odor,label\n1,39,foul,p\n2,?,none,e\n3,50.5,,p\n", Options{})
	if tab.Rows != 3 || len(tab.Columns) != 4 {
		t.Fatalf("%d rows, %d columns", tab.Rows, len(tab.Columns))
	}
	age, odor := tab.Column("age"), tab.Column("odor")
	if !age.Numeric || !math.IsNaN(age.Num[1]) || age.Num[2] != 50.5 {
		t.Errorf("age: numeric %v, %v", age.Numeric, age.Num)
	}
	if odor.Numeric || odor.Codes[2] != -1 || odor.Value(0) != "foul" || !odor.Missing(2) {
		t.Errorf("odor: %+v", odor)
	}
	if tab.Lines[2] != 4 {
		t.Errorf("row 3 on line %d", tab.Lines[2])
	}
	// Given types win: id categorical, and every unnamed column categorical
	// once Numeric is given.
	tab = read(t, "id,age,label\n1,39,p\n2,40,e\n", Options{Numeric: []string{}})
	if tab.Column("id").Numeric || tab.Column("age").Numeric {
		t.Error("Numeric given as empty: every column should be categorical")
	}
	feats, notes := DefaultFeatures(tab, "label", "")
	if len(feats) != 0 || len(notes) != 2 {
		t.Errorf("features %q, notes %q: id and age have a value per row", feats, notes)
	}
	// A name column with a few repeated values (yeast's sequence) is an
	// identifier too; a column of few values is not, nor one of numbers
	// with repeats.
	tab = read(t, "name,colour,n,label\na,red,1,p\nb,red,1,e\nc,blue,2,p\nc,blue,3,e\nd,red,4,p\n", Options{})
	feats, notes = DefaultFeatures(tab, "label", "")
	if !slices.Equal(feats, []string{"colour", "n"}) || len(notes) != 1 || !strings.Contains(notes[0], `column "name" left out of the features: 4 distinct values in 5 rows`) {
		t.Errorf("features %q, notes %q", feats, notes)
	}
}

// TestBadTables checks that every malformed table is an error naming the
// file, line and column, never a skipped row.
func TestBadTables(t *testing.T) {
	cases := []struct {
		src  string
		o    Options
		want string
	}{
		{"", Options{}, "t.csv:1:1: empty table"},
		{"a,b\n", Options{}, "t.csv:2:1: empty table: a header and no rows"},
		{"a,b\n1,2\n3\n", Options{}, "t.csv:3:1: row has 1 fields, the header 2"},
		{"a,b\n1,2\n3,4,5\n", Options{}, "t.csv:3:5: row has 3 fields, the header 2"},
		{"a,b\n1,2\nx,3.5kg\n", Options{Numeric: []string{"b"}}, `t.csv:3:3: column "b": "3.5kg" is not a number`},
		{"a,a\n1,2\n", Options{Duplicates: Refuse}, `t.csv:1:3: column "a" appears twice`},
		{"a,,c\n1,2,3\n", Options{}, "t.csv:1:3: column 2 has no name"},
		{"a,b\n1,\"2\n", Options{}, "t.csv:2:6: extraneous or missing \" in quoted-field"},
		{"a,b\n1,2\n", Options{Numeric: []string{"c"}}, `t.csv:1:1: no column "c" in the header`},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.src), "t.csv", c.o)
		var pe *logic.ParseError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	tab := read(t, "a,b\n1,x\n2,y\n", Options{})
	if _, err := Fit(tab, "label", []string{"a"}, []int{0, 1}); err == nil || !strings.Contains(err.Error(), `t.csv:1:1: no class column "label"`) {
		t.Errorf("missing label column: %v", err)
	}
	tab = read(t, "a,label\n1,x\n2,?\n", Options{})
	if _, err := Fit(tab, "label", []string{"a"}, []int{0, 1}); err == nil || !strings.Contains(err.Error(), "t.csv:3: row has no class") {
		t.Errorf("missing class: %v", err)
	}
}

// TestSkipBadRows checks the opt-in to leave out rows that cannot be
// read: each is recorded with its position, the others are read as without
// them, and a table of bad rows alone is still an empty table.
func TestSkipBadRows(t *testing.T) {
	src := "name,x,class\na,1,p\nb,,2,q\nc,3,q\nd,lots,p\ne\nf,6,p\n"
	o := Options{Numeric: []string{"x"}, SkipBadRows: true}
	tab := read(t, src, o)
	want := []string{"t.csv:3:6: row has 4 fields, the header 3", `t.csv:5:3: column "x": "lots" is not a number`, "t.csv:6:1: row has 1 fields, the header 3"}
	if len(tab.Skipped) != len(want) {
		t.Fatalf("skipped %q, want %q", tab.Skipped, want)
	}
	for i, err := range tab.Skipped {
		var pe *logic.ParseError
		if !strings.Contains(err.Error(), want[i]) || !errors.As(err, &pe) {
			t.Errorf("skipped row %d: %v, want %q", i, err, want[i])
		}
	}
	good := read(t, "name,x,class\na,1,p\nc,3,q\nf,6,p\n", Options{Numeric: []string{"x"}})
	if tab.Rows != 3 || !slices.Equal(tab.Lines, []int{2, 4, 7}) || !slices.Equal(tab.Column("x").Num, good.Column("x").Num) ||
		!slices.Equal(tab.Column("name").Values, good.Column("name").Values) {
		t.Errorf("rows %d on lines %v, x %v", tab.Rows, tab.Lines, tab.Column("x").Num)
	}
	// Without the opt-in, the first bad row is the error.
	o.SkipBadRows = false
	if _, err := Read(strings.NewReader(src), "t.csv", o); err == nil || !strings.Contains(err.Error(), want[0]) {
		t.Errorf("without SkipBadRows: %v", err)
	}
	// Only bad rows: nothing is left, which is an error.
	if _, err := Read(strings.NewReader("a,b\n1\n2,3,4\n"), "t.csv", Options{SkipBadRows: true}); err == nil || !strings.Contains(err.Error(), "empty table") {
		t.Errorf("bad rows only: %v", err)
	}
	// A quoting error is not skipped: the rest of the file is unclear.
	if _, err := Read(strings.NewReader("a,b\n1,\"2\n3,4\n"), "t.csv", Options{SkipBadRows: true}); err == nil {
		t.Error("a quoting error was skipped")
	}
}

// TestInferredManyNumbers checks the limit on the text an inferred column
// keeps: past maxInferredValues distinct numbers, text is an error at its
// position rather than a silent change of type.
func TestInferredManyNumbers(t *testing.T) {
	var b strings.Builder
	b.WriteString("x\n")
	for i := range maxInferredValues + 2 {
		b.WriteString("1." + strconv.Itoa(i) + "\n")
	}
	b.WriteString("oops\n")
	_, err := Read(strings.NewReader(b.String()), "t.csv", Options{})
	if err == nil || !strings.Contains(err.Error(), `t.csv:4100:1: column "x": "oops" is not a number`) {
		t.Fatalf("error %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("a,b,label\n1,x,p\n?,y,e\n", "b")
	f.Add("a\n\"1\n", "")
	f.Add("\ufeffa;b\n1;2\n", "a")
	f.Fuzz(func(t *testing.T, src, numeric string) {
		var o Options
		if numeric != "" {
			o.Numeric = []string{numeric}
		}
		tab, err := Read(strings.NewReader(src), "f.csv", o)
		if err != nil {
			var pe *logic.ParseError
			if !errors.As(err, &pe) || pe.Pos.File != "f.csv" || pe.Pos.Line < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		if tab.Rows == 0 || len(tab.Lines) != tab.Rows {
			t.Fatalf("%d rows, %d lines", tab.Rows, len(tab.Lines))
		}
		for _, c := range tab.Columns {
			if c.Numeric && len(c.Num) != tab.Rows || !c.Numeric && len(c.Codes) != tab.Rows {
				t.Fatalf("column %q has a value count other than %d", c.Name, tab.Rows)
			}
		}
	})
}
