package learn

import (
	"fmt"
	"math"
	"regexp"
	"runtime"
	"time"

	"github.com/strata-logic/strata/possibilistic"
)

// Settings say how Learn learns: how each run of the heuristic learner
// learns, and the protocol around the runs (the held-out parts the number
// of iterations is chosen on, the rule of choice, restarts, pruning). The
// zero value is the documented default, strata learn with no flags: at
// most DefaultIterations iterations of DefaultCandidates candidates,
// stopping after DefaultPatience iterations that improve nothing, under
// poss, with seed DefaultSeed, nothing held out. A zero field is the
// default named beside it; where the default is a limit, NoLimit or Never
// asks for none. Validate says what has no meaning, as a *SettingsError
// naming the field.
//
// Every field is a plain value, so that a caller in another language can
// fill it in.
type Settings struct {
	// Iterations bounds each learning run (0: DefaultIterations; NoLimit:
	// no limit).
	Iterations int
	// Timeout bounds the learning time of the whole of Learn, the
	// validation included: the validation runs share 40% of it (one
	// held-out part) or 60% (folds), and the final run has what they leave
	// (at least a second). 0: no limit.
	Timeout time.Duration
	// Candidates is the number of candidate clauses sampled per iteration
	// (0: DefaultCandidates).
	Candidates int
	// Seed fixes every random draw: the same seed gives the same theory
	// for any Threads (0: DefaultSeed).
	Seed uint64
	// Threads is the number of workers (0: GOMAXPROCS, the CPUs the
	// process may use).
	Threads int
	// Patience stops a run after this many consecutive iterations that
	// improve nothing on its training examples (0: DefaultPatience; Never:
	// never).
	Patience int
	// Semantics decides coverage: Poss (the zero value, the paper's),
	// Linear or Lex.
	Semantics possibilistic.Semantics
	// Specialise is how many literals the learner may add to the chosen
	// candidate of an iteration before minimising it (0: none). A
	// candidate ¬α' ∨ β' is drawn from a misclassified default α |~ β with
	// α' a random subset of α; specialising adds the negation of one more
	// literal of that α, the one that raises the training score most, as
	// long as one does. An exception to a general rule needs a specific
	// antecedent, which random subsets reach rarely.
	Specialise int
	// Grow is how many of an iteration's sampled defaults also give a
	// candidate grown by information gain, as FOIL and RIPPER grow a rule:
	// the literals of its α that best separate the examples the clause
	// makes right from those it makes wrong, one at a time. The learner
	// scores them with the sampled ones and keeps the best. 0: none, or
	// for a table's problem table.DefaultGrow; None: none.
	Grow int
	// Tally, under lex, also scores as a candidate a new lowest level of
	// one-literal rules "l → answer" that vote: lex prefers the answer
	// that the fewest rules whose antecedent holds speak against, a
	// majority no single clause writes. It has no effect under poss and
	// linear, which drown or set aside such a level whole. SwitchDefault:
	// off, or on for a table's problem.
	Tally Switch

	// Folds chooses the number of iterations on held-out parts of the
	// training data, split by whole groups (Problem.Holdout): 2 or more by
	// cross-validation on that many folds, whose held-out scores are
	// pooled iteration by iteration; 1 on one held-out part of
	// Validation's share; 0 not at all, unless Validation is given (a
	// held-out share alone means one part). The theory is then learned on
	// all the training data with the chosen number of iterations.
	Folds int
	// Validation is the share of the training data one held-out part
	// holds out (0: DefaultValidation; None: nothing, so nothing is
	// chosen). Given with Folds 0 it means Folds 1; it has no meaning with
	// 2 or more folds.
	Validation float64
	// ValidationPatience stops a validation run this many iterations
	// after its held-out score last improved (0:
	// DefaultValidationPatience; Never: only at the limits of the run).
	ValidationPatience int
	// Rule chooses the number of iterations on the held-out curve: the
	// zero value, OneStandardError, BestScore or Paired.
	Rule Rule
	// Restarts, after a validation chose the iterations, repeats the
	// final run with other seeds, this many runs in all within the
	// iteration limit, and keeps the hypothesis with the best training
	// score (0: DefaultRestarts; 1: one run).
	Restarts int
	// Prune turns on reduced-support pruning: the hypothesis of the chosen
	// iteration of every fold is pruned at the support thresholds 0, 1, 2,
	// 3, 5, 8, … training examples up to PruneShare of the fold's training
	// weight, the highest threshold whose held-out score is within one
	// standard error of the best is kept, and the final hypothesis loses
	// the clauses that at most that share of all the training examples
	// need. It chooses on held-out data, so it needs Folds or Validation.
	Prune bool
	// PruneShare is the highest support pruning tries, as a share of the
	// training weight (0: DefaultPruneShare).
	PruneShare float64
	// Parallel bounds the folds that run at once (0: as many as Threads
	// allow, each with an equal share of them; 1: one after the other).
	// The choice does not depend on it, unless a fold runs out of time.
	Parallel int

	// Resume, if not empty, is a checkpoint of the final run
	// (Result.Checkpoint, Event.WriteCheckpoint) to continue from, on the
	// same training data, hard rules and semantics: the run ends with the
	// theory of a run that was never stopped. A resumed run chooses
	// nothing (Folds and Validation do not go with it).
	Resume []byte

	// general decides coverage with the general engine of the semantics
	// even where the complete engine applies: the differential tests'
	// other side (export_test.go).
	general bool
}

