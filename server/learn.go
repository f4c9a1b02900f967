package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"time"

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

// A settingField is a JSON field of a learning request that sets a field
// of learn.Settings: field names it as the library's errors do
// (learn.SettingsError), set sets it from the request.
type settingField struct {
	json, field string
	set         func(req *learnRequest, s *learn.Settings) error
}

// settingFields is the one table of a learning request's settings: which
// field of learn.Settings each JSON field sets, and how. An absent field
// leaves the library's default (but for threads: 1 on a shared server); a
// limit or share whose field says 0 for none is set to the library's none
// for 0 (zeroIsNone), and restarts 0 is one run. What the fields mean
// together the library checks.
var settingFields = []settingField{
	{"iterations", "Iterations", func(req *learnRequest, s *learn.Settings) (err error) {
		s.Iterations, err = zeroIsNone("iterations", req.Iterations, "no limit")
		return err
	}},
	{"candidates", "Candidates", func(req *learnRequest, s *learn.Settings) error { s.Candidates = req.Candidates; return nil }},
	{"patience", "Patience", func(req *learnRequest, s *learn.Settings) (err error) {
		s.Patience, err = zeroIsNone("patience", req.Patience, "never")
		return err
	}},
	{"threads", "Threads", func(req *learnRequest, s *learn.Settings) error {
		t := 1
		if req.Threads != nil {
			t = *req.Threads
		}
		if t < 0 {
			return badRequest("threads", "threads %d: give a positive number, or 0 for all CPUs", t)
		}
		s.Threads = min(t, runtime.GOMAXPROCS(0))
		return nil
	}},
	{"seed", "Seed", func(req *learnRequest, s *learn.Settings) error {
		if req.Seed != nil {
			s.Seed = *req.Seed
		}
		return nil
	}},
	{"timeout", "Timeout", func(req *learnRequest, s *learn.Settings) error {
		if req.Timeout == "" {
			return nil
		}
		d, err := time.ParseDuration(req.Timeout)
		if err != nil || d < 0 {
			return badRequest("timeout", "timeout %q: want a duration such as 30s or 5m", req.Timeout)
		}
		s.Timeout = d
		return nil
	}},
	{"semantics", "Semantics", func(req *learnRequest, s *learn.Settings) (err error) {
		if req.Semantics != "" {
			s.Semantics, err = theorySemantics(req.Semantics)
		}
		return err
	}},
	{"folds", "Folds", func(req *learnRequest, s *learn.Settings) error {
		if req.Folds != nil {
			s.Folds = *req.Folds
		}
		return nil
	}},
	{"validation", "Validation", func(req *learnRequest, s *learn.Settings) error {
		if req.Validation == nil {
			return nil
		}
		v := *req.Validation
		if !(v >= 0 && v < 1) {
			return badRequest("validation", "validation %g: give a share between 0 and 1 (0: none)", v)
		}
		s.Validation = v
		if v == 0 {
			s.Validation = learn.None
		}
		return nil
	}},
	{"validation_patience", "ValidationPatience", func(req *learnRequest, s *learn.Settings) (err error) {
		s.ValidationPatience, err = zeroIsNone("validation_patience", req.ValidationPatience, "never")
		return err
	}},
	{"prune", "Prune", func(req *learnRequest, s *learn.Settings) error { s.Prune = req.Prune; return nil }},
	{"choose", "Rule", func(req *learnRequest, s *learn.Settings) (err error) {
		if req.Choose == "" {
			return nil
		}
		if s.Rule, err = learn.ParseRule(req.Choose); err != nil {
			return badRequest("choose", "choose %q: give one-se, best or paired", req.Choose)
		}
		return nil
	}},
	{"restarts", "Restarts", func(req *learnRequest, s *learn.Settings) error {
		switch {
		case req.Restarts == nil:
		case *req.Restarts < 0:
			return badRequest("restarts", "restarts %d: give a positive number, or 0 for one run", *req.Restarts)
		default:
			s.Restarts = max(*req.Restarts, 1)
		}
		return nil
	}},
	{"grow", "Grow", func(req *learnRequest, s *learn.Settings) (err error) {
		s.Grow, err = zeroIsNone("grow", req.Grow, "none")
		return err
	}},
	{"tally", "Tally", func(req *learnRequest, s *learn.Settings) error {
		if req.Tally != nil {
			s.Tally = learn.SwitchOf(*req.Tally)
		}
		return nil
	}},
	{"resume", "Resume", func(*learnRequest, *learn.Settings) error { return nil }}, // the checkpoint, read later
}

