package learn

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestWithFallbackKeepsConsequences checks Hypothesis.WithFallback's
// invariant by brute force on random hypotheses over four atoms, under
// every semantics: whatever the levels entail from a term α they still
// entail with the fallback below them, and a literal entailed only with
// it is one whose negation the levels did not entail either. Where
// WithFallback leaves the hypothesis as it was (the levels decide the
// fallback already), stating it anyway changes no answer.
func TestWithFallbackKeepsConsequences(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 11))
	const n = 4
	v := &logic.Vocabulary{}
	for a := range n {
		v.Intern(string(rune('a' + a)))
	}
	lit := func(atoms int) logic.Lit { return logic.MkLit(logic.Atom(r.IntN(atoms)), r.IntN(2) == 0) }
	clause := func(k int) logic.Clause {
		c := logic.Clause{}
		for range k {
			c = append(c, lit(n))
		}
		return c
	}
	gained, skipped := 0, 0
	for trial := range 400 {
		h := &Hypothesis{}
		if r.IntN(2) == 0 { // exactly one of a and b, as a binary class
			h.Hard = []logic.Clause{{logic.Pos(0), logic.Pos(1)}, {logic.Neg(0), logic.Neg(1)}}
		}
		if r.IntN(3) == 0 {
			h.Hard = append(h.Hard, clause(2))
		}
		for range 1 + r.IntN(4) {
			var lv []logic.Clause
			if r.IntN(3) == 0 {
				lv = append(lv, logic.Clause{lit(2)})
			} else {
				for range 1 + r.IntN(2) {
					lv = append(lv, clause(1+r.IntN(3)))
				}
			}
			h.Levels = append(h.Levels, lv)
		}
		fb := logic.Clause{lit(2)}
		with := h.WithFallback(fb)
		if with == h {
			skipped++
			with = h.Clone()
			with.Levels = slices.Insert(with.Levels, 0, []logic.Clause{fb})
		}
		for _, sem := range possibilistic.AllSemantics {
			before, err := possibilistic.NewReasoner(ctx, h.Theory(v))
			if err != nil {
				t.Fatal(err)
			}
			after, err := possibilistic.NewReasoner(ctx, with.Theory(v))
			if err != nil {
				t.Fatal(err)
			}
			for range 8 {
				alpha := logic.Term{}
				for range r.IntN(3) {
					alpha = append(alpha, lit(n))
				}
				for a := range n {
					for _, neg := range []bool{false, true} {
						beta := logic.Clause{logic.MkLit(logic.Atom(a), neg)}
						was, err1 := before.EntailsClause(ctx, sem, alpha, beta)
						now, err2 := after.EntailsClause(ctx, sem, alpha, beta)
						wasNot, err3 := before.EntailsClause(ctx, sem, alpha, logic.Clause{beta[0].Not()})
						if err := errors.Join(err1, err2, err3); err != nil {
							t.Fatal(err)
						}
						switch {
						case was && !now:
							t.Fatalf("trial %d, %v: %v |~ %v lost with the fallback %v below\n%v", trial, sem, alpha, beta, fb, h.Theory(v))
						case now && !was && wasNot:
							t.Fatalf("trial %d, %v: %v |~ %v gained against what the levels entail, %v\n%v", trial, sem, alpha, beta, beta[0].Not(), h.Theory(v))
						case now && !was && h.WithFallback(fb) == h:
							t.Fatalf("trial %d, %v: %v |~ %v gained with the fallback %v, which WithFallback left out as decided\n%v\n%v", trial, sem, alpha, beta, fb, h.Levels, h.Theory(v))
						case now && !was:
							gained++
						}
					}
				}
			}
		}
	}
	if gained == 0 || skipped == 0 {
		t.Fatalf("the fallback decided %d queries and was left out %d times: the test checks too little", gained, skipped)
	}
	t.Logf("%d queries decided by a fallback; %d fallbacks left out", gained, skipped)
}

// TestWithFallbackPresent checks that a fallback a level holds alone is
// not stated again, and one it holds beside another clause is.
func TestWithFallbackPresent(t *testing.T) {
	c := logic.Clause{logic.Pos(0)}
	h := &Hypothesis{Levels: [][]logic.Clause{{{logic.Pos(1)}}, {c}}}
	if got := (&Hypothesis{Levels: [][]logic.Clause{{c, {logic.Pos(1)}}}}).WithFallback(c); len(got.Levels) != 2 {
		t.Fatalf("WithFallback left out a fallback a level holds beside another clause: %v", got.Levels)
	}
	if got := h.WithFallback(c); got != h {
		t.Fatalf("WithFallback restated a clause of the hypothesis: %v", got.Levels)
	}
	got := h.WithFallback(logic.Clause{logic.Pos(2)})
	if len(got.Levels) != 3 || len(h.Levels) != 2 || !slices.Equal(got.Levels[0][0], logic.Clause{logic.Pos(2)}) {
		t.Fatalf("WithFallback gave %v from %v", got.Levels, h.Levels)
	}
}

// TestFallbackLadder checks withFallbacks on three classes a, b and c,
// exactly one true, and a rule x → ¬a: the most frequent class a goes
// alone at the lowest level, and below it the next class that answers the
// training situation x right, which the rule leaves with b and c open;
// under Poss the fallback a is drowned in x's inconsistency, and no class
// below it can answer x.
func TestFallbackLadder(t *testing.T) {
	a, b, c, x := logic.Pos(0), logic.Pos(1), logic.Pos(2), logic.Pos(3)
	hard := []logic.Clause{{a, b, c}, {a.Not(), b.Not()}, {a.Not(), c.Not()}, {b.Not(), c.Not()}}
	rule := logic.Clause{x.Not(), a.Not()}
	for _, target := range []logic.Lit{b, c} {
		train := &Examples{}
		train.Add(logic.Term{x}, logic.Clause{target}, true, 1)
		train.Add(logic.Term{x.Not()}, logic.Clause{a}, true, 3)
		p := Problem{Train: train, Hard: hard, Fallback: []logic.Clause{{a}, {b}, {c}}}
		for _, sem := range possibilistic.AllSemantics {
			h := &Hypothesis{Hard: hard, Levels: [][]logic.Clause{{rule}}}
			got, covered := withFallbacks(h, p, Config{Threads: 1, Semantics: sem}, func(m *Hypothesis) []bool { return Covers(m, train, 1, sem) })
			want := [][]logic.Clause{{{target}}, {{a}}, {rule}}
			if sem == possibilistic.Poss {
				want = want[1:]
			}
			if !slices.EqualFunc(got.Levels, want, func(x, y []logic.Clause) bool { return slices.EqualFunc(x, y, slices.Equal) }) {
				t.Errorf("%s, x |~ %v: levels %v, want %v", sem, target, got.Levels, want)
			}
			if covered != nil && !slices.Equal(covered, Covers(got, train, 1, sem)) {
				t.Errorf("%s, x |~ %v: coverage %v returned, %v scored", sem, target, covered, Covers(got, train, 1, sem))
			}
		}
	}
}
