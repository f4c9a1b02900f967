package experiment

import (
	"errors"
	"fmt"
	"time"

	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// Settings control a reproduction: where it reads and writes, how the
// theories are learned and validated, and who is told about progress. Both
// reproductions embed them, so a setting means the same in each, and the
// same as the flag or field of that name of strata learn and the server.
// A zero field has no effect (no limit, no validation, no patience), but
// for Candidates and Threads (the learner's defaults) and Semantics (all
// three); the command line's defaults are the reproductions' Default*
// constants and learn's.
type Settings struct {
	Data string // the public data directory (../shared/data)
	Dir  string // the output directory: results.md, the theories, one directory per subject

	// Quick runs a small version for tests: less data, no timeout, and
	// without an iteration limit of its own at most
	// Defaults.QuickIterations iterations.
	Quick bool

	// Seed fixes every random draw of the run; each draw gets its own seed
	// from it (see Seed and the Purposes).
	Seed uint64

	Iterations int           // most iterations of one learning run (0: no limit)
	Timeout    time.Duration // learning time per subject and semantics, validation included (0: no limit)
	Candidates int           // candidate clauses per iteration (0: learn.DefaultCandidates)
	// Patience stops a learning run, the validation runs too, after this
	// many iterations that improve nothing on its training examples (0:
	// never: the validation runs stop by ValidationPatience, and the final
	// run makes exactly the chosen number of iterations).
	Patience int
	Threads  int // learner workers (0: all CPUs)
	// Specialise is learn.Settings.Specialise: how many literals the
	// learner may add to an iteration's chosen candidate (0: none).
	Specialise int
	// Grow is learn.Settings.Grow: how many of each iteration's candidates
	// are also grown by information gain (0: none).
	Grow int
	// Tally is learn.Settings.Tally.
	Tally bool

	// Folds says how the number of iterations is chosen on the training
	// data, by whole groups (annotators, evidence formulas): with 2 or
	// more by cross-validation on that many folds (each held out in turn
	// from a run on the others; the one-standard-error rule reads the
	// pooled curve, which scores every training example once), with 1 on
	// one held-out part of share Validation, with 0 not at all (learn up
	// to Iterations). The theory is then learned on all training data with
	// the chosen number of iterations (learn.Protocol).
	Folds int
	// Validation is the share of the training data that one held-out part
	// holds out (Folds 1; 0: none, so nothing is chosen).
	Validation float64
	// ValidationPatience stops a validation run after this many
	// iterations without a better held-out score (0: never).
	ValidationPatience int
	// Rule chooses the number of iterations on the held-out curve
	// (learn.Protocol.Rule; the zero value is the one-standard-error rule).
	Rule learn.Rule
	// Restarts is the number of final runs, of which the one with the
	// best training score is kept (learn.Protocol.Restarts).
	Restarts int
	// Prune turns on reduced-support pruning (learn.Protocol.PruneShare,
	// at learn.DefaultPruneShare): the support a clause needs is chosen on
	// the held-out parts, and the final theory loses every clause that at
	// most that share of the training examples need.
	Prune bool

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

// Resolve checks s, refusing settings that have no meaning, and applies
// Quick: no timeout, and d.QuickIterations for no iteration limit.
func (s Settings) Resolve(d Defaults) (Settings, error) {
	switch {
	case s.Data == "" || s.Dir == "":
		return s, errors.New("repro: Options.Data and Options.Dir are required")
	case s.Iterations < 0 || s.Timeout < 0 || s.Candidates < 0 || s.Threads < 0:
		return s, fmt.Errorf("repro: %d iterations, timeout %s, %d candidates, %d threads: none can be negative", s.Iterations, s.Timeout, s.Candidates, s.Threads)
	case s.Specialise < 0:
		return s, fmt.Errorf("repro: specialise %d: it cannot be negative (0: never)", s.Specialise)
	case s.Grow < 0:
		return s, fmt.Errorf("repro: grow %d: it cannot be negative (0: none)", s.Grow)
	case s.Patience < 0 || s.ValidationPatience < 0:
		return s, fmt.Errorf("repro: patience %d, validation patience %d: neither can be negative (0: never)", s.Patience, s.ValidationPatience)
	case s.Folds < 0:
		return s, fmt.Errorf("repro: %d cross-validation folds", s.Folds)
	case !(s.Validation >= 0 && s.Validation < 1):
		return s, fmt.Errorf("repro: validation share %v outside [0, 1)", s.Validation)
	}
	if s.Quick {
		if s.Iterations == 0 {
			s.Iterations = d.QuickIterations
		}
		s.Timeout = 0
	}
	s.Semantics = semanticsList(s.Semantics)
	return s, nil
}

// Emit sends e to s.Progress, if there is one.
func (s *Settings) Emit(e Event) { emitter(s.Progress).emit(e) }

// learner returns the learner's settings under sem.
func (s *Settings) learner(sem possibilistic.Semantics) learn.Settings {
	return learn.Settings{Iterations: s.Iterations, Timeout: s.Timeout, Candidates: s.Candidates, Seed: Seed(s.Seed, Learner),
		Threads: s.Threads, Patience: s.Patience, Semantics: sem, Specialise: s.Specialise, Grow: s.Grow, Tally: s.Tally}
}
