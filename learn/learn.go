package learn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Learn learns a theory from p under s and tells rec, which may be nil,
// what it does as it does it. It runs the whole learning protocol: with
// Settings.Folds it holds out parts of the training data by whole groups
// (Problem.Holdout), runs a validation run on each, chooses the number of
// iterations on their held-out curve by Settings.Rule (and with
// Settings.Prune the support a clause needs), and chooses among
// Problem.Alternatives; then it learns on all the training data with the
// chosen number of iterations (the final run, resumed from
// Settings.Resume when given), repeats it with other seeds
// (Settings.Restarts), prunes, and states Problem.Fallback below the
// learned levels. strata learn, the server, the benchmarks and the
// reproductions all learn through it.
//
// When ctx is done during the validation Learn returns ctx's error; during
// the final run or the pruning, the result of the last completed
// iteration, unpruned, with Stop StopCancelled (StopTimeout for ctx's
// deadline), whose checkpoint resumes it. It changes nothing it is given.
// Learn is NewPlan and Plan.Learn.
func Learn(ctx context.Context, p Problem, s Settings, rec Recorder) (*Result, error) {
	pl, err := NewPlan(p, s)
	if err != nil {
		return nil, err
	}
	return pl.Learn(ctx, rec)
}

// A Recorder is told what Learn does: every iteration of the validation
// runs and of the final runs, the choice, the start of the final run. Learn
// calls Record one event at a time, from the goroutines it runs; an event
// and what its methods return are valid during the call only.
type Recorder interface {
	Record(Event)
}

// RecorderFunc is a function as a Recorder.
type RecorderFunc func(Event)

// Record calls f(e).
func (f RecorderFunc) Record(e Event) { f(e) }

// EventKind says what an Event reports.
type EventKind int

// The kinds of events.
const (
	// EventValidation follows an iteration of a validation run: Fold of
	// Folds (from 0) of Alternative, its line of history in Iteration
	// (TestAccuracy: the held-out score).
	EventValidation EventKind = iota
	// EventChosen follows the validation: Selection is what it chose for
	// Alternative, the problem the final run learns (nil Selection:
	// nothing was chosen).
	EventChosen
	// EventFinal starts the final run: its iteration limit and time in
	// Iterations and Timeout (0: none), the history a resumed run had made
	// in History; Hypothesis is where it starts.
	EventFinal
	// EventIteration follows an iteration of final run Run (0: the first;
	// from 1, the restarts), its line of history in Iteration; Hypothesis
	// is the run's after it, and WriteCheckpoint writes the run's state
	// (of the first run: the one Settings.Resume continues).
	EventIteration
)

// Event is what Learn tells its Recorder.
type Event struct {
	Kind        EventKind
	Alternative int // the problem (0) or Problem.Alternatives[Alternative-1]
	Fold, Folds int // EventValidation
	Run         int // EventIteration
	Iteration   Iteration
	Selection   *Selection // EventChosen
	// Iterations and Timeout are the final run's limits (EventFinal; 0:
	// none).
	Iterations int
	Timeout    time.Duration
	History    []Iteration // EventFinal: a resumed run's iterations

	l      *Learner
	render func(*Hypothesis) *possibilistic.Theory
}

// Hypothesis returns the final run's hypothesis (EventFinal,
// EventIteration; nil otherwise), implied rules not removed.
func (e Event) Hypothesis() *Hypothesis {
	if e.l == nil {
		return nil
	}
	return e.l.Hypothesis()
}

// Theory returns Hypothesis as the problem writes it (Problem.Render), or
// nil.
func (e Event) Theory() *possibilistic.Theory {
	h := e.Hypothesis()
	if h == nil {
		return nil
	}
	return e.render(h)
}

// WriteCheckpoint writes the state of the final run (EventFinal,
// EventIteration) for Settings.Resume.
func (e Event) WriteCheckpoint(w io.Writer) error {
	if e.l == nil {
		return errors.New("learn: no final run to checkpoint")
	}
	return e.l.WriteCheckpoint(w)
}

