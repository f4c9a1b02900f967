package learn

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// hardSeparation is an instance of n formulas on which Stratify-Separable
// searches every cut: the theory a1, ..., a(n-1), !a1 is inconsistent, and
// nothing entails b, so the positive example -> b is covered by no cut.
func hardSeparation(t *testing.T, n int) ([]*logic.Formula, []logic.Rule) {
	v := &logic.Vocabulary{}
	srcs := []string{"!a1"}
	for i := 1; i < n; i++ {
		srcs = append(srcs, fmt.Sprintf("a%d", i))
	}
	return formulas(mustClauses(t, v, srcs...)), mustRules(t, v, " -> b")
}

func TestSeparateProgress(t *testing.T) {
	fs, pos := hardSeparation(t, 10)
	var reports []SeparateProgress
	_, err := Separate(context.Background(), fs, pos, nil, nil, func(p SeparateProgress) { reports = append(reports, p) })
	if !errors.Is(err, ErrNoSeparation) {
		t.Fatalf("err %v, want no separation", err)
	}
	if len(reports) < 2 {
		t.Fatalf("%d progress reports, want several", len(reports))
	}
	last := reports[len(reports)-1]
	if last.MaxCuts != 59049 || last.Cuts < progressEvery || last.Cuts > last.MaxCuts || last.Calls == 0 {
		t.Fatalf("last report %+v: want 0 < cuts <= 3^10 = 59049 and some solver calls", last)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i].Cuts < reports[i-1].Cuts {
			t.Fatalf("cuts went down: %+v then %+v", reports[i-1], reports[i])
		}
	}
}

func TestSeparateCancelled(t *testing.T) {
	fs, pos := hardSeparation(t, 16)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Separate(ctx, fs, pos, nil, nil, nil)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNoSeparation) {
		t.Fatalf("err %v, want the context's error", err)
	}
	// A search that ends before the first look at the context is unaffected.
	v := &logic.Vocabulary{}
	cs := mustClauses(t, v, "!x", "!y", "!x | a", "!y | b")
	levels, err := Separate(ctx, formulas(cs), mustRules(t, v, " -> !x", " -> !y", "x -> a", "y -> b"), mustRules(t, v, "x, y -> a"), nil, nil)
	want, err2 := Separate(context.Background(), formulas(cs), mustRules(t, v, " -> !x", " -> !y", "x -> a", "y -> b"), mustRules(t, v, "x, y -> a"), nil, nil)
	if err != nil || err2 != nil || len(levels) != len(want) {
		t.Fatalf("Example 3: %v %v, %d and %d levels", err, err2, len(levels), len(want))
	}
}

func TestMaxSeparateCuts(t *testing.T) {
	for n, want := range map[int]int64{0: 1, 1: 3, 2: 9, 20: 3486784401, MaxExact: 282429536481} {
		if got := MaxSeparateCuts(n); got != want {
			t.Errorf("MaxSeparateCuts(%d) = %d, want %d", n, got, want)
		}
	}
}
