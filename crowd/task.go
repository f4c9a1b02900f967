package crowd

import (
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// Task returns the multi-class task of the answers' situations as the test
// is scored (as Manifest.Target words it), for choosing a learner's settings on
// held-out answers: every distinct situation once, its target its most
// typical action, or none (learn.NoClass). Atoms are interned in v.
func Task(v *logic.Vocabulary, actions []string, answers []Answer) (*learn.Answers, error) {
	classes := make([]logic.Atom, len(actions))
	for i, a := range actions {
		classes[i] = v.Intern(a)
	}
	sits := Situations(answers)
	terms := make([]logic.Term, len(sits))
	targets := make([]logic.Atom, len(sits))
	for i, s := range sits {
		terms[i] = SituationTerm(v, s.Descriptors)
		targets[i] = learn.NoClass
		if s.Typical != NoAction {
			targets[i] = v.Intern(s.Typical)
		}
	}
	return learn.NewAnswers(classes, terms, targets)
}
