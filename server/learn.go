package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Run states.
const (
	stateRunning   = "running"
	stateDone      = "done"
	stateCancelled = "cancelled"
	stateFailed    = "failed"
)

// learnRequest starts a learning run with the options of strata learn. A
// setting means what strata learn's flag of that name means (an underscore
// for the dash): a zero has no effect (no limit, never, nothing held out),
// candidates 0 means the default, a negative value is an error. An absent
// field takes the flag's default, but for threads: 1 on a shared server
// (0: all its CPUs).
type learnRequest struct {
	examples
	tableRequest         // a table instead of examples (learn_table.go)
	Name         string  `json:"name"`
	Iterations   *int    `json:"iterations"`
	Candidates   int     `json:"candidates"`
	Patience     *int    `json:"patience"`
	Threads      *int    `json:"threads"`
	Seed         *uint64 `json:"seed"`
	Timeout      string  `json:"timeout"` // a Go duration, e.g. "30s"; empty: none
	// Semantics under which the learned theory covers a default: poss
	// (the default), linear or lex, as strata learn --semantics.
	Semantics string `json:"semantics"`
	// Resume continues the run of this id from the checkpoint that Close
	// wrote to Config.CheckpointDir (or that GET …/checkpoint gave, sent
	// as Checkpoint), on the same examples.
	Resume     string          `json:"resume"`
	Checkpoint json.RawMessage `json:"checkpoint"`
	// Folds chooses the number of iterations on training examples held
	// out by antecedent (2 or more: by cross-validation on that many
	// folds; 1: on one held-out part of share Validation; 0: not at all),
	// ValidationPatience stops a validation run, and Prune (with a choice)
	// chooses the support a clause needs, as strata learn --folds,
	// --validation, --validation-patience and --prune; a Validation given
	// without Folds means Folds 1.
	Folds              *int     `json:"folds"`
	Validation         *float64 `json:"validation"`
	ValidationPatience *int     `json:"validation_patience"`
	Prune              bool     `json:"prune"`
	// Choose and Restarts are strata learn's --choose (one-se, the
	// default, best or paired) and --restarts.
	Choose   string `json:"choose"`
	Restarts *int   `json:"restarts"`
}

// protocol returns the learning protocol of a valid request (its Folds
// still to be drawn from the examples) and the number of folds.
func (req *learnRequest) protocol() (learn.Protocol, int, error) {
	or := func(p *int, d int) int {
		if p == nil {
			return d
		}
		return *p
	}
	s := learn.Settings{Iterations: or(req.Iterations, learn.DefaultIterations), Candidates: req.Candidates,
		Patience: or(req.Patience, learn.DefaultPatience), Threads: or(req.Threads, 1), Seed: 1}
	if req.Seed != nil {
		s.Seed = *req.Seed
	}
	s.Threads = min(s.Threads, runtime.GOMAXPROCS(0))
	if s.Threads == 0 {
		s.Threads = runtime.GOMAXPROCS(0)
	}
	if req.Semantics != "" {
		sem, err := theorySemantics(req.Semantics)
		if err != nil {
			return learn.Protocol{}, 0, err
		}
		s.Semantics = sem
	}
	if req.Timeout != "" {
		d, err := time.ParseDuration(req.Timeout)
		if err != nil || d < 0 {
			return learn.Protocol{}, 0, badRequest("timeout", "timeout %q: want a duration such as 30s or 5m", req.Timeout)
		}
		s.Timeout = d
	}
	folds := or(req.Folds, 0)
	if req.Folds == nil && req.Validation != nil {
		folds = 1
	}
	validation := learn.DefaultValidation
	if req.Validation != nil {
		validation = *req.Validation
	}
	proto := learn.Protocol{Settings: s, ValidationPatience: or(req.ValidationPatience, learn.DefaultValidationPatience),
		Restarts: or(req.Restarts, learn.DefaultRestarts)}
	if req.Choose != "" {
		r, err := learn.ParseRule(req.Choose)
		if err != nil {
			return proto, 0, badRequest("choose", "choose %q: give one-se, best or paired", req.Choose)
		}
		proto.Rule = r
	}
	selects := folds > 1 || folds == 1 && validation > 0
	resumes := req.Resume != "" || len(req.Checkpoint) > 0
	switch {
	case s.Iterations < 0 || s.Candidates < 0 || s.Patience < 0 || s.Threads < 0:
		field := map[bool]string{true: "iterations", false: "candidates"}[s.Iterations < 0]
		if s.Patience < 0 {
			field = "patience"
		} else if s.Threads < 0 {
			field = "threads"
		}
		return proto, 0, badRequest(field, "%s must not be negative (0: no limit, the default, never or all CPUs)", field)
	case !(validation >= 0 && validation < 1):
		return proto, 0, badRequest("validation", "validation %g: give a share between 0 and 1 (0: none)", validation)
	case folds < 0:
		return proto, 0, badRequest("folds", "folds %d: give 2 or more for cross-validation, 1 for one held-out part, 0 for none", folds)
	case proto.Restarts < 0:
		return proto, 0, badRequest("restarts", "restarts %d: give a positive number, or 0 for one run", proto.Restarts)
	case proto.ValidationPatience < 0:
		return proto, 0, badRequest("validation_patience", "validation_patience %d: give a positive number, or 0 for never", proto.ValidationPatience)
	case folds > 1 && req.Validation != nil && validation > 0:
		return proto, 0, badRequest("folds", "validation is the share of one held-out part and folds %d cross-validates: give one of them", folds)
	case req.Prune && !selects:
		return proto, 0, badRequest("prune", "prune chooses its threshold on held-out examples: give validation or folds too")
	case selects && resumes:
		field := "validation"
		if folds > 1 {
			field = "folds"
		}
		return proto, 0, badRequest(field, "%s chooses the iterations of a new run; it does not combine with resume", field)
	}
	if req.Prune {
		proto.PruneShare = learn.DefaultPruneShare
	}
	if !selects {
		folds = 0
	}
	return proto, folds, nil
}