// Result is what Learn learned.
type Result struct {
	// Hypothesis is the final run's (implied rules removed), pruned at the
	// chosen support, with Problem.Fallback below; Theory is it as the
	// problem writes it (Problem.Render), and TrainAccuracy its accuracy
	// on the training examples.
	Hypothesis    *Hypothesis
	Theory        *possibilistic.Theory
	TrainAccuracy float64
	Semantics     possibilistic.Semantics
	// Stop says why the final run whose hypothesis was kept ended, History
	// is its history, Iterations the final runs' iteration limit (0: none)
	// and Examples their training examples, counting multiplicities.
	Stop       Stop
	History    []Iteration
	Iterations int
	Examples   int
	// Elapsed is the learning time of the final runs; Total the time of
	// all of Learn, the validation included, from NewPlan on.
	Elapsed, Total time.Duration
	// Selection is what the validation chose for the problem learned; nil
	// without held-out parts, or when NoSelection says why none was made.
	Selection   *Selection
	NoSelection string
	// HeldOut names the held-out groups of the split (Split.Held).
	HeldOut []string
	// Alternative is the problem learned: 0 for the problem, k for
	// Problem.Alternatives[k-1]. Tried, with alternatives, holds the
	// validation of each, the problem first.
	Alternative int
	Tried       []Tried
	// Runs is the number of final runs (Settings.Restarts), Kept the one
	// whose hypothesis was kept (0: the first).
	Runs, Kept int
	// Pruning is what pruning did; nil without it, or when the final run
	// was interrupted.
	Pruning *Pruning

	first     *Learner // the first final run's, which a checkpoint resumes
	outOfTime bool     // a validation chose nothing for lack of time (Tried.OutOfTime)
}

// Tried is the validation of one of a problem's alternatives.
type Tried struct {
	Selection   *Selection // nil when the validation chose nothing
	NoSelection string     // why it chose nothing, when it did not
	// OutOfTime says that the validation chose nothing because the time
	// limit stopped a held-out part's run before its first iteration.
	OutOfTime bool
}

// TimeStopped reports whether the time limit ended some run of the
// protocol: a validation run (of any fold, of any alternative) or a final
// one. Its result is then the limit's as much as the learner's.
func (r *Result) TimeStopped() bool {
	if r.Stop == StopTimeout {
		return true
	}
	var stopped func(s *Selection) bool
	stopped = func(s *Selection) bool {
		return s != nil && (s.Stop == StopTimeout || slices.ContainsFunc(s.Folds, stopped))
	}
	if r.outOfTime || stopped(r.Selection) {
		return true
	}
	return slices.ContainsFunc(r.Tried, func(t Tried) bool { return t.OutOfTime || stopped(t.Selection) })
}

// WriteCheckpoint writes the state of the first final run, which
// Settings.Resume continues (a resumed run makes no restarts).
func (r *Result) WriteCheckpoint(w io.Writer) error { return r.first.WriteCheckpoint(w) }

// A Plan is a learning run checked and ready to learn: its settings
// validated, its held-out parts drawn, its checkpoint read. It lets an
// interface say what is wrong with a request before it starts the run.
// A plan is learned once.
type Plan struct {
	problems []Problem // the problem and its alternatives
	settings Settings
	proto    protocol  // without folds
	folds    [][]Fold  // each problem's held-out parts; nil without
	held     []string  // the held-out groups
	resumed  *Learner  // of Settings.Resume
	created  time.Time // when NewPlan began: drawing the held-out parts is Learn's time
	used     bool
	mu       sync.Mutex
}