// zeroIsNone returns the value of a field of learn.Settings whose JSON
// field gives 0 for none: 0 (the library's default) when absent,
// learn.None for 0, and an error for a negative value.
func zeroIsNone(field string, v *int, none string) (int, error) {
	switch {
	case v == nil:
		return 0, nil
	case *v < 0:
		return 0, badRequest(field, "%s %d: give a positive number, or 0 for %s", field, *v, none)
	case *v == 0:
		return learn.None, nil
	}
	return *v, nil
}

// settings returns the learning settings of a request (without the
// checkpoint it resumes from), checked by the library.
func (req *learnRequest) settings() (learn.Settings, error) {
	s := learn.Settings{Parallel: 1} // one fold after the other: the run's view shows the running fold
	for _, f := range settingFields {
		if err := f.set(req, &s); err != nil {
			return s, err
		}
	}
	if req.Resume != "" || len(req.Checkpoint) > 0 {
		// A stand-in for Validate's rule that a resumed run chooses
		// nothing; the checkpoint itself is read later (Server.checkpoint).
		s.Resume = []byte("{}")
	}
	err := s.Validate()
	s.Resume = nil
	return s, settingsError(err)
}

// settingsError says err, an error of learn.Settings, as a 400 naming
// the JSON field at fault.
func settingsError(err error) error {
	var se *learn.SettingsError
	if !errors.As(err, &se) {
		return err
	}
	msg := se.Explain(jsonName)
	if se.Err != nil {
		msg += ": " + se.Err.Error()
	}
	return badRequest(jsonName(se.Field), "%s", msg)
}

// jsonName names the JSON field of a field of learn.Settings.
func jsonName(field string) string {
	for _, f := range settingFields {
		if f.field == field {
			return f.json
		}
	}
	if field == "Variants" {
		return "variants"
	}
	return field
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
	// finalRuns and keptRun are the final run's restarts (learn.Result's
	// Runs and Kept + 1), once it has ended; the history is the first
	// final run's.
	finalRuns, keptRun int
}

// examples returns the run's training and test examples (test nil
// without).
func (r *run) examples() (train, test *runExamples) { return r.train, r.test }

