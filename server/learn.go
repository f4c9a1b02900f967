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
)

// Run states.
const (
	stateRunning   = "running"
	stateDone      = "done"
	stateCancelled = "cancelled"
	stateFailed    = "failed"
)

// learnRequest starts a learning run with the options of strata learn.
type learnRequest struct {
	examples
	Name       string  `json:"name"`
	Iterations int     `json:"iterations"`
	Candidates int     `json:"candidates"`
	Patience   int     `json:"patience"`
	Threads    int     `json:"threads"`
	Seed       *uint64 `json:"seed"`
	Timeout    string  `json:"timeout"` // a Go duration, e.g. "30s"; empty: none
	// Semantics under which the learned theory covers a default: poss
	// (the default), linear or lex, as strata learn --semantics.
	Semantics string `json:"semantics"`
	// Resume continues the run of this id from the checkpoint that Close
	// wrote to Config.CheckpointDir (or that GET …/checkpoint gave, sent
	// as Checkpoint), on the same examples.
	Resume     string          `json:"resume"`
	Checkpoint json.RawMessage `json:"checkpoint"`
	// Validation chooses the number of iterations on this share of the
	// training examples held out by antecedent, Folds by cross-validation
	// on this many folds of them instead, and Prune (with either) the
	// support a clause needs, as strata learn --validation, --folds and
	// --prune.
	Validation float64 `json:"validation"`
	Folds      int     `json:"folds"`
	Prune      bool    `json:"prune"`
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
}

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
		History: viewHistory(r.hist), Theory: r.theory}
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
	opts := learn.Settings{Iterations: req.Iterations, Candidates: req.Candidates, Patience: req.Patience, Threads: req.Threads, Seed: 1}
	if req.Seed != nil {
		opts.Seed = *req.Seed
	}
	if opts.Threads <= 0 {
		opts.Threads = 1 // a shared server: one core per run unless asked
	}
	opts.Threads = min(opts.Threads, runtime.GOMAXPROCS(0))
	if req.Semantics != "" {
		sem, err := theorySemantics(req.Semantics)
		if err != nil {
			writeError(w, err)
			return
		}
		opts.Semantics = sem
	}
	if req.Iterations < 0 || req.Candidates < 0 {
		writeError(w, badRequest("iterations", "iterations and candidates must not be negative"))
		return
	}
	switch {
	case req.Validation < 0 || req.Validation >= 1:
		writeError(w, badRequest("validation", "validation %g: give a share between 0 and 1 (0: none)", req.Validation))
		return
	case req.Folds < 0 || req.Folds == 1:
		writeError(w, badRequest("folds", "folds %d: give at least 2 (0: no cross-validation)", req.Folds))
		return
	case req.Folds > 0 && req.Validation > 0:
		writeError(w, badRequest("folds", "validation holds out one part and folds cross-validates: give one of them"))
		return
	case req.Prune && req.Validation == 0 && req.Folds == 0:
		writeError(w, badRequest("prune", "prune chooses its threshold on held-out examples: give validation or folds too"))
		return
	case (req.Validation > 0 || req.Folds > 0) && (req.Resume != "" || len(req.Checkpoint) > 0):
		field := "validation"
		if req.Folds > 0 {
			field = "folds"
		}
		writeError(w, badRequest(field, "%s chooses the iterations of a new run; it does not combine with resume", field))
		return
	}
	if req.Timeout != "" {
		d, err := time.ParseDuration(req.Timeout)
		if err != nil || d < 0 {
			writeError(w, badRequest("timeout", "timeout %q: want a duration such as 30s or 5m", req.Timeout))
			return
		}
		opts.Timeout = d
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		cp, err := s.checkpoint(req)
		if err != nil {
			return nil, err
		}
		vocab, train, test, hard, err := s.learnData(req)
		if err != nil {
			return nil, err
		}
		var val *validation
		switch {
		case req.Folds > 0:
			fits, helds, err := experiment.FoldsByAntecedent(train, req.Folds, opts.Seed)
			if err != nil {
				return nil, badRequest("folds", "%v", err)
			}
			val = &validation{fits: fits, helds: helds, patience: 10, prune: req.Prune, pruned: -1}
		case req.Validation > 0:
			fit, held := experiment.HoldOutByAntecedent(train, req.Validation, opts.Seed)
			if len(fit.List) == 0 || len(held.List) == 0 {
				return nil, badRequest("validation", "validation %g leaves no examples on one side", req.Validation)
			}
			val = &validation{fits: []*learn.Examples{fit}, helds: []*learn.Examples{held}, patience: 10, prune: req.Prune, pruned: -1}
		}
		return s.startRun(ctx, req.Name, learn.Problem{Vocab: vocab, Train: train, Hard: hard, Test: test}, opts, cp, val)
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
// that wrote it.
func (s *Server) startRun(ctx context.Context, name string, p learn.Problem, opts learn.Settings, checkpoint []byte, val *validation) (*runView, error) {
	if err := s.runSlot(); err != nil { // fail early, before building
		return nil, err
	}
	runCtx, cancel := context.WithCancel(s.runCtx)
	rn := &run{id: newID("r-"), name: name, cancel: cancel, started: time.Now(), state: stateRunning,
		changed: make(chan struct{}), finished: make(chan struct{}), val: val}
	if rn.name == "" {
		rn.name = rn.id
	}
	v := p.Vocab
	var l *learn.Learner
	if s.beforeBuild != nil {
		s.beforeBuild()
	}
	var err error
	if checkpoint != nil {
		l, err = learn.ResumeLearner(bytes.NewReader(checkpoint), p, opts)
		if err != nil {
			cancel()
			return nil, badRequest("resume", "resume: %v", err)
		}
		rn.hist = l.History()
	} else if l, err = learn.NewLearner(p, opts); err != nil {
		cancel()
		return nil, inputError("pos", err)
	}
	rn.observe(l, v)
	rn.theory = l.Hypothesis().Theory(v).String()
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
		go s.learn(runCtx, rn, l, p, opts)
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
func (rn *run) observe(l *learn.Learner, v *logic.Vocabulary) {
	l.OnIteration = func(it learn.Iteration) {
		// The learner's goroutine: reading the model is safe here.
		text := l.Hypothesis().Theory(v).String()
		rn.update(func() {
			rn.hist = append(rn.hist, it)
			rn.theory = text
		})
	}
}

// learn runs the learner to its end (after the validation phase, if the
// run has one) and records the outcome. A run cancelled by Close writes its
// checkpoint to Config.CheckpointDir.
func (s *Server) learn(ctx context.Context, rn *run, l *learn.Learner, p learn.Problem, opts learn.Settings) {
	defer s.runWG.Done()
	defer close(rn.finished)
	defer rn.cancel()
	if rn.val != nil {
		var err error
		if l, err = s.validate(ctx, rn, p, opts); err != nil {
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
	why, err := l.Run(ctx)
	var cp bytes.Buffer
	cpErr := l.WriteCheckpoint(&cp)
	final, ferr := s.final(ctx, rn, l, p, opts)
	if ferr != nil { // pruning cut short: the unpruned theory
		final = l.Final().Theory(p.Vocab).String()
		if err == nil && ctx.Err() == nil {
			err = ferr
		}
	}
	if why == learn.StopCancelled && s.runCtx.Err() != nil && s.cfg.CheckpointDir != "" && cpErr == nil {
		path := filepath.Join(s.cfg.CheckpointDir, rn.id+".checkpoint.json")
		// The directory is made when first needed, so that a server that
		// never checkpoints leaves nothing behind.
		if cpErr = os.MkdirAll(s.cfg.CheckpointDir, 0o755); cpErr == nil {
			cpErr = fileutil.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(cp.Bytes()); return err })
		}
	}
	rn.update(func() {
		rn.stop = string(why)
		rn.theory = final
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
