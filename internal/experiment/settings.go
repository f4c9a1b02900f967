package experiment

import (
	"errors"
	"fmt"

	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// Settings control a reproduction: where it reads and writes, how the
// theories are learned and validated, and who is told about progress. Both
// reproductions embed them, so a setting means the same in each, and the
// same as the flag or field of that name of strata learn and the server.
type Settings struct {
	Data string // the public data directory (../shared/data)
	Dir  string // the output directory: results.md, the theories, one directory per subject

	// Quick runs a small version for tests: less data, no timeout, and
	// without an iteration limit of its own (Learning.Iterations 0) at
	// most Defaults.QuickIterations iterations.
	Quick bool

	// Seed fixes every random draw of the run; each draw gets its own seed
	// from it (learn.SeedFor and the Purposes).
	Seed uint64

	// Learning says how each theory is learned (learn.Settings): its
	// Timeout is per subject and semantics, validation included; its
	// Folds hold out the training data by whole groups (annotators,
	// evidence formulas). Its Seed and Semantics are the run's: the
	// learner's seed is drawn from Seed (learn.ForLearner), and each of
	// Semantics is learned in turn.
	Learning learn.Settings

	// Semantics lists the semantics to learn and score theories under, one
	// column each (all three when empty; poss always runs first, the
	// paper's column). Iterations are chosen for each on its own
	// validation run.
	Semantics []possibilistic.Semantics

	// Weka runs the baselines; nil skips them.
	Weka *weka.Runner
	// XGBoost runs the gradient-boosting baseline; nil skips it.
	XGBoost *xgboost.Runner
	// Command is the command line recorded in results.md.
	Command string
	// Progress, if not nil, is told about every step and learning iteration.
	Progress func(Event)
}

// Defaults are what a reproduction's settings depend on beyond the
// Settings themselves.
type Defaults struct {
	QuickIterations int // the iteration limit of a Quick run
}

// Resolve checks s, refusing settings that have no meaning
// (learn.Settings.Validate), and applies Quick: no timeout, and
// d.QuickIterations for no iteration limit of its own.
func (s Settings) Resolve(d Defaults) (Settings, error) {
	if s.Data == "" || s.Dir == "" {
		return s, errors.New("repro: Options.Data and Options.Dir are required")
	}
	if err := s.Learning.Validate(); err != nil {
		return s, fmt.Errorf("repro: %w", err)
	}
	if s.Quick {
		if s.Learning.Iterations == 0 {
			s.Learning.Iterations = d.QuickIterations
		}
		s.Learning.Timeout = 0
	}
	s.Semantics = semanticsList(s.Semantics)
	return s, nil
}

// Emit sends e to s.Progress, if there is one.
func (s *Settings) Emit(e Event) { emitter(s.Progress).emit(e) }

// learning returns the settings of a theory learned under sem: the
// learner's seed drawn from the run's.
func (s *Settings) learning(sem possibilistic.Semantics) learn.Settings {
	l := s.Learning
	l.Seed, l.Semantics = learn.SeedFor(s.Seed, learn.ForLearner), sem
	return l
}
