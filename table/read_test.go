package table

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/weka"
)

// loansCSV is a small table with a numeric column with a missing value, a
// categorical one and a class.
const loansCSV = "name,income,debts,decision\nann,51,yes,reject\nbob,?,no,grant\n\"cruz, jr\",19.5,yes,reject\n"

// loanRow is a row of loansCSV as a Parquet file holds it.
type loanRow struct {
	Name     string   `parquet:"name"`
	Income   *float64 `parquet:"income,optional"`
	Debts    string   `parquet:"debts"`
	Decision string   `parquet:"decision"`
}

func parquetOf(t testing.TB, rows any) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch rs := rows.(type) {
	case []loanRow:
		err = parquet.Write(&buf, rs)
	case []numbersRow:
		err = parquet.Write(&buf, rs)
	default:
		t.Fatalf("no Parquet writer for %T", rows)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func loansParquet(t testing.TB) []byte {
	f := func(x float64) *float64 { return &x }
	return parquetOf(t, []loanRow{{"ann", f(51), "yes", "reject"}, {"bob", nil, "no", "grant"}, {"cruz, jr", f(19.5), "yes", "reject"}})
}

func loansARFF(t testing.TB) []byte {
	a := &weka.ARFF{Relation: "loans", Attributes: []weka.Attribute{{Name: "name", Text: true}, {Name: "income"},
		{Name: "debts", Values: []string{"yes", "no"}}, {Name: "decision", Values: []string{"reject", "grant"}}},
		Rows: [][]string{{"ann", "51", "yes", "reject"}, {"bob", "?", "no", "grant"}, {"cruz, jr", "19.5", "yes", "reject"}}}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipOf(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// contents is what a table holds, for comparing tables read from other
// formats: each column's name, type and values as text.
func contents(t *Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows\n", t.Rows)
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "%s numeric=%v:", c.Name, c.Numeric)
		for i := range t.Rows {
			fmt.Fprintf(&b, " %q", c.Value(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReadFormatsAgree reads one table written as CSV, TSV, with other
// delimiters, as ARFF and as Parquet, each plain and gzip-compressed, and
// recognised from its name, from its content, or named: every reading
// holds the columns, types and values of the CSV.
func TestReadFormatsAgree(t *testing.T) {
	want := contents(read(t, loansCSV, Options{}))
	delimited := func(d string) []byte {
		return []byte(strings.NewReplacer(",", d, `"cruz, jr"`, "cruz, jr").Replace(loansCSV))
	}
	files := []struct {
		name string
		data []byte
		opts Options
	}{
		{"loans.csv", []byte(loansCSV), Options{}},
		{"loans.tsv", delimited("\t"), Options{}},
		{"loans.tab", delimited("\t"), Options{}},
		{"loans.txt", delimited("\t"), Options{}},
		{"loans.csv", delimited(";"), Options{}},
		{"loans", delimited("|"), Options{}},
		{"loans.txt", delimited("#"), Options{Delimiter: '#'}},
		{"loans.dat", delimited("\t"), Options{Format: TSV}},
		{"loans.arff", loansARFF(t), Options{}},
		{"loans", loansARFF(t), Options{}},
		{"loans.txt", loansARFF(t), Options{Format: ARFF}},
		{"loans.parquet", loansParquet(t), Options{}},
		{"loans", loansParquet(t), Options{}},
		{"loans.bin", loansParquet(t), Options{Format: Parquet}},
	}
	for _, f := range files {
		for _, gz := range []bool{false, true} {
			data, name := f.data, f.name
			if gz {
				data, name = gzipOf(t, data), name+".gz"
			}
			tab, err := Read(bytes.NewReader(data), name, f.opts)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if got := contents(tab); got != want {
				t.Errorf("%s read as\n%s\nwant\n%s", name, got, want)
			}
			if tab.Name != name {
				t.Errorf("%s: named %q", name, tab.Name)
			}
		}
	}
}

// TestReadFormatRecognised: the format comes from the name, else from the
// content; Options.Format overrides both.
func TestReadFormatRecognised(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		opts Options
		want Format
	}{
		{"a.csv", []byte(loansCSV), Options{}, CSV},
		{"a.CSV.GZ", gzipOf(t, []byte(loansCSV)), Options{}, CSV},
		{"a.tsv", []byte("x\ty\n1\t2\n"), Options{}, TSV},
		{"a", []byte("x\ty\n1\t2\n"), Options{}, CSV}, // delimited text, its tab seen in the header
		{"-", loansARFF(t), Options{}, ARFF},
		{"-", append([]byte("% Weka\n\n"), loansARFF(t)...), Options{}, ARFF},
		{"-", loansParquet(t), Options{}, Parquet},
		{"-", gzipOf(t, loansParquet(t)), Options{}, Parquet},
		{"a.csv", []byte("x\ty\n1\t2\n"), Options{Format: TSV}, TSV},
	} {
		tab, err := Read(bytes.NewReader(c.data), c.name, c.opts)
		if err != nil || tab.Format != c.want {
			t.Errorf("%s: %v, format %v, want %v", c.name, err, tab, c.want)
		}
	}
	if f, err := ParseFormat("Parquet"); err != nil || f != Parquet {
		t.Errorf("ParseFormat(Parquet) = %v, %v", f, err)
	}
	if _, err := ParseFormat("xlsx"); err == nil || !strings.Contains(err.Error(), "auto, csv, tsv, arff, parquet") {
		t.Errorf("ParseFormat(xlsx): %v", err)
	}
}

// TestReadDeclaredTypes: ARFF's and Parquet's numeric columns are numeric
// and their others categorical, whatever the values look like, unless the
// options say otherwise; a value that is not a number in a declared
// numeric column is an error at its line and column.
func TestReadDeclaredTypes(t *testing.T) {
	arff := "@relation r\n@attribute flag {0,1}\n@attribute n numeric\n@attribute s string\n@data\n1,2,3\n0,4,5\n"
	tab := read(t, arff, Options{Format: ARFF})
	if c := tab.Column("flag"); c.Numeric {
		t.Error("a nominal attribute {0,1} read as numeric")
	}
	if c := tab.Column("s"); c.Numeric {
		t.Error("a string attribute of numbers read as numeric")
	}
	if c := tab.Column("n"); !c.Numeric || c.Num[1] != 4 {
		t.Errorf("the numeric attribute: %+v", c)
	}
	if tab = read(t, arff, Options{Format: ARFF, Numeric: []string{"flag"}}); !tab.Column("flag").Numeric || tab.Column("n").Numeric {
		t.Error("Options.Numeric does not override the declared types")
	}
	_, err := Read(strings.NewReader("@relation r\n@attribute n numeric\n@data\n1\n  many\n"), "t.arff", Options{})
	if err == nil || err.Error() != `t.arff:5:3: column "n": "many" is not a number, in a column the file's format declares numeric` {
		t.Errorf("text in a numeric attribute: %v", err)
	}
	tab, err = Read(bytes.NewReader(loansParquet(t)), "l.parquet", Options{})
	if err != nil || !tab.Column("income").Numeric || tab.Column("debts").Numeric || !math.IsNaN(tab.Column("income").Num[1]) {
		t.Errorf("Parquet types: %v %+v", err, tab)
	}
}

// numbersRow holds Parquet's number types.
type numbersRow struct {
	I32 int32   `parquet:"i32"`
	U64 uint64  `parquet:"u64"`
	F32 float32 `parquet:"f32"`
	F64 float64 `parquet:"f64"`
	Dec int64   `parquet:"dec,decimal(2:18)"`
	OK  bool    `parquet:"ok"`
	Tag string  `parquet:"tag"`
}

// TestReadParquetTypes reads every kind of Parquet column: integers
// (signed and not), floats (NaN as missing), decimals scaled, Booleans and
// text categorical; and a text value in a column named numeric is an
// error naming the row and column.
func TestReadParquetTypes(t *testing.T) {
	data := parquetOf(t, []numbersRow{{-7, math.MaxUint64, 1.5, math.NaN(), 12345, true, "x"}, {8, 2, -0.25, 1e-300, -5, false, "3"}})
	tab, err := Read(bytes.NewReader(data), "n.parquet", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "2 rows\ni32 numeric=true: \"-7\" \"8\"\nu64 numeric=true: \"18446744073709552000\" \"2\"\nf32 numeric=true: \"1.5\" \"-0.25\"\n" +
		"f64 numeric=true: \"\" \"1e-300\"\ndec numeric=true: \"123.45\" \"-0.05\"\nok numeric=false: \"true\" \"false\"\ntag numeric=false: \"x\" \"3\"\n"
	if got := contents(tab); got != want {
		t.Errorf("read\n%s\nwant\n%s", got, want)
	}
	if !reflect.DeepEqual(tab.Lines, []int{1, 2}) {
		t.Errorf("rows numbered %v, want 1, 2", tab.Lines)
	}
	_, err = Read(bytes.NewReader(data), "n.parquet", Options{Numeric: []string{"tag"}})
	if err == nil || err.Error() != `n.parquet: row 1, column 7 (tag): column "tag": "x" is not a number` {
		t.Errorf("text in a column named numeric: %v", err)
	}
	var pe *logic.ParseError
	if !errors.As(err, &pe) {
		t.Errorf("%T is not positioned", err)
	}
}

// TestReadBadParquet: a truncated or corrupt Parquet file is an error
// naming the file, never a panic.
func TestReadBadParquet(t *testing.T) {
	good := loansParquet(t)
	for _, data := range [][]byte{good[:4], good[:len(good)/2], append(append([]byte{}, good[:len(good)-12]...), good[len(good)-8:]...), []byte("PAR1PAR1")} {
		_, err := Read(bytes.NewReader(data), "bad.parquet", Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "bad.parquet: ") {
			t.Errorf("%d bytes: error %v", len(data), err)
		}
	}
	if _, err := Read(strings.NewReader("a,b\n1,2\n"), "x.parquet", Options{}); err == nil || !strings.Contains(err.Error(), `x.parquet: not a Parquet file`) {
		t.Errorf("CSV named .parquet: %v", err)
	}
}

// TestReadCROnly: a table whose lines end with a lone carriage return (old
// Mac files) is read line by line, not as one line of repeated names.
func TestReadCROnly(t *testing.T) {
	tab := read(t, "a,b\r1,x\r2,y\r", Options{})
	if tab.Rows != 2 || len(tab.Columns) != 2 || !reflect.DeepEqual(tab.Lines, []int{2, 3}) || tab.Column("b").Value(1) != "y" {
		t.Errorf("%d rows on lines %v: %s", tab.Rows, tab.Lines, contents(tab))
	}
	if _, err := Read(strings.NewReader("a,b\r1,2\r3\r"), "t.csv", Options{}); err == nil || !strings.HasPrefix(err.Error(), "t.csv:3:1: row has 1 fields") {
		t.Errorf("a ragged row of a CR file: %v", err)
	}
}

// TestReadDuplicateColumns: a header that repeats a name is read, the
// repeats renamed NAME.2, NAME.3 (past the names the header has) with a
// warning naming the file, line and column, or left out, or refused.
func TestReadDuplicateColumns(t *testing.T) {
	src := "lift,weight,weight,weight.2,weight\nsnatch,60,61,x,62\n"
	tab := read(t, src, Options{})
	var names []string
	for _, c := range tab.Columns {
		names = append(names, c.Name)
	}
	if want := []string{"lift", "weight", "weight.3", "weight.2", "weight.4"}; !reflect.DeepEqual(names, want) {
		t.Errorf("columns %q, want %q", names, want)
	}
	if tab.Column("weight.3").Num[0] != 61 || tab.Column("weight.4").Num[0] != 62 {
		t.Errorf("the renamed columns do not hold their values: %s", contents(tab))
	}
	want := []string{`t.csv:1:13: column "weight" appears again (first as column 2): column 3 read as "weight.3"`,
		`t.csv:1:29: column "weight" appears again (first as column 2): column 5 read as "weight.4"`}
	if len(tab.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %q", tab.Warnings, want)
	}
	for i, w := range tab.Warnings {
		if w.Error() != want[i] || !errors.As(w, new(*logic.ParseError)) {
			t.Errorf("warning %d: %v, want %s", i, w, want[i])
		}
	}
	tab = read(t, src, Options{Duplicates: KeepFirst})
	if len(tab.Columns) != 3 || tab.Column("weight").Num[0] != 60 || tab.Column("weight.2").Value(0) != "x" || len(tab.Warnings) != 2 ||
		!strings.Contains(tab.Warnings[0].Error(), "column 3 left out") {
		t.Errorf("KeepFirst: %s %q", contents(tab), tab.Warnings)
	}
	if _, err := Read(strings.NewReader(src), "t.csv", Options{Duplicates: Refuse}); err == nil || err.Error() != `t.csv:1:13: column "weight" appears twice in the header (first as column 2)` {
		t.Errorf("Refuse: %v", err)
	}
	if d, err := ParseDuplicates("first"); err != nil || d != KeepFirst {
		t.Errorf("ParseDuplicates(first) = %v, %v", d, err)
	}
}

// TestReadErrorsPositioned: each format's malformed input is an error
// naming the file, line and column.
func TestReadErrorsPositioned(t *testing.T) {
	for _, c := range []struct {
		name, src string
		opts      Options
		want      string
	}{
		{"t.tsv", "a\tb\n1\t2\t3\n", Options{}, "t.tsv:2:5: row has 3 fields, the header 2"},
		{"t.arff", "@relation r\n@attribute a numeric\n@attribute b {x}\n@data\n1\n", Options{}, "t.arff:5:1: row has 1 fields, the header 2"},
		{"t.arff", "@relation r\n@attribute a numeric\n@attribute a numeric\n@data\n1,2\n", Options{Duplicates: Refuse}, `t.arff:3:12: column "a" appears twice`},
		{"t.arff", "@relation r\n@attribute a bad\n@data\n", Options{}, `t.arff:2:14: attribute "a" has the unknown type "bad"`},
		{"t.csv", "a,b\n1,2\n", Options{Delimiter: '"'}, `t.csv: '"' cannot separate fields`},
		{"t.csv.gz", "\x1f\x8bnot gzip", Options{}, "t.csv.gz: gzip: "},
	} {
		_, err := Read(strings.NewReader(c.src), c.name, c.opts)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want %q", c.name, c.src, err, c.want)
		}
	}
}

// TestReadCrowdARFF reads the ARFF files strata crowd table writes (as
// weka.ARFF writes them): every descriptor a column of 0 and 1, and the
// class.
func TestReadCrowdARFF(t *testing.T) {
	arff := "@relation 'table train'\n\n@attribute down_1 {0,1}\n@attribute 'yds to go' {0,1}\n@attribute class {pass,punt,run,none}\n\n@data\n1,0,none\n0,1,pass\n0,0,'run'\n"
	tab, err := Read(strings.NewReader(arff), "calls/train.arff", Options{Categorical: []string{"class"}})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Rows != 3 || tab.Column("yds to go") == nil || tab.Column("class").Value(2) != "run" || tab.Lines[2] != 10 {
		t.Errorf("read %s on lines %v", contents(tab), tab.Lines)
	}
}

// FuzzReadTable: whatever the bytes and the format, Read returns a table
// or an error, never a panic, and its errors are positioned; a table of
// any fields written with a delimiter reads back as written.
func FuzzReadTable(f *testing.F) {
	f.Add([]byte(loansCSV), uint8(0), "a", "b,c", "\"")
	f.Add([]byte("a\tb\r1\t2\r"), uint8(2), "x y", "", "z")
	f.Add(loansARFF(f), uint8(3), "é", "'", "%")
	f.Add(loansParquet(f), uint8(4), "1", "2", "3")
	f.Add(gzipOf(f, []byte(loansCSV)), uint8(0), "?", "a\nb", "c")
	f.Fuzz(func(t *testing.T, data []byte, format uint8, v1, v2, v3 string) {
		tab, err := Read(bytes.NewReader(data), "f", Options{Format: Format(format % 5)})
		if err == nil {
			if len(tab.Lines) != tab.Rows || len(tab.Columns) == 0 {
				t.Fatalf("%d rows on %d lines, %d columns", tab.Rows, len(tab.Lines), len(tab.Columns))
			}
		} else if !errors.As(err, new(*logic.ParseError)) && !strings.HasPrefix(err.Error(), "f: ") {
			t.Fatalf("error %q names no file", err)
		}
		// The round trip, for each delimiter: values written by
		// encoding/csv read back, trimmed, as themselves.
		row := []string{v1, v2, v3}
		for _, v := range row {
			if Missing(strings.TrimSpace(v)) {
				return
			}
		}
		for _, d := range []rune{',', ';', '\t', '|'} {
			var buf bytes.Buffer
			w := csv.NewWriter(&buf)
			w.Comma = d
			w.Write([]string{"h1", "h2", "h3"})
			w.Write(row)
			w.Flush()
			tab, err := Read(&buf, "rt.csv", Options{Delimiter: d, Numeric: []string{}})
			if err != nil {
				t.Fatalf("delimiter %q, row %q: %v", d, row, err)
			}
			for i, c := range tab.Columns {
				if got := c.Value(0); got != strings.TrimSpace(strings.ReplaceAll(row[i], "\r\n", "\n")) && got != strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(row[i], "\r\n", "\n"), "\r", "\n")) {
					t.Fatalf("delimiter %q: %q read back as %q", d, row[i], got)
				}
			}
		}
	})
}
