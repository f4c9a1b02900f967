package experiment

import (
	"errors"
	"fmt"
	"time"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// Settings control a reproduction: where it reads and writes, how the
// theories are learned and validated, and who is told about progress. Both
// reproductions embed them, so a setting means the same in each; a zero
// count or duration means the reproduction's default (see Defaults).
type Settings struct {
	Data string // the public data directory (../shared/data)
	Dir  string // the output directory: results.md, the theories, one directory per subject

	// Quick runs a small version for tests: less data and at most
	// Defaults.QuickIterations iterations, without a timeout.
	Quick bool

	// Seed fixes every random draw of the run; each draw gets its own seed
	// from it (see Seed and the Purposes).
	Seed uint64

	Iterations int           // most iterations of one learning run (0: the default)
	Timeout    time.Duration // learning time per subject and semantics, validation included (0: the default; Quick: none)
	Candidates int           // candidate clauses per iteration (0: the learner's default)
	// Patience stops a learning run after this many iterations that
	// improve nothing on its training examples (0 or negative: never: the
	// validation run stops by ValidationPatience, and the final run then
	// makes exactly the chosen number of iterations).
	Patience int
	Threads  int // learner workers (0: all CPUs)

	// Validation is the share of the training data, by whole groups
	// (annotators, evidence formulas), held out to choose the number of
	// iterations (0: DefaultValidation; negative: no validation, learn up
	// to Iterations). A first run learns on the other groups and scores
	// the held-out ones after every iteration; the number of iterations is
	// the smallest whose held-out accuracy is within one standard error of
	// the best (the one-standard-error rule), and the theory is then
	// learned on all training data with that many iterations.
	Validation float64
	// Folds, when 2 or more, chooses the number of iterations by
	// cross-validation instead: the training data are split into that many
	// parts by whole groups, each part is held out in turn from a run on
	// the others, and the one-standard-error rule reads the pooled curve
	// (learn.ChooseIterationsCV), which measures every training example
	// once instead of a share of them. 0 takes the reproduction's default
	// (the MAP experiment's 5, the crowd experiment's 1: its validation
	// runs on poker are long); 1 holds out one part of share Validation.
	Folds int
	// ValidationPatience stops the validation run after this many
	// iterations without a better held-out accuracy (0: the default).
	ValidationPatience int
	// Prune turns on reduced-support pruning: with a validation run, the
	// validation run's chosen model is pruned at
	// support thresholds of 0, 1, 2, 3, 5, … training examples (up to
	// MaxSupportShare of them), the highest threshold whose held-out
	// accuracy is within one standard error of the best is kept, and every
	// clause of the final theory that at most that share of the training
	// examples needs is removed (learn.ChooseSupport, learn.PruneSupport).
	Prune bool

	// Semantics lists the semantics to learn and score theories under, one
	// column each (all three when empty; poss always runs first, the
	// paper's column). Iterations are chosen for each on its own
	// validation run.
	Semantics []possibilistic.Semantics

	// Weka runs the baselines; nil skips them.
	Weka *weka.Runner
	// Command is the command line recorded in results.md.
	Command string
	// Progress, if not nil, is told about every step and learning iteration.
	Progress func(Event)
}

// DefaultValidation is the share of the training data held out to choose
// the number of iterations.
const DefaultValidation = 0.3

// Defaults are a reproduction's values for the zero Settings.
type Defaults struct {
	Iterations, QuickIterations int
	Timeout                     time.Duration
	ValidationPatience          int
	Folds                       int // cross-validation folds (see Settings.Folds); 0 or 1: one held-out part
}

// WithDefaults fills in the zero fields of s from d and refuses settings
// that have no meaning.
func (s Settings) WithDefaults(d Defaults) (Settings, error) {
	if s.Data == "" || s.Dir == "" {
		return s, errors.New("repro: Options.Data and Options.Dir are required")
	}
	if s.Iterations == 0 {
		s.Iterations = d.Iterations
		if s.Quick {
			s.Iterations = d.QuickIterations
		}
	}
	if s.Iterations < 0 || s.Timeout < 0 {
		return s, fmt.Errorf("repro: %d iterations, timeout %s", s.Iterations, s.Timeout)
	}
	if s.Timeout == 0 && !s.Quick {
		s.Timeout = d.Timeout
	}
	if s.Validation == 0 {
		s.Validation = DefaultValidation
	}
	if s.Validation >= 1 {
		return s, fmt.Errorf("repro: validation share %v is not below 1", s.Validation)
	}
	if s.ValidationPatience <= 0 {
		s.ValidationPatience = d.ValidationPatience
	}
	if s.Folds == 0 {
		s.Folds = max(d.Folds, 1)
	}
	if s.Folds < 0 {
		return s, fmt.Errorf("repro: %d cross-validation folds", s.Folds)
	}
	s.Semantics = semanticsList(s.Semantics)
	return s, nil
}

// Emit sends e to s.Progress, if there is one.
func (s *Settings) Emit(e Event) { emitter(s.Progress).emit(e) }

// learner returns the learner's settings for a run of at most iterations
// within timeout, under sem.
func (s *Settings) learner(sem possibilistic.Semantics, iterations int, timeout time.Duration) learn.Settings {
	never := s.Patience
	if never <= 0 {
		never = -1 // the learner's "never"; its zero is its default
	}
	return learn.Settings{Iterations: iterations, Timeout: timeout, Candidates: s.Candidates, Seed: Seed(s.Seed, Learner),
		Threads: s.Threads, Patience: never, Semantics: sem}
}
