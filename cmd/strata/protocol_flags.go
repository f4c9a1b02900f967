package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// protocolFlags are the flags of the learning protocol (learn.Protocol)
// that strata learn, bench crowd and bench map share. Each is defined here
// once, so that it means the same in every command, and the same as the
// server's JSON field of that name (an underscore for the dash): a zero
// has no effect (no limit, never, nothing held out), --candidates 0 and
// --threads 0 mean the default, a negative value is an error.
type protocolFlags struct {
	iterations, candidates, patience, threads int
	timeout                                   time.Duration
	folds                                     int
	validation                                float64
	validationPatience                        int
	choose                                    string
	restarts                                  int
	prune                                     bool
}

// protocolDefaults are one command's defaults of the protocol flags and
// what it holds out.
type protocolDefaults struct {
	iterations, patience, folds int
	validationPatience          int // 0: learn.DefaultValidationPatience
	timeout                     time.Duration
	// rule is how the iterations are chosen on the held-out curve.
	rule       learn.Rule
	timeoutPer string // what --timeout is per: "", "per domain and semantics", …
	heldOut    string // the groups held out: "whole antecedents", …
}

// addProtocolFlags defines the protocol flags with the defaults d.
func addProtocolFlags(fl *pflag.FlagSet, p *protocolFlags, d protocolDefaults) {
	fl.IntVar(&p.iterations, "iterations", d.iterations, "at most this many iterations of a learning run (0: no limit)")
	fl.DurationVar(&p.timeout, "timeout", d.timeout, "learning time"+d.timeoutPer+", validation included (0: no limit), e.g. 10m")
	fl.IntVar(&p.candidates, "candidates", learn.DefaultCandidates, "candidate clauses sampled per iteration (0: the default)")
	fl.IntVar(&p.patience, "patience", d.patience, "stop a learning run after this many iterations that improve nothing on its training examples (0: never)")
	fl.IntVar(&p.threads, "threads", 0, "learner workers (0: all CPUs)")
	fl.IntVar(&p.folds, "folds", d.folds, "choose the number of iterations on training data held out by "+d.heldOut+
		": K >= 2 by K-fold cross-validation, 1 on one held-out part of --validation's share, 0 not at all")
	fl.Float64Var(&p.validation, "validation", learn.DefaultValidation, "the share of the training data one held-out part holds out (--folds 1; given without --folds it means --folds 1; 0: none)")
	if d.validationPatience == 0 {
		d.validationPatience = learn.DefaultValidationPatience
	}
	fl.IntVar(&p.validationPatience, "validation-patience", d.validationPatience, "stop a validation run after this many iterations without a better held-out score (0: never)")
	fl.StringVar(&p.choose, "choose", d.rule.String(), "how the number of iterations is chosen on the held-out score: one-se (the smallest within one standard error of the best), best, or paired (the smallest within one standard error of its paired difference from the best)")
	fl.IntVar(&p.restarts, "restarts", learn.DefaultRestarts, "after the held-out data chose the iterations, learn the final theory this many times with other seeds, within the iteration limit, and keep the one most accurate on the training data (0 or 1: once)")
	fl.BoolVar(&p.prune, "prune", false, "also choose on the held-out data how many training examples a clause must be needed by, and prune the final theory of the clauses needed by fewer")
}

// resolve checks the protocol flags of fl and applies their one rule
// between flags: --validation given without --folds means --folds 1.
func (p *protocolFlags) resolve(fl *pflag.FlagSet) error {
	if fl.Changed("validation") && !fl.Changed("folds") {
		p.folds = 1
	}
	switch {
	case p.iterations < 0:
		return fmt.Errorf("--iterations %d: give a positive number, or 0 for no limit", p.iterations)
	case p.timeout < 0:
		return fmt.Errorf("--timeout %v: give a positive duration, or 0 for no limit", p.timeout)
	case p.candidates < 0:
		return fmt.Errorf("--candidates %d: give a positive number, or 0 for the default (%d)", p.candidates, learn.DefaultCandidates)
	case p.patience < 0:
		return fmt.Errorf("--patience %d: give a positive number, or 0 for never", p.patience)
	case p.threads < 0:
		return fmt.Errorf("--threads %d: give a positive number, or 0 for one per CPU", p.threads)
	case p.folds < 0:
		return fmt.Errorf("--folds %d: give 2 or more for cross-validation, 1 for one held-out part, 0 for none", p.folds)
	case !(p.validation >= 0 && p.validation < 1):
		return fmt.Errorf("--validation %g: give a share between 0 and 1 (0: none)", p.validation)
	case p.validationPatience < 0:
		return fmt.Errorf("--validation-patience %d: give a positive number, or 0 for never", p.validationPatience)
	case fl.Changed("validation") && p.validation > 0 && p.folds > 1:
		return fmt.Errorf("--validation is the share of one held-out part and --folds %d cross-validates: give one of them", p.folds)
	case p.restarts < 0:
		return fmt.Errorf("--restarts %d: give a positive number, or 0 for one run", p.restarts)
	case p.choose != learn.OneStandardError.String() && p.choose != learn.BestScore.String() && p.choose != learn.Paired.String():
		return fmt.Errorf("--choose %q: give one-se, best or paired", p.choose)
	case p.prune && !p.selects():
		return errors.New("--prune chooses its threshold on held-out data: give --folds or --validation too")
	}
	return nil
}

// apply resolves the flags of fl and sets them in a reproduction's
// settings; with --quick and no --iterations, the quick run's own limit.
func (p *protocolFlags) apply(fl *pflag.FlagSet, s *experiment.Settings) error {
	if err := p.resolve(fl); err != nil {
		return err
	}
	if s.Quick && !fl.Changed("iterations") {
		p.iterations = 0
	}
	s.Iterations, s.Timeout, s.Candidates, s.Patience, s.Threads = p.iterations, p.timeout, p.candidates, p.patience, p.threads
	s.Folds, s.Validation, s.ValidationPatience, s.Prune = p.folds, p.validation, p.validationPatience, p.prune
	s.Rule, s.Restarts = p.rule(), p.restarts
	return nil
}

// rule returns learn.Protocol.Rule for --choose (checked by resolve).
func (p *protocolFlags) rule() learn.Rule {
	r, _ := learn.ParseRule(p.choose)
	return r
}

// selects reports whether the flags hold out training data to choose on.
func (p *protocolFlags) selects() bool { return p.folds > 1 || p.folds == 1 && p.validation > 0 }

// settings returns the learner's settings of the flags, under sem.
func (p *protocolFlags) settings(sem possibilistic.Semantics, seed uint64) learn.Settings {
	return learn.Settings{Iterations: p.iterations, Timeout: p.timeout, Candidates: p.candidates, Seed: seed,
		Threads: p.threads, Patience: p.patience, Semantics: sem}
}

// pruneShare returns learn.Protocol.PruneShare for --prune.
func (p *protocolFlags) pruneShare() float64 {
	if p.prune {
		return learn.DefaultPruneShare
	}
	return 0
}