// The defaults of Settings' zero fields.
const (
	DefaultIterations = 100
	DefaultCandidates = 100
	DefaultPatience   = 5
	DefaultSeed       = 1
	// DefaultValidation is the share of the training data that one
	// held-out part holds out.
	DefaultValidation = 0.3
	// DefaultValidationPatience is how many iterations a validation run
	// goes on after its held-out score last improved: enough for the
	// score to rise again after a plateau, which it often does when a
	// clause opens the way for exceptions.
	DefaultValidationPatience = 60
	// DefaultRestarts is the number of final runs after a validation.
	DefaultRestarts = 5
	// DefaultPruneShare is the highest support that pruning tries, as a
	// share of the training weight.
	DefaultPruneShare = 0.01
)

// NoLimit, Never and None ask for no limit, never and none in a field of
// Settings whose zero value is a default: Iterations, Patience,
// ValidationPatience, Grow and Validation.
const (
	NoLimit = -1
	Never   = -1
	None    = -1
)

// A Switch turns a feature of Settings on or off, or leaves it to its
// default (the zero value).
type Switch int8

// The positions of a Switch.
const (
	SwitchDefault Switch = iota
	SwitchOn
	SwitchOff
)

// SwitchOf returns the position of a switch set to on.
func SwitchOf(on bool) Switch {
	if on {
		return SwitchOn
	}
	return SwitchOff
}

// on reports whether s is on, def being its default.
func (s Switch) on(def bool) bool { return s == SwitchOn || s == SwitchDefault && def }

// A SettingsError says which field of Settings has no meaning, and why.
// Interfaces that offer the settings under other names (a flag, a JSON
// field) say it in their own words with Explain.
type SettingsError struct {
	// Field is the field at fault as Go spells it ("Iterations",
	// "Validation").
	Field string
	// Reason says what is wrong, naming every field it mentions in braces
	// ("{Prune} chooses its threshold on held-out data"); Explain names
	// them.
	Reason string
	// Err is the cause, when the settings do not fit the problem (too few
	// groups to hold out: ErrTooFew).
	Err error
}

// fieldRef matches a field's name in braces in a SettingsError's Reason.
var fieldRef = regexp.MustCompile(`\{[A-Za-z]+\}`)

// Explain says what is wrong, with every field named as name names it.
func (e *SettingsError) Explain(name func(field string) string) string {
	return fieldRef.ReplaceAllStringFunc(e.Reason, func(ref string) string { return name(ref[1 : len(ref)-1]) })
}

func (e *SettingsError) Error() string {
	return "learn: " + e.Explain(func(f string) string { return f })
}

func (e *SettingsError) Unwrap() error { return e.Err }