// NewPlan checks that s has a meaning (Settings.Validate) and fits p, and
// draws the held-out parts. An error of the settings, or of settings that
// do not fit p (too few groups for the folds, a checkpoint of other data)
// is a *SettingsError naming the field.
func NewPlan(p Problem, s Settings) (*Plan, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	pl := &Plan{problems: append([]Problem{p}, p.Alternatives...), settings: s, proto: s.protocol(nil), created: time.Now()}
	for i := range pl.problems {
		if err := checkProblem(pl.problems[i]); err != nil {
			return nil, err
		}
		pl.problems[i].Alternatives = nil
	}
	if parts, share := s.Parts(); parts > 0 {
		field := s.heldOutField()
		for i, pr := range pl.problems {
			h := pr.Holdout
			if h == nil {
				h = ByAntecedent(pr.Train)
			}
			it := h.Items(parts)
			if it.Rand == nil {
				it.Rand = RandFor(pl.proto.Settings.Seed, ForValidationSplit)
			}
			split, err := SplitItems(it, parts, share)
			if err != nil {
				reason := fmt.Sprintf("{%s} %d", field, s.Folds)
				if field == "Validation" || parts == 1 {
					field, reason = "Validation", fmt.Sprintf("{Validation} %g", share)
				}
				return nil, &SettingsError{Field: field, Reason: reason, Err: err}
			}
			folds, err := h.Folds(split.held())
			if err != nil {
				return nil, err
			}
			if i == 0 {
				pl.held = split.Held
			}
			pl.folds = append(pl.folds, folds)
		}
	}
	if len(s.Resume) > 0 {
		l, err := resumeLearner(bytes.NewReader(s.Resume), pl.problems[0], pl.proto.Settings)
		if err != nil {
			return nil, &SettingsError{Field: "Resume", Reason: "{Resume}", Err: err}
		}
		pl.resumed = l
	}
	return pl, nil
}