type runView struct {
	ID        string            `json:"id"`
	Name      string            `json:"name"`
	State     string            `json:"state"`
	Stop      string            `json:"stop,omitempty"`
	Error     string            `json:"error,omitempty"`
	Started   time.Time         `json:"started"`
	History   []learn.Iteration `json:"history"`
	Theory    string            `json:"theory"`
	Positive  int               `json:"positive,omitempty"`
	Negative  int               `json:"negative,omitempty"`
	TestTotal int               `json:"test_examples,omitempty"`
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
func viewHistory(hist []learn.Iteration) []learn.Iteration {
	return append(make([]learn.Iteration, 0, len(hist)), hist...)
}

// update changes the run under its lock and wakes the event streams.
func (r *run) update(fn func()) {
	r.mu.Lock()
	fn()
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
}

// learnData reads the examples and hard rules of a request as the problem
// they make.
func (s *Server) learnData(req learnRequest) (learn.Problem, error) {
	p, err := s.examplesProblem(req)
	if err != nil {
		return learn.Problem{}, err
	}
	fs, err := s.hardFormulas(req.examples, p.Vocab)
	if err != nil {
		return learn.Problem{}, err
	}
	var named bool
	if p.Hard, named, err = learn.HardClauses(p.Vocab, fs); err != nil {
		return learn.Problem{}, inputError("hard", err)
	}
	if named {
		p.HardRules = fs
	}
	return p, nil
}

// examplesProblem reads the training and test examples of a request.
func (s *Server) examplesProblem(req learnRequest) (learn.Problem, error) {
	v := &logic.Vocabulary{}
	train := &learn.Examples{}
	var test *learn.Examples
	for _, f := range []struct {
		field, text, path string
		positive, test    bool
	}{
		{"pos", req.Pos, req.PosPath, true, false}, {"neg", req.Neg, req.NegPath, false, false},
		{"test_pos", req.TestPos, req.TestPosPath, true, true}, {"test_neg", req.TestNeg, req.TestNegPath, false, true},
	} {
		rules, ok, err := s.rules(f.field, f.text, f.path, v)
		if err != nil {
			return learn.Problem{}, err
		}
		if !ok {
			if !f.test {
				return learn.Problem{}, badRequest(f.field, "learning needs %s examples (%s or %s_path)", f.field, f.field, f.field)
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
			return learn.Problem{}, inputError(f.field, err)
		}
	}
	if test != nil {
		p, n := test.Size()
		if p == 0 || n == 0 {
			return learn.Problem{}, badRequest("test_pos", "give both test_pos and test_neg, or neither")
		}
	}
	return learn.Problem{Vocab: v, Train: train, Test: test}, nil
}

func (s *Server) handleLearnStart(w http.ResponseWriter, r *http.Request) {
	var req learnRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if f := req.tableRequest.stray(); f != "" {
		// Without a table the field would do nothing: say so.
		writeError(w, badRequest(f, "%s goes with a table (table or table_path): it has no effect on examples", f))
		return
	}
	settings, err := req.settings()
	if err != nil {
		writeError(w, err)
		return
	}
	v, err := s.compute(r.Context(), func(ctx context.Context) (any, error) {
		// The work may outlive the request (its budget): it writes
		// nothing the handler reads.
		settings := settings
		cp, err := s.checkpoint(req)
		if err != nil {
			return nil, err
		}
		settings.Resume = cp
		if req.tableRequest.given() {
			tp, t, err := s.tablePlan(req, settings)
			if err != nil {
				return nil, err
			}
			p := tp.Problem().Learn
			score := &tableScore{t: t, label: req.Label, sem: settings.Semantics}
			return s.startRun(ctx, req.Name, p, tp.Plan, func(ctx context.Context, rec learn.Recorder) (*learn.Result, error) {
				lr, err := tp.Learn(ctx, rec)
				if err != nil {
					return nil, err
				}
				return lr.Result, nil
			}, score)
		}
		p, err := s.learnData(req)
		if err != nil {
			return nil, err
		}
		plan, err := learn.NewPlan(p, settings)
		if err != nil {
			if se := (*learn.SettingsError)(nil); errors.As(err, &se) && se.Field == "Resume" {
				return nil, badRequest("resume", "resume: %v", se.Err)
			}
			var se *learn.SettingsError
			if errors.As(err, &se) {
				return nil, settingsError(err)
			}
			return nil, inputError("pos", err)
		}
		return s.startRun(ctx, req.Name, p, plan, plan.Learn, nil)
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, v)
}

// startRun registers a run of plan, a plan of p, and starts it (learnRun
// runs it), unless the server is shutting down, too many runs are
// running, or the request ran past its budget. score scores a table
// run's final theory class by class (nil for a run on examples).
func (s *Server) startRun(ctx context.Context, name string, p learn.Problem, plan *learn.Plan,
	learnRun func(context.Context, learn.Recorder) (*learn.Result, error), score *tableScore) (*runView, error) {
	if err := s.runSlot(); err != nil { // fail early, before building
		return nil, err
	}
	runCtx, cancel := context.WithCancel(s.runCtx)
	rn := &run{id: newID("r-"), name: name, cancel: cancel, started: time.Now(), state: stateRunning,
		changed: make(chan struct{}), finished: make(chan struct{}), score: score}
	vocab := p.Vocab.Clone() // before the learner runs, which reads p.Vocab
	rn.train = &runExamples{vocab: vocab, ex: p.Train}
	if p.Test != nil {
		rn.test = &runExamples{vocab: vocab, ex: p.Test}
	}
	if rn.name == "" {
		rn.name = rn.id
	}
	if folds := plan.Folds(); len(folds) > 0 {
		rn.val = &validation{folds: folds, pruned: -1}
	}
	if s.beforeBuild != nil {
		s.beforeBuild()
	}
	start, hist := plan.Start()
	rn.hist, rn.theory = hist, plan.Theory(start).String()
	var view *runView
	err := s.commit(ctx, func() error {
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
		go s.learn(runCtx, rn, learnRun)
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

// Record keeps what the run's learning tells: the validation's every
// iteration and its choice, the first final run's every iteration with
// its theory (the restarts are not shown).
func (rn *run) Record(e learn.Event) {
	switch e.Kind {
	case learn.EventValidation:
		rn.update(func() {
			step := validationStep{Iteration: e.Iteration}
			if e.Folds > 1 {
				step.Fold, step.Folds = e.Fold+1, e.Folds
			}
			rn.val.steps = append(rn.val.steps, step)
		})
	case learn.EventChosen:
		if sel := e.Selection; sel != nil {
			rn.update(func() { rn.val.sel, rn.val.support = sel, sel.Support })
		}
	case learn.EventIteration:
		if e.Run > 0 {
			return
		}
		text := e.Theory().String()
		rn.update(func() {
			rn.hist = append(rn.hist, e.Iteration)
			rn.theory = text
		})
	}
}

// learn runs the run's learning (learnRun: learn.Learn of its plan) to its
// end and records the outcome. A run cancelled by Close writes its
// checkpoint to Config.CheckpointDir.
func (s *Server) learn(ctx context.Context, rn *run, learnRun func(context.Context, learn.Recorder) (*learn.Result, error)) {
	defer s.runWG.Done()
	defer close(rn.finished)
	defer rn.cancel()
	res, err := learnRun(ctx, rn)
	if err != nil {
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
	if res.Pruning != nil {
		t := res.Pruning.Threshold
		rn.update(func() { rn.val.pruned = t })
	}
	var cp bytes.Buffer
	cpErr := res.WriteCheckpoint(&cp)
	if res.Stop == learn.StopCancelled && s.runCtx.Err() != nil && s.cfg.CheckpointDir != "" && cpErr == nil {
		path := filepath.Join(s.cfg.CheckpointDir, rn.id+".checkpoint.json")
		// The directory is made when first needed, so that a server that
		// never checkpoints leaves nothing behind.
		if cpErr = os.MkdirAll(s.cfg.CheckpointDir, 0o755); cpErr == nil {
			cpErr = fileutil.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(cp.Bytes()); return err })
		}
	}
	text := res.Theory.String()
	var conf *confusionView
	if rn.score != nil {
		// The run's own cancellation leaves the theory so far to score; the
		// server's shutdown does not wait for it.
		c, serr := rn.score.score(s.runCtx, res.Theory)
		switch {
		case serr == nil:
			conf = c
		case s.runCtx.Err() == nil:
			conf = &confusionView{Error: serr.Error()}
		}
	}
	rn.update(func() {
		rn.stop = string(res.Stop)
		rn.theory = text
		rn.finalRuns, rn.keptRun = res.Runs, res.Kept+1
		rn.confusion = conf
		if res.Stop == learn.StopCancelled {
			rn.state = stateCancelled
		} else {
			rn.state = stateDone
		}
		if cpErr == nil {
			rn.checkpoint = cp.Bytes()
		} else if s.runCtx.Err() != nil {
			rn.checkpointErr = fmt.Errorf("checkpoint of run %s: %w", rn.id, cpErr)
		}
	})
}
