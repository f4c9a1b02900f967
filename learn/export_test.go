package learn

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// ScoreSample scores the candidates the learner would sample next at every
// position and chooses the best, leaving the learner's random state as it
// was: the core of one iteration, for benchmarks.
func ScoreSample(l *Learner) int {
	saved := *l.pcg
	defer func() { *l.pcg = saved }()
	cands, _ := l.sample()
	bestOf(context.Background(), l.c, cands)
	return len(cands)
}

// NLTCSProblem is the NLTCS problem of the benchmarks: 1000 training and
// 1000 test defaults labelled by the data's conditional majorities.
func NLTCSProblem(tb testing.TB) (*logic.Vocabulary, *Examples, *Examples) {
	return nltcsProblem(tb)
}

// TheoryAndHistory writes l's final theory and, a line per iteration, its
// training accuracy, rules and levels: what two runs that must learn alike
// are compared on.
func TheoryAndHistory(l *Learner, v *logic.Vocabulary) string {
	var b strings.Builder
	b.WriteString(l.Final().Theory(v).String())
	for _, it := range l.History() {
		fmt.Fprintf(&b, "%d %.6f %d %d\n", it.Iteration, it.TrainAccuracy, it.Rules, it.Levels)
	}
	return b.String()
}

// storeOf returns the store of a general engine.
func storeOf(e coverage) *store {
	switch e := e.(type) {
	case *drowning:
		return &e.store
	case *drowningFree:
		return &e.store
	}
	panic("storeOf: not a general engine")
}

// ForceGeneral returns s deciding coverage with the general engine of its
// semantics, for the differential tests of the complete engine.
func ForceGeneral(s Settings) Settings {
	s.general = true
	return s
}

// UsesComplete reports whether the learner decides coverage with the
// complete engine.
func UsesComplete(l *Learner) bool {
	_, ok := l.c.(*complete)
	return ok
}
