package learn

import "context"

// ScoreSample scores the candidates the learner would sample next at every
// position, leaving the learner's random state as it was: the core of one
// iteration, for benchmarks.
func ScoreSample(l *Learner) int {
	saved := *l.pcg
	defer func() { *l.pcg = saved }()
	cands := l.sample()
	l.e.scoreCandidates(context.Background(), cands)
	return len(cands)
}
