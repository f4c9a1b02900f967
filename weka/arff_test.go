package weka

import (
	"bytes"
	"strings"
	"testing"
)

func TestARFF(t *testing.T) {
	a := &ARFF{
		Relation:   "poker actions",
		Attributes: []Attribute{{Name: "flush", Values: []string{"0", "1"}}, {Name: "pot"}, {Name: "class", Values: []string{"fold", "call it"}}},
		Rows:       [][]string{{"1", "2.5", "call it"}, {"0", "?", "fold"}},
	}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := "@relation 'poker actions'\n\n@attribute flush {0,1}\n@attribute pot numeric\n@attribute class {fold,'call it'}\n\n@data\n1,2.5,'call it'\n0,?,fold\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	a.Rows = append(a.Rows, []string{"1"})
	if err := a.Write(&buf); err == nil {
		t.Fatal("short row accepted")
	}
}

// splitARFF splits a line of ARFF values at the commas outside quotes and
// undoes the quoting of Write.
func splitARFF(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, esc := false, false
	for i := 0; i < len(line); i++ {
		r := line[i]
		switch {
		case esc:
			cur.WriteByte(r)
			esc = false
		case quoted && r == '\\':
			esc = true
		case r == '\'':
			quoted = !quoted
		case !quoted && r == ',':
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(r)
		}
	}
	return append(out, cur.String())
}

// FuzzARFF: the data section of a written table, split at the commas
// outside quotes and unquoted, gives back every row, whatever characters
// the values hold (newlines aside, which ARFF cannot hold in a value).
func FuzzARFF(f *testing.F) {
	f.Add("call it", "2.5", "a,b")
	f.Add("'", `\`, "?")
	f.Add("", "%", "{x}")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		row := []string{a, b, c}
		for _, v := range row {
			if strings.ContainsAny(v, "\n\r") {
				return
			}
		}
		tab := &ARFF{Relation: "fuzz", Attributes: []Attribute{{Name: "a"}, {Name: "b"}, {Name: "c"}}, Rows: [][]string{row}}
		var buf bytes.Buffer
		if err := tab.Write(&buf); err != nil {
			t.Fatal(err)
		}
		_, data, ok := strings.Cut(buf.String(), "@data\n")
		if !ok {
			t.Fatalf("no data section in %q", buf.String())
		}
		got := splitARFF(strings.TrimSuffix(data, "\n"))
		for i, v := range row {
			if v == "?" {
				continue // the missing value, written bare
			}
			if i >= len(got) || got[i] != v {
				t.Fatalf("row %q written as %q, read back as %q", row, data, got)
			}
		}
		if len(got) != len(row) {
			t.Fatalf("row %q written as %q, read back as %q", row, data, got)
		}
	})
}
