package logic

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lines returns what f.Each passes to fn for in, as "line:text".
func lines(f LineFormat, in string) ([]string, error) {
	var got []string
	err := f.Each(strings.NewReader(in), "x", func(line int, text string) error {
		got = append(got, fmt.Sprintf("%d:%s", line, text))
		return nil
	})
	return got, err
}

func TestEachLine(t *testing.T) {
	in := "a, b # first\n\n   # only a comment\n\t\n-> c // d # e\n"
	for _, c := range []struct {
		f    LineFormat
		want []string
	}{
		{TextLines, []string{"1:a, b ", "5:-> c // d "}},
		{LineFormat{Comments: []string{"//", "#"}}, []string{"1:a, b ", "5:-> c "}},
		{LineFormat{}, []string{"1:a, b # first", "3:   # only a comment", "5:-> c // d # e"}},
	} {
		if got, err := lines(c.f, in); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("comments %q: got %q, %v; want %q", c.f.Comments, got, err, c.want)
		}
	}
	stop := errors.New("stop")
	calls := 0
	err := TextLines.Each(strings.NewReader("a\nb\n"), "x", func(int, string) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("fn's error: %v after %d calls", err, calls)
	}
	long := strings.Repeat("a", 17*1024*1024)
	err = TextLines.Each(strings.NewReader("a -> b\n\n"+long), "big.rules", func(int, string) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "big.rules:3: line longer than") {
		t.Fatalf("a 17 MiB line: %v", err)
	}
}

// TestLinesBOMAndLength: a byte-order mark is dropped from the first line
// only, line endings are removed, and a line over the limit is an error
// naming file and line, also when it ends the input without a newline.
func TestLinesBOMAndLength(t *testing.T) {
	got, err := lines(LineFormat{}, BOM+"bird -> flies\r\n"+BOM+"x\nlast")
	if err != nil || !slices.Equal(got, []string{"1:bird -> flies", "2:" + BOM + "x", "3:last"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	defer func(n int) { maxLineLen = n }(maxLineLen)
	maxLineLen = 100
	for _, in := range []string{strings.Repeat("a", 101), "a\n" + strings.Repeat("a", 100*1024) + "\nb\n"} {
		err := LineFormat{}.Each(strings.NewReader(in), "x.rules", func(int, string) error { return nil })
		var tl *ParseError
		if !errors.Is(err, ErrLineTooLong) || !errors.As(err, &tl) || tl.Pos.Line != strings.Count(in[:min(len(in), 2)], "\n")+1 {
			t.Errorf("%d-byte input: %v", len(in), err)
		}
	}
	if err := (LineFormat{}).Each(strings.NewReader(strings.Repeat("a", 100)+"\r\n"), "x", func(int, string) error { return nil }); err != nil {
		t.Errorf("a line of exactly the limit plus its line ending: %v", err)
	}
}

func TestParseEvidence(t *testing.T) {
	v := &Vocabulary{}
	for _, tc := range []struct{ src, want string }{
		{"penguin, !flies", "penguin & !flies"},
		{"  ", "true"},
		{"a | b, c", "(a | b) & c"},
		{"a -> b", "a -> b"},
	} {
		f, err := ParseEvidence(v, tc.src)
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		want, _ := ParseFormula(v, tc.want)
		if !equivalent(v.Len(), f, want) {
			t.Errorf("%q parsed as %s, want %s", tc.src, f.String(v), tc.want)
		}
	}
	if _, err := ParseEvidence(v, "penguin ->"); err == nil {
		t.Error("'penguin ->' accepted as evidence")
	}
}

func TestParseQuery(t *testing.T) {
	v := &Vocabulary{}
	for _, src := range []string{"penguin -> !flies", "bird, red |~ flies", " -> bird"} {
		want, _ := ParseRule(v, src)
		r, err := ParseQuery(v, src)
		if err != nil || !r.Antecedent.Equal(want.Antecedent) || !r.Consequent.Equal(want.Consequent) {
			t.Errorf("%q: %v %v", src, r.String(v), err)
		}
	}
	// A plain formula φ is the query true |~ φ.
	for _, src := range []string{"!penguin | bird", "flies", "a & (b | c)"} {
		want, _ := ParseFormula(v, src)
		r, err := ParseQuery(v, src)
		if err != nil || r.Antecedent.Op != OpTrue || !r.Consequent.Equal(want) {
			t.Errorf("%q: %v %v", src, r.String(v), err)
		}
	}
	// Neither a rule nor a formula: the rule parser's error, with its column.
	_, err := ParseQuery(v, "penguin -> (flies")
	var se *ParseError
	if !errors.As(err, &se) || se.Pos.Col != 18 {
		t.Errorf("error %v", err)
	}
}

func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"penguin -> !flies", "flies", "a | b", "a -> (b", "|~", "a, b |~ c, d", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v := &Vocabulary{}
		q, err := ParseQuery(v, src)
		if r, rerr := ParseRule(v, src); rerr == nil {
			if err != nil || !q.Antecedent.Equal(r.Antecedent) || !q.Consequent.Equal(r.Consequent) {
				t.Fatalf("%q: a rule read as %v, %v", src, q, err)
			}
			return
		}
		if fm, ferr := ParseFormula(v, src); ferr == nil {
			if err != nil || q.Antecedent.Op != OpTrue || !q.Consequent.Equal(fm) {
				t.Fatalf("%q: a formula read as %v, %v", src, q, err)
			}
			return
		}
		if err == nil {
			t.Fatalf("%q: neither a rule nor a formula, yet read", src)
		}
	})
}

// equivalent reports, by enumerating the worlds over n atoms, whether f and
// g hold in the same worlds.
func equivalent(n int, f, g *Formula) bool {
	same := true
	ForEachWorld(n, func(w []bool) bool {
		same = f.Eval(w) == g.Eval(w)
		return same
	})
	return same
}
