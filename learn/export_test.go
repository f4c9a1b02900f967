package learn

import (
	"context"
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
