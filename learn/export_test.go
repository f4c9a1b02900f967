package learn

import (
	"context"
	"fmt"
	"io"
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

// ConfigOf returns the learner's settings of a run under s.
func ConfigOf(s Settings) Config { return s.learner() }

// UsesComplete reports whether the learner decides coverage with the
// complete engine.
func UsesComplete(l *Learner) bool {
	_, ok := l.c.(*complete)
	return ok
}

// Config is the learner's own settings (config: a zero field has no
// effect), for the tests that drive a Learner or the protocol's steps.
type Config = config

// NewLearner prepares a learner of p under c.
func NewLearner(p Problem, c Config) (*Learner, error) { return newLearner(p, c, nil) }

// ResumeLearner resumes a learner of p under c from a checkpoint.
func ResumeLearner(r io.Reader, p Problem, c Config) (*Learner, error) { return resumeLearner(r, p, c) }

// learnProtocol runs proto on p: the validation, the final run with the
// settings it leaves, and finish.
func learnProtocol(ctx context.Context, p Problem, proto protocol) (*outcome, error) {
	sel, err := choose(ctx, p, proto)
	if err != nil {
		return nil, err
	}
	l, err := newLearner(p, proto.final(sel), nil)
	if err != nil {
		return nil, err
	}
	return proto.finish(ctx, p, sel, l, nil)
}

// ChooseFolds runs the protocol's validation of p on folds under c, at
// most parallel folds at once, with no validation patience.
func ChooseFolds(ctx context.Context, p Problem, c Config, folds []Fold, parallel int) (*Selection, error) {
	return choose(ctx, p, protocol{Settings: c, Folds: folds, Parallel: parallel})
}