// settingsError returns the error of field, its reason format's verbs
// filled in from args.
func settingsError(field, format string, args ...any) *SettingsError {
	return &SettingsError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Validate returns a *SettingsError for the first field of s that has no
// meaning, or for the first rule between fields that s breaks: a number
// of folds with a held-out share, pruning without held-out data,
// resuming a run that would choose its iterations.
func (s Settings) Validate() error {
	count := func(field string, v int, zero string) error {
		if v < 0 {
			return settingsError(field, "{%s} %d: give a positive number, or 0 for %s", field, v, zero)
		}
		return nil
	}
	limit := func(field string, v int, zero, none string) error {
		if v < 0 && v != NoLimit {
			return settingsError(field, "{%s} %d: give a positive number, 0 for %s or -1 for %s", field, v, zero, none)
		}
		return nil
	}
	if s.Folds < 0 {
		return settingsError("Folds", "{Folds} %d: give 2 or more for cross-validation, 1 for one held-out part, 0 for none", s.Folds)
	}
	for _, err := range []error{
		limit("Iterations", s.Iterations, fmt.Sprintf("the default (%d)", DefaultIterations), "no limit"),
		count("Candidates", s.Candidates, fmt.Sprintf("the default (%d)", DefaultCandidates)),
		count("Threads", s.Threads, "one per CPU"),
		limit("Patience", s.Patience, fmt.Sprintf("the default (%d)", DefaultPatience), "never"),
		count("Specialise", s.Specialise, "none"),
		limit("Grow", s.Grow, "the default", "none"),
		limit("ValidationPatience", s.ValidationPatience, fmt.Sprintf("the default (%d)", DefaultValidationPatience), "never"),
		count("Restarts", s.Restarts, fmt.Sprintf("the default (%d)", DefaultRestarts)),
		count("Parallel", s.Parallel, "as the threads allow"),
	} {
		if err != nil {
			return err
		}
	}
	switch {
	case s.Timeout < 0:
		return settingsError("Timeout", "{Timeout} %v: give a positive duration, or 0 for no limit", s.Timeout)
	case s.Semantics > possibilistic.Lex:
		return settingsError("Semantics", "{Semantics} %d: give poss, linear or lex", int(s.Semantics))
	case s.Tally > SwitchOff:
		return settingsError("Tally", "{Tally} %d: give on, off or the default", int(s.Tally))
	case !(s.Validation >= 0 && s.Validation < 1) && s.Validation != None:
		return settingsError("Validation", "{Validation} %g: give a share between 0 and 1 (0: the default, %g)", s.Validation, DefaultValidation)
	case s.Rule != OneStandardError && s.Rule != BestScore && s.Rule != Paired:
		return settingsError("Rule", "{Rule} %d: give one-se, best or paired", int(s.Rule))
	case !(s.PruneShare >= 0 && s.PruneShare < 1):
		return settingsError("PruneShare", "{PruneShare} %g: give a share between 0 and 1 (0: the default, %g)", s.PruneShare, DefaultPruneShare)
	case s.Folds > 1 && s.Validation > 0:
		return settingsError("Folds", "{Validation} is the share of one held-out part and {Folds} %d cross-validates: give one of them", s.Folds)
	}
	held := s.heldOutField()
	switch {
	case s.Prune && held == "":
		return settingsError("Prune", "{Prune} chooses its threshold on held-out data: give {Folds} or {Validation} too")
	case len(s.Resume) > 0 && held != "":
		return settingsError(held, "{Folds} and {Validation} choose the iterations of a new run; they do not combine with {Resume}")
	}
	return nil
}

// heldOutField names the field that holds out training data to choose on
// ("Folds", or "Validation" for a share alone), or "" when nothing is.
func (s Settings) heldOutField() string {
	switch {
	case s.Folds > 1:
		return "Folds"
	case s.Folds == 1 && s.Validation != None:
		return "Folds"
	case s.Folds == 0 && s.Validation > 0:
		return "Validation"
	}
	return ""
}

// Defaulted returns s with every zero field that has a default replaced
// by it (DefaultIterations, DefaultCandidates, DefaultPatience,
// DefaultSeed, the held-out share, DefaultValidationPatience,
// DefaultRestarts, DefaultPruneShare, the threads of GOMAXPROCS); the
// fields that ask for none (NoLimit, Never, None) stay so. It is what a
// report says a run learned with.
func (s Settings) Defaulted() Settings {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&s.Iterations, DefaultIterations)
	def(&s.Candidates, DefaultCandidates)
	def(&s.Patience, DefaultPatience)
	def(&s.ValidationPatience, DefaultValidationPatience)
	def(&s.Restarts, DefaultRestarts)
	def(&s.Threads, runtime.GOMAXPROCS(0))
	s.Seed = s.SeedOrDefault()
	parts, share := s.Parts()
	s.Folds = parts
	if parts == 1 {
		s.Validation = share
	}
	if s.PruneShare == 0 {
		s.PruneShare = DefaultPruneShare
	}
	return s
}

// SeedOrDefault returns the seed of s's draws: Seed, or DefaultSeed for 0.
func (s Settings) SeedOrDefault() uint64 {
	if s.Seed == 0 {
		return DefaultSeed
	}
	return s.Seed
}

