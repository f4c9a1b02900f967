package learn

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestContradictoryHard: hard rules that no world satisfies are refused,
// naming a minimal set that clashes; satisfiable ones pass.
func TestContradictoryHard(t *testing.T) {
	v := &logic.Vocabulary{}
	parse := func(srcs ...string) []*logic.Formula {
		var fs []*logic.Formula
		for _, s := range srcs {
			f, err := logic.ParseFormula(v, s)
			if err != nil {
				t.Fatal(err)
			}
			fs = append(fs, f)
		}
		return fs
	}
	for _, c := range []struct {
		rules []string
		clash []int // from 0; nil: satisfiable
	}{
		{[]string{"a", "!a"}, []int{0, 1}},
		{[]string{"b | c", "a", "d -> e", "a -> b", "!b"}, []int{1, 3, 4}},
		{[]string{"x <-> !x"}, []int{0}},
		{[]string{"false"}, []int{0}},
		{[]string{"a -> b", "b -> c", "!a | !c"}, nil},
		{[]string{"atleast(2, p, q, r)", "!p", "!q"}, []int{0, 1, 2}},
	} {
		err := CheckHard(v, parse(c.rules...))
		var ce *ContradictoryHardError
		switch {
		case c.clash == nil && err != nil:
			t.Errorf("%q: %v", c.rules, err)
		case c.clash != nil && (!errors.As(err, &ce) || !slices.Equal(ce.Index, c.clash)):
			t.Errorf("%q: %v, want the clash %v", c.rules, err, c.clash)
		}
	}
	err := CheckHard(v, parse("a", "!a"))
	if err == nil || !strings.Contains(err.Error(), "no world satisfies hard rules 1 (a), 2 (!a) together") {
		t.Errorf("message: %v", err)
	}
}
