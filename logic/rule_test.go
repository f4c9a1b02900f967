package logic

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
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

// TestParseQueryTooDeep: a plain formula nested past MaxDepth is reported
// as such, not as a rule missing its arrow; a rule whose own part is too
// deep reports that too.
func TestParseQueryTooDeep(t *testing.T) {
	v := &Vocabulary{}
	for _, src := range []string{
		strings.Repeat("!", MaxDepth+1) + "a",
		strings.Repeat("(", MaxDepth+1) + "a" + strings.Repeat(")", MaxDepth+1),
		"b -> " + strings.Repeat("!", MaxDepth+1) + "a",
	} {
		_, err := ParseQuery(v, src)
		if !errors.Is(err, ErrTooDeep) || !strings.Contains(err.Error(), "nested more than 10000 levels") {
			t.Errorf("%.20q…: %v", src, err)
		}
	}
	if _, err := ParseQuery(v, strings.Repeat("!", MaxDepth)+"a"); err != nil {
		t.Errorf("%d negations: %v", MaxDepth, err)
	}
}

// TestLineEndings: "\n", "\r\n" and a lone "\r" each end a line, for
// LineFormat.Each, LineCol and Newlines alike, wherever the reads split the
// input.
func TestLineEndings(t *testing.T) {
	in := "a -> b\rc -> d # x\r\r\ne\n\rf\r"
	want := []string{"1:a -> b", "2:c -> d ", "4:e", "6:f"}
	got, err := lines(TextLines, in)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("Each: got %q, %v; want %q", got, err, want)
	}
	for _, r := range []io.Reader{iotest.OneByteReader(strings.NewReader(in)), iotest.HalfReader(strings.NewReader(in))} {
		var got []string
		err := TextLines.Each(r, "x", func(line int, text string) error {
			got = append(got, fmt.Sprintf("%d:%s", line, text))
			return nil
		})
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Each, byte by byte: got %q, %v", got, err)
		}
	}
	for _, c := range []struct{ off, line, col int }{{0, 1, 1}, {6, 1, 7}, {7, 2, 1}, {17, 2, 11}, {18, 3, 1}, {19, 3, 2}, {20, 4, 1}, {21, 4, 2}, {22, 5, 1}, {23, 6, 1}, {99, 7, 1}} {
		if l, col := LineCol(in, c.off); l != c.line || col != c.col {
			t.Errorf("LineCol(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
		out, err := io.ReadAll(Newlines(r))
		if want := "a -> b\nc -> d # x\n\r\ne\n\nf\n"; err != nil || string(out) != want {
			t.Errorf("Newlines: %q, %v; want %q", out, err, want)
		}
	}
	// A parse error in text of several lines names the line CR starts.
	_, err = ParseFormulaAt(&Vocabulary{}, Position{File: "q", Line: 3}, "a |\rb &\r)")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Pos.Line != 5 || pe.Pos.Col != 1 {
		t.Errorf("error in CR-separated text: %v", err)
	}
}

func TestIsAtomName(t *testing.T) {
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"a", true}, {"a1", true}, {"_x3", true}, {"00a1", true}, {"check-raised", true}, {"a'", true}, {"é", true},
		{"", false}, {"1", false}, {"!x", false}, {"a|b", false}, {"a b", false}, {" a", false}, {"true", false},
		{"false", false}, {"a()", false}, {"a->b", false}, {"(a)", false}, {"a,b", false}, {"a\x00", false},
	} {
		if got := IsAtomName(c.name); got != c.ok {
			t.Errorf("IsAtomName(%q) = %v", c.name, got)
		}
	}
}