// checkProblem refuses a problem that cannot be learned: no training
// examples, no vocabulary, contradictory hard rules.
func checkProblem(p Problem) error {
	switch {
	case p.Train == nil || len(p.Train.List) == 0:
		return errors.New("learn: no training examples")
	case p.Vocab == nil:
		return errors.New("learn: no vocabulary")
	}
	hardF := make([]*logic.Formula, len(p.Hard))
	for i, c := range p.Hard {
		hardF[i] = logic.ClauseF(c)
	}
	if err := CheckHard(p.Vocab, hardF); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

// Folds returns the held-out parts of the problem (not of its
// alternatives); nil when nothing is held out.
func (pl *Plan) Folds() []Fold {
	if pl.folds == nil {
		return nil
	}
	return pl.folds[0]
}

// HeldOut names the held-out groups of the problem's split: those of the
// one held-out part in the order they were drawn, or every group for
// folds (Split.Held).
func (pl *Plan) HeldOut() []string { return pl.held }

// Start returns the hypothesis the final run starts from and the
// iterations it has made: a resumed run's, or no learned level and no
// iteration.
func (pl *Plan) Start() (*Hypothesis, []Iteration) {
	if pl.resumed != nil {
		return pl.resumed.Hypothesis(), pl.resumed.History()
	}
	return &Hypothesis{Hard: pl.problems[0].Hard}, nil
}

// Theory writes h, a hypothesis of the problem, as the problem writes it
// (Problem.Render).
func (pl *Plan) Theory(h *Hypothesis) *possibilistic.Theory { return renderer(pl.problems[0])(h) }

// renderer returns how p writes a hypothesis.
func renderer(p Problem) func(*Hypothesis) *possibilistic.Theory {
	if p.Render != nil {
		return p.Render
	}
	return func(h *Hypothesis) *possibilistic.Theory { return WithHardRules(h.Theory(p.Vocab), p.HardRules) }
}

// Learn runs the plan (see Learn).
func (pl *Plan) Learn(ctx context.Context, rec Recorder) (*Result, error) {
	pl.mu.Lock()
	used := pl.used
	pl.used = true
	pl.mu.Unlock()
	if used {
		return nil, errors.New("learn: a plan is learned once")
	}
	start := pl.created
	record := serialise(rec)
	res := &Result{Semantics: pl.settings.Semantics, HeldOut: pl.held}
	best, sel, spent, err := pl.validate(ctx, record, res)
	if err != nil {
		return nil, err
	}
	p := pl.problems[best]
	proto := pl.proto
	if pl.folds != nil {
		proto.Folds = pl.folds[best]
	}
	record(Event{Kind: EventChosen, Alternative: best, Selection: sel})
	final := proto.final(sel)
	if t := pl.proto.Settings.Timeout; t > 0 {
		// What the validation left: its runs' learning time (more than
		// the time it took when folds ran at once), or the time since the
		// plan began (drawing and encoding the held-out parts, choosing
		// the support), whichever is longer.
		final.Timeout = max(t-max(spent, time.Since(start)), time.Second)
	}
	l := pl.resumed
	if l == nil {
		if l, err = newLearner(p, final, nil); err != nil {
			return nil, err
		}
	}
	render := renderer(p)
	record(Event{Kind: EventFinal, Alternative: best, Iterations: final.Iterations, Timeout: final.Timeout, History: l.History(), l: l, render: render})
	out, err := proto.finish(ctx, p, sel, l, func(k int, l *Learner, it Iteration) {
		record(Event{Kind: EventIteration, Alternative: best, Run: k, Iteration: it, l: l, render: render})
	})
	if err != nil {
		return nil, err
	}
	res.Hypothesis, res.Theory, res.TrainAccuracy = out.Hypothesis, render(out.Hypothesis), out.TrainAccuracy
	res.Stop, res.History, res.Iterations, res.Examples = out.Stop, out.Learner.History(), final.Iterations, p.Train.Total()
	res.Elapsed, res.Total = out.Elapsed, time.Since(start)
	res.Selection, res.Alternative, res.Runs, res.Kept, res.Pruning, res.first = sel, best, out.Runs, out.Kept, out.Pruning, l
	if len(pl.problems) == 1 {
		res.Tried = nil
	}
	return res, nil
}

// validate runs the validation of every problem of the plan and returns
// the one to learn (the first with the highest held-out score at its
// chosen iteration), its selection (nil: nothing was chosen) and the
// validation runs' learning time; it fills in res's Tried and
// NoSelection.
func (pl *Plan) validate(ctx context.Context, record func(Event), res *Result) (best int, sel *Selection, spent time.Duration, err error) {
	if pl.folds == nil {
		return 0, nil, 0, nil
	}
	n := len(pl.problems)
	for i, p := range pl.problems {
		proto := pl.proto
		proto.Folds = pl.folds[i]
		// Every problem's validation has an equal share of the time the
		// protocol gives validation.
		if proto.Settings.Timeout > 0 {
			// At least a nanosecond: a share of 0 would be no limit.
			proto.Settings.Timeout = max(proto.Settings.Timeout/time.Duration(n), 1)
		}
		k := len(proto.Folds)
		proto.OnValidation = func(fold int, it Iteration) {
			record(Event{Kind: EventValidation, Alternative: i, Fold: fold, Folds: k, Iteration: it})
		}
		vp := p
		if f := proto.Folds[0]; f.Vocab != nil {
			vp = Problem{Vocab: f.Vocab, Hard: f.Hard}
		}
		s, err := choose(ctx, vp, proto)
		tried := Tried{Selection: s}
		switch {
		case err != nil && ctx.Err() == nil && pl.proto.Settings.Timeout > 0 && errors.Is(err, errNoIteration):
			// A held-out part's share of the time did not finish one
			// iteration: there is no curve to choose on, and the final
			// run learns up to the iteration limit in the time left.
			tried.NoSelection = "a held-out part's share of the learning time did not finish one iteration"
			tried.Selection, s, tried.OutOfTime, res.outOfTime = nil, nil, true, true
		case err != nil:
			return 0, nil, 0, err
		}
		if s != nil {
			spent += s.Elapsed
		}
		res.Tried = append(res.Tried, tried)
		if i == 0 || s != nil && (sel == nil || s.ChosenAccuracy > sel.ChosenAccuracy) {
			best, sel, res.NoSelection = i, s, tried.NoSelection
		}
	}
	return best, sel, spent, nil
}

// serialise returns a function that records events with rec one at a
// time (nothing without rec).
func serialise(rec Recorder) func(Event) {
	if rec == nil {
		return func(Event) {}
	}
	var mu sync.Mutex
	return func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		rec.Record(e)
	}
}