// runID matches the ids of runs, so that a resumed id names a file in
// Config.CheckpointDir and nothing else.
var runID = regexp.MustCompile(`^r-[0-9a-f]{16}$`)

// checkpoint returns the checkpoint a request resumes from, or nil.
func (s *Server) checkpoint(req learnRequest) ([]byte, error) {
	switch {
	case req.Resume != "" && len(req.Checkpoint) > 0:
		return nil, badRequest("resume", "give resume or checkpoint, not both")
	case len(req.Checkpoint) > 0:
		return req.Checkpoint, nil
	case req.Resume == "":
		return nil, nil
	case !runID.MatchString(req.Resume):
		return nil, badRequest("resume", "resume %q is not a run id", req.Resume)
	case s.cfg.CheckpointDir == "":
		return nil, badRequest("resume", "this server keeps no checkpoints: it was started without a checkpoint directory")
	}
	data, err := os.ReadFile(filepath.Join(s.cfg.CheckpointDir, req.Resume+".checkpoint.json"))
	if err != nil {
		return nil, notFound("no checkpoint of run %s", req.Resume)
	}
	return data, nil
}

// run is one learning run. The learner belongs to the goroutine that runs
// it; every other goroutine reads the snapshots below, which that goroutine
// takes after each iteration.
type run struct {
	id, name string
	cancel   context.CancelFunc
	started  time.Time

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced at every change
	state      string
	stop       string
	err        string
	hist       []learn.Iteration
	theory     string // the best model so far, in the text format
	checkpoint []byte // the learner's state when it stopped
	// checkpointErr is the error writing the checkpoint at shutdown.
	checkpointErr error
	finished      chan struct{}
	val           *validation // nil without a validation phase
	// train and test are the run's examples (test nil without), over a
	// copy of its vocabulary taken when it started: they never change.
	train, test *runExamples
	// score scores the final theory of a run on a table class by class
	// (nil for a run on examples), into confusion.
	score     *tableScore
	confusion *confusionView
	// finalRuns and keptRun are the final run's restarts (learn.Outcome's
	// Runs and Kept + 1), once it has ended; the history is the first
	// final run's.
	finalRuns, keptRun int
	// render writes a hypothesis as the run's theory: as it is, or for a
	// table with the hard rules a person reads (table.Encoding.Theory).
	render func(*learn.Hypothesis) *possibilistic.Theory
}

// examples returns the run's training and test examples (test nil
// without).
func (r *run) examples() (train, test *runExamples) { return r.train, r.test }

// iterationView is learn.Iteration for JSON: the test accuracy is null
// without a test set (JSON has no NaN).
type iterationView struct {
	Iteration     int      `json:"iteration"`
	TrainAccuracy float64  `json:"train_accuracy"`
	TestAccuracy  *float64 `json:"test_accuracy"`
	Rules         int      `json:"rules"`
	Levels        int      `json:"levels"`
	Literals      int      `json:"literals"`
	ElapsedMS     float64  `json:"elapsed_ms"`
	Improved      bool     `json:"improved"`
}