// TestListOperandDepth: an implication read as an operand of a ',' list or
// before '|~' is printed in parentheses, a level deeper than it was read;
// at the limit it is refused, so that what is read can be written back.
func TestListOperandDepth(t *testing.T) {
	v := &Vocabulary{}
	var b strings.Builder
	for i := range MaxDepth + 1 {
		if i > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString("a")
	}
	long := b.String() // MaxDepth deep: readable alone
	if _, err := ParseFormula(v, long); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"x, " + long, long + ", x"} {
		if _, err := ParseFormula(v, src); !errors.Is(err, ErrTooDeep) {
			t.Errorf("%.10q…: %v", src, err)
		}
	}
	if _, err := ParseRule(v, long+" |~ x"); !errors.Is(err, ErrTooDeep) {
		t.Errorf("rule: %v", err)
	}
	short := long[len("a -> "):]
	for _, src := range []string{"x, " + short, short + " |~ x"} {
		r, err := ParseQuery(v, src)
		if err != nil {
			t.Fatalf("%.10q…: %v", src, err)
		}
		if _, err := ParseRule(v, r.String(v)); err != nil && r.Antecedent.Op != OpTrue {
			t.Errorf("%.10q… printed does not read back: %v", src, err)
		}
		if _, err := ParseFormula(v, r.Consequent.String(v)); err != nil {
			t.Errorf("%.10q… printed does not read back: %v", src, err)
		}
	}
}

// FuzzLineEndings: LineFormat.Each, LineCol and Newlines agree with a
// byte-by-byte reference splitting at "\n", "\r\n" and a lone "\r".
func FuzzLineEndings(f *testing.F) {
	for _, s := range []string{"a\rb\r\nc\n", "\r\r\n\n\r", "x", "", "a\r", BOM + "a\rb"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var want []string // "line:text" of the non-blank lines
		var starts []int  // offset of every line
		line, start := 1, 0
		starts = append(starts, 0)
		flush := func(end int) {
			text := src[start:end]
			if line == 1 {
				text = strings.TrimPrefix(text, BOM)
			}
			if strings.TrimSpace(text) != "" {
				want = append(want, fmt.Sprintf("%d:%s", line, text))
			}
		}
		for i := 0; i < len(src); i++ {
			switch {
			case src[i] == '\n', src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
				flush(i) // "\r\n" ends at its "\n", the "\r" still in the text
				line, start = line+1, i+1
				starts = append(starts, i+1)
			case src[i] == '\r':
				// the "\r" of "\r\n": the line ends at the "\n"
			}
		}
		if start < len(src) {
			flush(len(src))
		}
		got, err := lines(LineFormat{}, src)
		// Each drops the "\r" of "\r\n" from the text; the reference keeps
		// it before the "\n": compare without it.
		for i := range want {
			want[i] = strings.TrimSuffix(want[i], "\r")
			if strings.TrimSpace(want[i][strings.IndexByte(want[i], ':')+1:]) == "" {
				want[i] = ""
			}
		}
		want = slices.DeleteFunc(want, func(s string) bool { return s == "" })
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("%q: Each gave %q, %v; want %q", src, got, err, want)
		}
		for i, off := range starts {
			if l, c := LineCol(src, off); l != i+1 || c != 1 {
				t.Fatalf("%q: LineCol(%d) = %d:%d, want %d:1", src, off, l, c, i+1)
			}
		}
		out, err := io.ReadAll(Newlines(iotest.OneByteReader(strings.NewReader(src))))
		if err != nil || strings.Count(string(out), "\n") != len(starts)-1 || strings.ReplaceAll(string(out), "\r\n", "\n") != strings.ReplaceAll(strings.ReplaceAll(src, "\r\n", "\n"), "\r", "\n") {
			t.Fatalf("%q: Newlines gave %q", src, out)
		}
	})
}

// TestLineLimitAgreesWithEach: LineLimit lets through exactly the lines
// that LineFormat.Each reads (MaxLineLen bytes, however the writes split
// them) and fails on a longer one before writing any of it.
func TestLineLimitAgreesWithEach(t *testing.T) {
	defer func(n int) { maxLineLen = n }(maxLineLen)
	maxLineLen = 10
	var b strings.Builder
	w := LineLimit(&b, "theory")
	for _, part := range []string{"0123", "456789\nab", "c\r\n", "0123456789\n"} {
		if _, err := w.Write([]byte(part)); err != nil {
			t.Fatalf("%q: %v", part, err)
		}
	}
	n := 0
	if err := TextLines.Each(strings.NewReader(b.String()), "t", func(int, string) error { n++; return nil }); err != nil || n != 3 {
		t.Fatalf("read back %d lines: %v", n, err)
	}
	before := b.Len()
	_, err := w.Write([]byte("01234\n0123456789x"))
	if err == nil || err.Error() != "line 5 of the theory would be longer than 10 bytes, the longest line strata reads back" || b.Len() != before {
		t.Fatalf("%v, %d bytes written", err, b.Len()-before)
	}
}
