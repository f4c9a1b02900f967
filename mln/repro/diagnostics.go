package repro

import (
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
}

// diagnose computes the diagnostics of a theory on the examples.
func diagnose(th *possibilistic.Theory, train, test []mln.Example) Diagnostics {
	var d Diagnostics
	// Labels per sign of β on the training examples: [negated][positive].
	var n [2][2]int
	for _, e := range train {
		n[b2i(e.Conclusion.IsNeg())][b2i(e.Positive)]++
	}
	r := possibilistic.NewReasoner(th)
	signCorrect := 0
	for _, e := range test {
		s := n[b2i(e.Conclusion.IsNeg())]
		if (s[1] > s[0]) == e.Positive {
			signCorrect++
		}
		ok := r.EntailsClause(e.Evidence, logic.Clause{e.Conclusion}) == e.Positive
		if r.Inconsistency(logic.TermF(e.Evidence)) == 0 {
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