func viewIteration(it learn.Iteration) iterationView {
	v := iterationView{Iteration: it.Iteration, TrainAccuracy: it.TrainAccuracy, Rules: it.Rules, Levels: it.Levels,
		Literals: it.Literals, ElapsedMS: float64(it.Elapsed) / float64(time.Millisecond), Improved: it.Improved}
	if !math.IsNaN(it.TestAccuracy) {
		t := it.TestAccuracy
		v.TestAccuracy = &t
	}
	return v
}

type runView struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	State     string          `json:"state"`
	Stop      string          `json:"stop,omitempty"`
	Error     string          `json:"error,omitempty"`
	Started   time.Time       `json:"started"`
	History   []iterationView `json:"history"`
	Theory    string          `json:"theory"`
	Positive  int             `json:"positive,omitempty"`
	Negative  int             `json:"negative,omitempty"`
	TestTotal int             `json:"test_examples,omitempty"`
	// Validation is the phase that chose the iterations, when asked for.
	Validation *validationView `json:"validation,omitempty"`
	// Confusion, for a run on a table once it has ended, is the final
	// theory's answers for the table's rows, class by class.
	Confusion *confusionView `json:"confusion,omitempty"`
	// FinalRuns is the number of final runs (restarts), KeptRun the one
	// whose theory the run ends with, from 1; History is the first's.
	// Both are absent until the run ends.
	FinalRuns int `json:"final_runs,omitempty"`
	KeptRun   int `json:"kept_run,omitempty"`
}

func (r *run) view() *runView {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.viewLocked()
}

// viewLocked is view for a caller that holds r.mu, or that alone knows the
// run (before it is registered and started).
func (r *run) viewLocked() *runView {
	v := &runView{ID: r.id, Name: r.name, State: r.state, Stop: r.stop, Error: r.err, Started: r.started,
		History: viewHistory(r.hist), Theory: r.theory, Confusion: r.confusion, FinalRuns: r.finalRuns, KeptRun: r.keptRun}
	if r.val != nil {
		v.Validation = r.val.view()
	}
	return v
}

// viewHistory returns hist for JSON (an empty list, never null).
func viewHistory(hist []learn.Iteration) []iterationView {
	out := make([]iterationView, len(hist))
	for i, it := range hist {
		out[i] = viewIteration(it)
	}
	return out
}

