package weka

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// readAll reads a whole ARFF text.
func readAll(t testing.TB, text string) (*ARFFReader, [][]string, error) {
	t.Helper()
	a, err := NewARFFReader(strings.NewReader(text), "t.arff")
	if err != nil {
		return nil, nil, err
	}
	var rows [][]string
	for {
		row, err := a.Read()
		if errors.Is(err, io.EOF) {
			return a, rows, nil
		}
		if err != nil {
			return a, rows, err
		}
		rows = append(rows, row)
	}
}

// TestReadARFF reads what Weka writes: comments, quoted names and values,
// every attribute type, missing values, a sparse instance, CR line endings.
func TestReadARFF(t *testing.T) {
	text := "% a comment\r\n@RELATION 'the weather'\r\n\r\n@attribute outlook {sunny, overcast, 'rain, light'}\r" +
		"@attribute temperature real\n@attribute 'wind speed' INTEGER\n@attribute note string\n@attribute day date \"yyyy-MM-dd\"\n" +
		"@attribute play {yes,no}\n\n@data\n% another\nsunny, 85, 3, 'it\\'s hot', 2026-01-02, no\n" +
		"'rain, light',?,?,\"a \\\"b\\\"\",?,yes\n{1 70.5, 5 no}\n{}\n"
	a, rows, err := readAll(t, text)
	if err != nil {
		t.Fatal(err)
	}
	if a.Relation() != "the weather" {
		t.Errorf("relation %q", a.Relation())
	}
	wantAttrs := []Attribute{{Name: "outlook", Values: []string{"sunny", "overcast", "rain, light"}}, {Name: "temperature"}, {Name: "wind speed"},
		{Name: "note", Text: true}, {Name: "day", Text: true}, {Name: "play", Values: []string{"yes", "no"}}}
	if !reflect.DeepEqual(a.Attributes(), wantAttrs) {
		t.Errorf("attributes %+v\nwant %+v", a.Attributes(), wantAttrs)
	}
	want := [][]string{{"sunny", "85", "3", "it's hot", "2026-01-02", "no"}, {"rain, light", "?", "?", `a "b"`, "?", "yes"},
		{"sunny", "70.5", "0", "?", "?", "no"}, {"sunny", "0", "0", "?", "?", "yes"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %q\nwant %q", rows, want)
	}
	if p := a.AttributePos(2); p.Line != 6 || p.Col != 12 {
		t.Errorf("attribute 3 at %v, want line 6, column 12", p)
	}
}

// TestReadARFFPositions: the values of the last instance are placed at
// their line and column, for dense and sparse instances.
func TestReadARFFPositions(t *testing.T) {
	a, err := NewARFFReader(strings.NewReader("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1,  22\n{1 5}\n"), "p.arff")
	if err != nil {
		t.Fatal(err)
	}
	a.Read()
	if p := a.FieldPos(1); p != (logic.Position{File: "p.arff", Line: 5, Col: 5}) {
		t.Errorf("dense value 2 at %v", p)
	}
	a.Read()
	if p := a.FieldPos(1); p.Line != 6 || p.Col != 4 {
		t.Errorf("sparse value 2 at %v, want 6:4", p)
	}
	if p := a.FieldPos(0); p.Line != 6 || p.Col != 1 {
		t.Errorf("a sparse value left out at %v, want its brace at 6:1", p)
	}
}

// TestReadARFFErrors: each malformed header or instance is an error at its
// line and column.
func TestReadARFFErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "t.arff:1:1: no @data line"},
		{"@relation r\n@data\n", "t.arff:2:1: @data before any @attribute"},
		{"@relation r\n@attribute a\n@data\n", "t.arff:2:13: attribute \"a\" has no type"},
		{"@relation r\n@attribute a bogus\n@data\n", "t.arff:2:14: attribute \"a\" has the unknown type \"bogus\""},
		{"@relation r\n@attribute a {x,y\n@data\n", "t.arff:2:14: attribute \"a\": the nominal values have no closing '}'"},
		{"@relation r\n@attribute a relational\n@data\n", "t.arff:2:14: attribute \"a\" is relational"},
		{"@relation r\n@attribute 'a numeric\n@data\n", "t.arff:2:12: unterminated quoted name"},
		{"@relation r\nbanana\n", "t.arff:2:1: expected @relation, @attribute or @data, found \"banana\""},
		{"@relation r\n@attribute a numeric\n@data\n'x\n", "t.arff:4:1: unterminated quoted value"},
		{"@relation r\n@attribute a numeric\n@data\n'x' y\n", "t.arff:4:5: expected ',' after a quoted value"},
		{"@relation r\n@attribute a numeric\n@data\n{3 1}\n", "t.arff:4:2: attribute index 3 outside 0 to 0"},
		{"@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{1 1, 0 2}\n", "t.arff:5:7: attribute index 0 after 1"},
		{"@relation r\n@attribute a numeric\n@data\n{0 1\n", "t.arff:4:1: a sparse instance ends with '}'"},
		{"@relation r\n@attribute a numeric\n@data\n{zero 1}\n", "t.arff:4:2: a sparse value is \"index value\""},
	} {
		_, _, err := readAll(t, c.text)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
		var pe *logic.ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%q: %T is not a positioned error", c.text, err)
		}
	}
}

// FuzzReadARFF: whatever the input, the reader returns rows or a
// positioned error, never a panic; a table it writes (any names and
// values but newlines) reads back as written.
func FuzzReadARFF(f *testing.F) {
	f.Add("@relation r\n@attribute a {x,y}\n@attribute b numeric\n@data\nx,1\n{1 2}\n", "a b", "it's", `back\slash`)
	f.Add("@relation 'x'\n@attribute \"q\" string\n@data\n'\\'',\n", "%", "{x}", "?")
	f.Add("{", ",", " ", "")
	f.Fuzz(func(t *testing.T, text, name, v1, v2 string) {
		if a, rows, err := readAll(t, text); err == nil {
			for _, r := range rows {
				if len(r) == 0 {
					t.Fatalf("an instance without values from %q", text)
				}
			}
			_ = a.Attributes()
		} else if !errors.As(err, new(*logic.ParseError)) {
			t.Fatalf("%q: %T %v is not positioned", text, err, err)
		}
		for _, s := range []string{name, v1, v2} {
			if strings.ContainsAny(s, "\n\r") || s == "?" || s == "" {
				return
			}
		}
		tab := &ARFF{Relation: name, Attributes: []Attribute{{Name: name, Values: []string{v1, v2}}, {Name: v1 + "x", Text: true}},
			Rows: [][]string{{v1, v2}, {v2, "?"}}}
		var buf bytes.Buffer
		if err := tab.Write(&buf); err != nil {
			t.Fatal(err)
		}
		a, rows, err := readAll(t, buf.String())
		if err != nil {
			t.Fatalf("written as\n%s\nread back: %v", buf.String(), err)
		}
		if a.Relation() != name || !reflect.DeepEqual(a.Attributes(), tab.Attributes) || !reflect.DeepEqual(rows, tab.Rows) {
			t.Fatalf("written as\n%s\nread back as %q %+v %q", buf.String(), a.Relation(), a.Attributes(), rows)
		}
	})
}
