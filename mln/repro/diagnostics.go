package repro

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/possibilistic"
)

// Diagnostics help read the accuracies: how far one attribute of the
// encoding goes, and where the theory errs.
type Diagnostics struct {
	// SignRule is the test accuracy of the one-attribute rule that predicts,
	// for each sign of the conclusion β, the label most training examples
	// with that sign have. When most atoms are false in most probable
	// worlds (sparse data, as Plants and MSNBC), "α |~ ¬x holds, α |~ x
	// does not" is right for nearly every example, and the classical
	// learners find it from the consequent attributes.
	SignRule float64
	// Consistent counts the test examples whose evidence α is consistent
	// with the whole theory (inc(Θ ∪ {α}) = 0), ConsistentCorrect those the
	// theory classifies correctly; Inconsistent and InconsistentCorrect the
	// others, for which α drowns some levels of Θ (the drowning effect of
	// possibilistic logic: every formula at or below the inconsistency
	// level is lost, not only those that conflict with α).
	Consistent, ConsistentCorrect     int
	Inconsistent, InconsistentCorrect int
	// Positives counts the positive test examples by the atom of their
	// conclusion, an entry for every atom of the network (see SizeBound).
	Positives []int
}

// SizeBound bounds the test accuracy of any theory of at most literals
// literals, under any semantics. Such a theory leaves out at least
// k = atoms − literals atoms, and a literal on an atom that occurs neither
// in the theory nor in α is never entailed (the models of α pair up across
// it; see possibilistic's TestAbsentAtomNeverEntailed), so every positive
// test example about a left-out atom is lost. Best is the bound for the k
// atoms with the fewest positive test examples, a choice only the test set
// can make; mean is its average over every choice of the k atoms, which is
// what a learner that has not seen the test set can expect, since the
// conclusions' atoms are drawn uniformly (mln.Generate) and the test
// examples independently of the training ones. ok is false when the theory
// can mention every atom.
func (d Diagnostics) SizeBound(literals int) (mean, best float64, ok bool) {
	atoms, tests := len(d.Positives), d.Consistent+d.Inconsistent
	k := atoms - literals
	if k <= 0 || tests == 0 {
		return 0, 0, false
	}
	sorted := slices.Clone(d.Positives)
	slices.Sort(sorted)
	fewest, all := 0, 0
	for i, p := range sorted {
		if i < k {
			fewest += p
		}
		all += p
	}
	n := float64(tests)
	return 1 - float64(k)/float64(atoms)*float64(all)/n, 1 - float64(fewest)/n, true
}

// diagnose computes the diagnostics of a theory over atoms atoms on the
// examples.
func diagnose(th *possibilistic.Theory, atoms int, train, test []mln.Example) Diagnostics {
	d := Diagnostics{Positives: make([]int, atoms)}
	// Labels per sign of β on the training examples: [negated][positive].
	var n [2][2]int
	for _, e := range train {
		n[b2i(e.Conclusion.IsNeg())][b2i(e.Positive)]++
	}
	ctx := context.Background() // never done: no query fails
	r, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		panic(err) // th's levels are in order: Add built them
	}
	signCorrect := 0
	for _, e := range test {
		s := n[b2i(e.Conclusion.IsNeg())]
		if (s[1] > s[0]) == e.Positive {
			signCorrect++
		}
		if a := int(e.Conclusion.Atom()); e.Positive && a < atoms {
			d.Positives[a]++
		}
		entailed, _ := r.EntailsClause(ctx, possibilistic.Poss, e.Evidence, logic.Clause{e.Conclusion})
		ok := entailed == e.Positive
		if inc, _ := r.Inconsistency(ctx, logic.TermF(e.Evidence)); inc == 0 {
			d.Consistent++
			d.ConsistentCorrect += b2i(ok)
		} else {
			d.Inconsistent++
			d.InconsistentCorrect += b2i(ok)
		}
	}
	if len(test) > 0 {
		d.SignRule = float64(signCorrect) / float64(len(test))
	}
	return d
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
