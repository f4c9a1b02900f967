package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestBasePropFallback: a problem too large for the cache of each group's
// fixpoint of H ∪ α (maxBaseBytes) propagates H ∪ α again for every walk,
// and learns the same theory, iteration by iteration, as with the cache.
// The problem has classes under "exactly one" hard rules, as a table's.
func TestBasePropFallback(t *testing.T) {
	v, train, hard := classProblem(1)
	for _, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
		cached, used := learnDigest(t, v, train, hard, sem)
		if !used {
			t.Fatalf("%v: the cache was not used; the test compares nothing", sem)
		}
		saved := maxBaseBytes
		maxBaseBytes = 0
		fallback, usedAgain := learnDigest(t, v, train, hard, sem)
		maxBaseBytes = saved
		if usedAgain {
			t.Fatalf("%v: maxBaseBytes 0 still cached the fixpoints", sem)
		}
		if cached != fallback {
			t.Errorf("%v: with the cache\n%s\nwithout it\n%s", sem, cached, fallback)
		}
	}
}

// learnDigest learns 8 iterations and returns the final theory with the
// training accuracy of every iteration, and whether the groups' fixpoints
// were cached.
func learnDigest(t *testing.T, v *logic.Vocabulary, train *Examples, hard []logic.Clause, sem possibilistic.Semantics) (string, bool) {
	t.Helper()
	l, err := NewLearner(Problem{Vocab: v, Train: train, Hard: hard}, Config{Seed: 1, Iterations: 8, Threads: 1, Candidates: 30, Semantics: sem, general: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	f, ok := l.c.(*drowningFree)
	return TheoryAndHistory(l, v), ok && f.semx.base != nil
}

// classProblem returns situations over 6 binary features whose class (one
// of 3, exactly one true: the hard rules) a noisy rule decides, each as a
// default α |~ class and a non-default α |~ another class.
func classProblem(seed uint64) (*logic.Vocabulary, *Examples, []logic.Clause) {
	v := &logic.Vocabulary{}
	var feat, class []logic.Atom
	for i := range 6 {
		feat = append(feat, v.Intern(fmt.Sprintf("f%d", i)))
	}
	for i := range 3 {
		class = append(class, v.Intern(fmt.Sprintf("c%d", i)))
	}
	hard := []logic.Clause{{logic.Pos(class[0]), logic.Pos(class[1]), logic.Pos(class[2])}}
	for i := range class {
		for j := i + 1; j < len(class); j++ {
			hard = append(hard, logic.Clause{logic.Neg(class[i]), logic.Neg(class[j])})
		}
	}
	r := rand.New(rand.NewPCG(seed, 0))
	train := &Examples{}
	for range 300 {
		alpha := make(logic.Term, 0, len(feat))
		x := make([]bool, len(feat))
		for i, a := range feat {
			x[i] = r.IntN(2) == 0
			if r.IntN(4) > 0 { // a feature is missing a quarter of the time
				alpha = append(alpha, logic.MkLit(a, x[i]))
			}
		}
		c := 2
		switch {
		case x[0] && !x[1]:
			c = 0
		case x[2] || x[3] && x[4]:
			c = 1
		}
		if r.Float64() < 0.15 {
			c = r.IntN(3)
		}
		train.Add(alpha, logic.Clause{logic.Pos(class[c])}, true, 1)
		train.Add(alpha, logic.Clause{logic.Pos(class[(c+1+r.IntN(2))%3])}, false, 1)
	}
	return v, train, hard
}

// TestEntailedFallback: a problem too large for the sets of the literals
// each antecedent derives (maxEntailedBytes) scores every antecedent, and
// learns the same theory, iteration by iteration, as with the sets.
func TestEntailedFallback(t *testing.T) {
	v, train, hard := classProblem(2)
	for _, sem := range possibilistic.AllSemantics {
		with, _ := learnDigest(t, v, train, hard, sem)
		if e := newEngine(int(train.MaxAtom())+1, train, hard, 1, sem); !storeOf(e).entailedFor(&Hypothesis{Hard: hard}) {
			t.Fatalf("%v: no sets for the problem; the test compares nothing", sem)
		}
		saved := maxEntailedBytes
		maxEntailedBytes = 0
		without, _ := learnDigest(t, v, train, hard, sem)
		maxEntailedBytes = saved
		if with != without {
			t.Errorf("%v: with the sets\n%s\nwithout them\n%s", sem, with, without)
		}
	}
}
