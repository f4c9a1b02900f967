package logic

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestEachLine(t *testing.T) {
	in := "a, b # first\n\n   # only a comment\n\t\n-> c\n"
	var got []string
	err := EachLine(strings.NewReader(in), "x", func(line int, text string) error {
		got = append(got, fmt.Sprintf("%d:%s", line, text))
		return nil
	})
	if err != nil || !slices.Equal(got, []string{"1:a, b ", "5:-> c"}) {
		t.Fatalf("got %q, %v", got, err)
	}
	stop := errors.New("stop")
	calls := 0
	err = EachLine(strings.NewReader("a\nb\n"), "x", func(int, string) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Fatalf("fn's error: %v after %d calls", err, calls)
	}
	long := strings.Repeat("a", 17*1024*1024)
	err = EachLine(strings.NewReader(long), "big.rules", func(int, string) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "big.rules") {
		t.Fatalf("a 17 MiB line: %v", err)
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
		if n := v.Len(); !BruteEntails(n, []*Formula{f}, want) || !BruteEntails(n, []*Formula{want}, f) {
			t.Errorf("%q parsed as %s, want %s", tc.src, f.String(v), tc.want)
		}
	}
	if _, err := ParseEvidence(v, "penguin ->"); err == nil {
		t.Error("'penguin ->' accepted as evidence")
	}
}