// Parts returns the held-out parts s asks for: 0 (nothing held out), 1 or
// the number of folds, and the share one part holds out.
func (s Settings) Parts() (parts int, share float64) {
	share = s.Validation
	if share == 0 {
		share = DefaultValidation
	}
	switch s.heldOutField() {
	case "":
		return 0, 0
	case "Validation":
		return 1, share
	}
	if s.Folds == 1 {
		return 1, share
	}
	return s.Folds, 0
}

// The learner's own settings: what one run learns with, every default
// applied. A zero field has no effect (no limit, no patience); Candidates
// and Threads are never zero once resolved (resolve).
type config struct {
	Iterations int           // at most this many iterations (0: no limit)
	Timeout    time.Duration // stop after this much learning time (0: no limit)
	Candidates int           // candidate clauses sampled per iteration (0: DefaultCandidates)
	Seed       uint64        // the same seed gives the same theory for any Threads
	Threads    int           // workers (0: GOMAXPROCS)
	Patience   int           // stop after this many iterations that improve nothing (0: never)
	Semantics  possibilistic.Semantics
	Specialise int  // Settings.Specialise
	Grow       int  // Settings.Grow
	Tally      bool // Settings.Tally

	// general decides coverage with the general engine of the semantics
	// even where the complete engine applies: the differential tests'
	// other side (export_test.go).
	general bool
}

// learner returns the settings of one learning run of s: the defaults of
// its zero fields applied, the limits it asks none of zero.
func (s Settings) learner() config {
	c := config{Iterations: s.Iterations, Timeout: s.Timeout, Candidates: s.Candidates, Seed: s.Seed, Threads: s.Threads,
		Patience: s.Patience, Semantics: s.Semantics, Specialise: s.Specialise, Grow: max(s.Grow, 0), Tally: s.Tally.on(false), general: s.general}
	switch c.Iterations {
	case 0:
		c.Iterations = DefaultIterations
	case NoLimit:
		c.Iterations = 0
	}
	switch c.Patience {
	case 0:
		c.Patience = DefaultPatience
	case Never:
		c.Patience = 0
	}
	c.Seed = s.SeedOrDefault()
	c.defaults()
	return c
}

// protocol returns the protocol of s on the held-out parts folds, every
// default applied.
func (s Settings) protocol(folds []Fold) protocol {
	p := protocol{Settings: s.learner(), Folds: folds, Rule: s.Rule, Restarts: s.Restarts, Parallel: s.Parallel}
	switch s.ValidationPatience {
	case 0:
		p.ValidationPatience = DefaultValidationPatience
	case Never:
	default:
		p.ValidationPatience = s.ValidationPatience
	}
	if p.Restarts == 0 {
		p.Restarts = DefaultRestarts
	}
	if s.Prune {
		p.PruneShare = s.PruneShare
		if p.PruneShare == 0 {
			p.PruneShare = DefaultPruneShare
		}
	}
	return p
}

// check refuses settings that have no meaning.
func (o *config) check() error {
	switch {
	case o.Iterations < 0:
		return fmt.Errorf("learn: %d iterations: the number cannot be negative (0: no limit)", o.Iterations)
	case o.Candidates < 0:
		return fmt.Errorf("learn: %d candidates: the number cannot be negative (0: the default, %d)", o.Candidates, DefaultCandidates)
	case o.Timeout < 0:
		return fmt.Errorf("learn: timeout %v: it cannot be negative (0: no limit)", o.Timeout)
	case o.Threads < 0:
		return fmt.Errorf("learn: %d threads: the number cannot be negative (0: one per CPU)", o.Threads)
	case o.Specialise < 0:
		return fmt.Errorf("learn: specialise %d: the number cannot be negative (0: never)", o.Specialise)
	case o.Grow < 0:
		return fmt.Errorf("learn: grow %d: the number cannot be negative (0: none)", o.Grow)
	case o.Patience < 0:
		return fmt.Errorf("learn: patience %d: it cannot be negative (0: never stop for it)", o.Patience)
	case o.Semantics > possibilistic.Lex:
		return fmt.Errorf("learn: invalid semantics %d", o.Semantics)
	}
	return nil
}

func (o *config) defaults() {
	if o.Candidates == 0 {
		o.Candidates = DefaultCandidates
	}
	o.Threads = threadsOf(*o)
}

// threadsOf returns the workers a learner with settings s uses: the CPUs
// this process may use (a container's limit, go test -cpu), not the
// machine's, unless s says.
func threadsOf(s config) int {
	if s.Threads > 0 {
		return s.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// finite reports whether x is a number (neither NaN nor infinite), for the
// JSON of a field that may not be.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