// update changes the run under its lock and wakes the event streams.
func (r *run) update(fn func()) {
	r.mu.Lock()
	fn()
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// learnData reads the examples of a request.
func (s *Server) learnData(req learnRequest) (v *logic.Vocabulary, train, test *learn.Examples, hard []logic.Clause, err error) {
	v = &logic.Vocabulary{}
	train = &learn.Examples{}
	for _, f := range []struct {
		field, text, path string
		positive, test    bool
	}{
		{"pos", req.Pos, req.PosPath, true, false}, {"neg", req.Neg, req.NegPath, false, false},
		{"test_pos", req.TestPos, req.TestPosPath, true, true}, {"test_neg", req.TestNeg, req.TestNegPath, false, true},
	} {
		rules, ok, err := s.rules(f.field, f.text, f.path, v)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		if !ok {
			if !f.test {
				return nil, nil, nil, nil, badRequest(f.field, "learning needs %s examples (%s or %s_path)", f.field, f.field, f.field)
			}
			continue
		}
		ex := train
		if f.test {
			if test == nil {
				test = &learn.Examples{}
			}
			ex = test
		}
		if err := ex.AddRules(rules, f.positive, v, f.field); err != nil {
			return nil, nil, nil, nil, inputError(f.field, err)
		}
	}
	if test != nil {
		p, n := test.Size()
		if p == 0 || n == 0 {
			return nil, nil, nil, nil, badRequest("test_pos", "give both test_pos and test_neg, or neither")
		}
	}
	hard, err = s.hard(req.examples, v)
	return v, train, test, hard, err
}

func (s *Server) handleLearnStart(w http.ResponseWriter, r *http.Request) {
	var req learnRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	proto, folds, err := req.protocol()
	if err != nil {
		writeError(w, err)
		return
	}
	if f := req.tableRequest.stray(); f != "" {
		// Without a table the field would do nothing: say so.
		writeError(w, badRequest(f, "%s goes with a table (table or table_path): it has no effect on examples", f))
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		cp, err := s.checkpoint(req)
		if err != nil {
			return nil, err
		}
		if req.tableRequest.given() {
			proto.Settings.Grow, proto.Settings.Tally = req.tableRequest.grow(), req.tableRequest.tally()
			tp, t, err := s.tableProblem(req, proto, folds)
			if err != nil {
				return nil, err
			}
			var val *validation
			if len(tp.Folds) > 0 {
				val = &validation{folds: tp.Folds, problem: tp.Validation, pruned: -1}
			}
			score := &tableScore{t: t, label: req.Label, sem: proto.Settings.Semantics}
			return s.startRun(ctx, req.Name, tp.Final, proto, cp, val, tp.Encoding.Theory, score)
		}
		vocab, train, test, hard, err := s.learnData(req)
		if err != nil {
			return nil, err
		}
		var val *validation
		if folds > 0 {
			share := learn.DefaultValidation
			if req.Validation != nil {
				share = *req.Validation
			}
			fs, err := learn.FoldsByAntecedent(train, folds, share, experiment.Rand(proto.Settings.Seed, experiment.ValidationSplit))
			if err != nil {
				if folds == 1 {
					return nil, badRequest("validation", "validation %g: %v", share, err)
				}
				return nil, badRequest("folds", "folds %d: %v", folds, err)
			}
			val = &validation{folds: fs, pruned: -1}
		}
		return s.startRun(ctx, req.Name, learn.Problem{Vocab: vocab, Train: train, Hard: hard, Test: test}, proto, cp, val, nil, nil)
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// startRun builds the learner, outside the server's lock (it reads the
// examples and may run the solver), then registers the run and starts it,
// unless the server is shutting down, too many runs are running, or the
// request ran past its budget. With a checkpoint it resumes the learner
// that wrote it. render writes a hypothesis as the run's theory (nil: as
// it is, over p's vocabulary); score scores a table run's final theory
// class by class (nil for a run on examples).
func (s *Server) startRun(ctx context.Context, name string, p learn.Problem, proto learn.Protocol, checkpoint []byte, val *validation,
	render func(*learn.Hypothesis) *possibilistic.Theory, score *tableScore) (*runView, error) {
	if err := s.runSlot(); err != nil { // fail early, before building
		return nil, err
	}
	runCtx, cancel := context.WithCancel(s.runCtx)
	rn := &run{id: newID("r-"), name: name, cancel: cancel, started: time.Now(), state: stateRunning,
		changed: make(chan struct{}), finished: make(chan struct{}), val: val, render: render, score: score}
	vocab := p.Vocab.Clone() // before the learner runs, which reads p.Vocab
	rn.train = &runExamples{vocab: vocab, ex: p.Train}
	if p.Test != nil {
		rn.test = &runExamples{vocab: vocab, ex: p.Test}
	}
	if rn.name == "" {
		rn.name = rn.id
	}
	if rn.render == nil {
		rn.render = func(h *learn.Hypothesis) *possibilistic.Theory { return h.Theory(p.Vocab) }
	}
	var l *learn.Learner
	if s.beforeBuild != nil {
		s.beforeBuild()
	}
	var err error
	if checkpoint != nil {
		l, err = learn.ResumeLearner(bytes.NewReader(checkpoint), p, proto.Settings)
		if err != nil {
			cancel()
			return nil, badRequest("resume", "resume: %v", err)
		}
		rn.hist = l.History()
	} else if l, err = learn.NewLearner(p, proto.Settings); err != nil {
		cancel()
		return nil, inputError("pos", err)
	}
	rn.observe(l)
	rn.theory = rn.render(l.Hypothesis()).String()
	var view *runView
	err = s.commit(ctx, func() error {
		s.mu.Lock()
		defer s.mu.Unlock()
		if err := s.runSlotLocked(); err != nil { // runs may have started meanwhile
			return err
		}
		s.forgetOldRuns()
		s.runs[rn.id] = rn
		s.order = append(s.order, rn.id)
		view = rn.viewLocked() // before the run may change it
		s.runWG.Add(1)
		go s.learn(runCtx, rn, l, p, proto)
		return nil
	})
	if err != nil {
		cancel()
		return nil, err
	}
	return view, nil
}

// runSlot reports why a new learning run may not start now, if it may not.
func (s *Server) runSlot() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.runSlotLocked()
}

// runSlotLocked is runSlot with s.mu held.
func (s *Server) runSlotLocked() error {
	if s.closed {
		return &apiError{Status: http.StatusServiceUnavailable, Message: "the server is shutting down"}
	}
	running := 0
	for _, r := range s.runs {
		if r.finished != nil {
			select {
			case <-r.finished:
			default:
				running++
			}
		}
	}
	if running >= s.cfg.MaxRuns {
		return &apiError{Status: http.StatusTooManyRequests,
			Message: fmt.Sprintf("%d learning runs are running, the limit; cancel one or wait", running)}
	}
	return nil
}

// forgetOldRuns drops the oldest finished runs beyond Config.MaxStoredRuns.
// The caller holds s.mu.
func (s *Server) forgetOldRuns() {
	for len(s.order) >= s.cfg.MaxStoredRuns {
		dropped := false
		for i, id := range s.order {
			select {
			case <-s.runs[id].finished:
				delete(s.runs, id)
				s.order = append(s.order[:i], s.order[i+1:]...)
				dropped = true
			default:
				continue
			}
			break
		}
		if !dropped {
			return
		}
	}
}

// observe records every iteration of l in the run, with the model.
func (rn *run) observe(l *learn.Learner) {
	l.OnIteration = func(it learn.Iteration) {
		// The learner's goroutine: reading the model is safe here.
		text := rn.render(l.Hypothesis()).String()
		rn.update(func() {
			rn.hist = append(rn.hist, it)
			rn.theory = text
		})
	}
}

// learn runs the learning protocol to its end (the validation phase, if
// the run has one, then l or the final run's learner, and pruning) and
// records the outcome. A run cancelled by Close writes its checkpoint to
// Config.CheckpointDir.
func (s *Server) learn(ctx context.Context, rn *run, l *learn.Learner, p learn.Problem, proto learn.Protocol) {
	defer s.runWG.Done()
	defer close(rn.finished)
	defer rn.cancel()
	var sel *learn.Selection
	if rn.val != nil {
		var err error
		if sel, l, err = s.validate(ctx, rn, p, proto); err != nil {
			rn.update(func() {
				rn.stop = string(learn.StopCancelled)
				if ctx.Err() != nil {
					rn.state = stateCancelled
				} else {
					rn.state, rn.err = stateFailed, err.Error()
				}
			})
			return
		}
	}
	out, err := proto.Finish(ctx, p, sel, l)
	why, final := learn.StopCancelled, l.Final()
	runs, kept := 0, 0
	if out != nil {
		why, final, runs, kept = out.Stop, out.Hypothesis, out.Runs, out.Kept+1
		if out.Pruning != nil {
			t := out.Pruning.Threshold
			rn.update(func() { rn.val.pruned = t })
		}
	}
	var cp bytes.Buffer
	cpErr := l.WriteCheckpoint(&cp)
	if why == learn.StopCancelled && s.runCtx.Err() != nil && s.cfg.CheckpointDir != "" && cpErr == nil {
		path := filepath.Join(s.cfg.CheckpointDir, rn.id+".checkpoint.json")
		// The directory is made when first needed, so that a server that
		// never checkpoints leaves nothing behind.
		if cpErr = os.MkdirAll(s.cfg.CheckpointDir, 0o755); cpErr == nil {
			cpErr = fileutil.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(cp.Bytes()); return err })
		}
	}
	th := rn.render(final)
	text := th.String()
	var conf *confusionView
	if rn.score != nil && err == nil {
		// The run's own cancellation leaves the theory so far to score; the
		// server's shutdown does not wait for it.
		c, serr := rn.score.score(s.runCtx, th)
		switch {
		case serr == nil:
			conf = c
		case s.runCtx.Err() == nil:
			conf = &confusionView{Error: serr.Error()}
		}
	}
	rn.update(func() {
		rn.stop = string(why)
		rn.theory = text
		rn.finalRuns, rn.keptRun = runs, kept
		rn.confusion = conf
		switch {
		case err != nil:
			rn.state, rn.err = stateFailed, err.Error()
		case why == learn.StopCancelled:
			rn.state = stateCancelled
		default:
			rn.state = stateDone
		}
		if cpErr == nil {
			rn.checkpoint = cp.Bytes()
		} else if s.runCtx.Err() != nil {
			rn.checkpointErr = fmt.Errorf("checkpoint of run %s: %w", rn.id, cpErr)
		}
	})
}
