package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
)

// protocolFlags are the flags of learn.Settings that strata learn, bench
// crowd, bench map and bench tabular share. Each is defined here once, so
// that it means the same in every command, and the same as the server's
// JSON field of that name (an underscore for the dash): a zero has no
// effect (no limit, never, nothing held out), --candidates 0 and --threads
// 0 mean the default, a negative value is an error. settingFlags maps each
// to its field; the library checks what they mean together.
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
	atMost(fl, "validation", 1, true)
	if d.validationPatience == 0 {
		d.validationPatience = learn.DefaultValidationPatience
	}
	fl.IntVar(&p.validationPatience, "validation-patience", d.validationPatience, "stop a validation run after this many iterations without a better held-out score (0: never)")
	fl.StringVar(&p.choose, "choose", d.rule.String(), "how the number of iterations is chosen on the held-out score: one-se (the smallest within one standard error of the best), best, or paired (the smallest within one standard error of its paired difference from the best)")
	fl.IntVar(&p.restarts, "restarts", learn.DefaultRestarts, "after the held-out data chose the iterations, learn the final theory this many times with other seeds, within the iteration limit, and keep the one most accurate on the training data (0 or 1: once)")
	fl.BoolVar(&p.prune, "prune", false, "also choose on the held-out data how many training examples a clause must be needed by, and prune the final theory of the clauses needed by fewer")
}

// A settingFlag is a flag of a field of learn.Settings: field names the
// field as the library's errors do (learn.SettingsError), set sets it from
// the flag's value, and lib returns the library's default of the field
// (learn.Settings.Defaulted) as the flag writes it.
type settingFlag struct {
	flag, field string
	set         func(p *protocolFlags, s *learn.Settings) error
	lib         func(d learn.Settings) any
}

// settingFlags is the one table of the protocol flags: which field of
// learn.Settings each sets, and how. A count whose zero is the library's
// default is set as it is; a limit or a share whose flag says 0 for none
// is set to the library's none for 0 (zeroIsNone), and --restarts 0 is
// one run.
var settingFlags = []settingFlag{
	{"iterations", "Iterations", func(p *protocolFlags, s *learn.Settings) (err error) {
		s.Iterations, err = zeroIsNone("iterations", p.iterations, "no limit")
		return err
	}, func(d learn.Settings) any { return d.Iterations }},
	{"timeout", "Timeout", func(p *protocolFlags, s *learn.Settings) error { s.Timeout = p.timeout; return nil },
		func(d learn.Settings) any { return d.Timeout }},
	{"candidates", "Candidates", func(p *protocolFlags, s *learn.Settings) error { s.Candidates = p.candidates; return nil },
		func(d learn.Settings) any { return d.Candidates }},
	{"patience", "Patience", func(p *protocolFlags, s *learn.Settings) (err error) {
		s.Patience, err = zeroIsNone("patience", p.patience, "never")
		return err
	}, func(d learn.Settings) any { return d.Patience }},
	{"threads", "Threads", func(p *protocolFlags, s *learn.Settings) error { s.Threads = p.threads; return nil },
		func(learn.Settings) any { return 0 }},
	{"folds", "Folds", func(p *protocolFlags, s *learn.Settings) error { s.Folds = p.folds; return nil },
		func(d learn.Settings) any { return d.Folds }},
	{"validation", "Validation", func(p *protocolFlags, s *learn.Settings) error {
		if !(p.validation >= 0 && p.validation < 1) {
			return fmt.Errorf("--validation %g: give a share between 0 and 1 (0: none)", p.validation)
		}
		s.Validation = p.validation
		if p.validation == 0 {
			s.Validation = learn.None
		}
		return nil
	}, func(learn.Settings) any { return learn.DefaultValidation }},
	{"validation-patience", "ValidationPatience", func(p *protocolFlags, s *learn.Settings) (err error) {
		s.ValidationPatience, err = zeroIsNone("validation-patience", p.validationPatience, "never")
		return err
	}, func(d learn.Settings) any { return d.ValidationPatience }},
	{"choose", "Rule", func(p *protocolFlags, s *learn.Settings) (err error) {
		if s.Rule, err = learn.ParseRule(p.choose); err != nil {
			return fmt.Errorf("--choose %q: give one-se, best or paired", p.choose)
		}
		return nil
	}, func(d learn.Settings) any { return d.Rule }},
	{"restarts", "Restarts", func(p *protocolFlags, s *learn.Settings) error {
		if p.restarts < 0 {
			return fmt.Errorf("--restarts %d: give a positive number, or 0 for one run", p.restarts)
		}
		s.Restarts = max(p.restarts, 1)
		return nil
	}, func(d learn.Settings) any { return d.Restarts }},
	{"prune", "Prune", func(p *protocolFlags, s *learn.Settings) error { s.Prune = p.prune; return nil },
		func(d learn.Settings) any { return d.Prune }},
}

// zeroIsNone returns the value of a field of learn.Settings whose flag
// gives 0 for none: learn.None (NoLimit, Never) for 0, and an error for a
// negative value.
func zeroIsNone(flag string, v int, none string) (int, error) {
	switch {
	case v < 0:
		return 0, fmt.Errorf("--%s %d: give a positive number, or 0 for %s", flag, v, none)
	case v == 0:
		return learn.None, nil
	}
	return v, nil
}

// settings sets the fields of s that the protocol flags of fl say. A flag
// not given whose default is the library's leaves its field zero, so that
// the library's zero value decides it (and --validation's default share
// does not meet --folds K).
func (p *protocolFlags) settings(fl *pflag.FlagSet, s *learn.Settings) error {
	def := learn.Settings{}.Defaulted()
	for _, sf := range settingFlags {
		if f := fl.Lookup(sf.flag); !f.Changed && f.DefValue == fmt.Sprint(sf.lib(def)) {
			continue
		}
		if err := sf.set(p, s); err != nil {
			return err
		}
	}
	return nil
}

// apply sets the protocol flags of fl in a reproduction's settings; with
// --quick and no --iterations, the quick run's own limit.
func (p *protocolFlags) apply(fl *pflag.FlagSet, s *experiment.Settings) error {
	if err := p.settings(fl, &s.Learning); err != nil {
		return err
	}
	if s.Quick && !fl.Changed("iterations") {
		s.Learning.Iterations = 0
	}
	return nil
}

// selects reports whether the flags hold out training data to choose on.
func (p *protocolFlags) selects() bool { return p.folds > 1 || p.folds == 1 && p.validation > 0 }

// flagName names the flag of a field of learn.Settings, for the library's
// errors (learn.SettingsError.Explain).
func flagName(field string) string {
	for _, sf := range settingFlags {
		if sf.field == field {
			return "--" + sf.flag
		}
	}
	switch field {
	case "Resume":
		return "--resume"
	case "Seed":
		return "--seed"
	case "Semantics":
		return "--semantics"
	case "Grow":
		return "--grow"
	case "Tally":
		return "--tally"
	case "Variants":
		return "--variants"
	case "Specialise":
		return "--specialise"
	}
	return field
}

// settingsError says err, an error of learn.Settings, in the flags'
// words: a usage error when the settings alone are at fault, a plain one
// when they do not fit the data (too few groups for the folds).
func settingsError(err error) error {
	var se *learn.SettingsError
	if !errors.As(err, &se) {
		return err
	}
	msg := se.Explain(flagName)
	if se.Err != nil {
		return fmt.Errorf("%s: %w", msg, se.Err)
	}
	return usageError{errors.New(msg)}
}
