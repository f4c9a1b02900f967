package tabular

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/weka"
)

// Options control a run. Data and Dir are required; the zero value of
// every other field means its default.
type Options struct {
	Data string // the suite's folder, with datasets.tsv
	Dir  string // the output folder: results.md, results.csv, one folder per table

	Tables []string // run only these tables (all when empty)
	Quick  bool     // a small run for CI: QuickTables, QuickFolds folds, QuickIterations iterations
	Seed   uint64   // the folds, the learner's draws and XGBoost's
	Folds  int      // cross-validation folds of a table given as one file (0: DefaultFolds)

	// Timeout bounds each of strata's learning runs (one table, fold and
	// semantics, the choice of iterations included; 0: DefaultTimeout, none
	// with Quick).
	Timeout    time.Duration
	Iterations int // at most this many iterations per run (0: learn.DefaultIterations, QuickIterations with Quick)
	// SelectFolds chooses each run's number of iterations by
	// cross-validation on that many folds of its training rows (0:
	// DefaultSelectFolds; 1: no choice, the learner's patience ends the
	// run).
	SelectFolds int
	Semantics   []possibilistic.Semantics // all three when empty
	Workers     int                       // jobs (a learning run, a baseline) run at once (0: GOMAXPROCS)

	Weka    *weka.Runner    // nil: no Weka baselines
	XGBoost *xgboost.Runner // nil: no XGBoost baseline
	Command string          // recorded in results.md

	Progress func(Event) // told about every finished job, one call at a time; may be nil
}

// Event is a finished job.
type Event struct {
	Table, Method string
	Split         int // from 1
	Splits        int
	Message       string
}

// Defaults of Options.
const (
	DefaultFolds       = 10
	DefaultTimeout     = time.Minute
	DefaultSelectFolds = 3
	QuickFolds         = 3
	QuickIterations    = 5
)

// QuickTables are the tables of a Quick run: small, binary and multi-class,
// categorical and numeric.
var QuickTables = []string{"acute", "wine"}

// Methods are the methods of results.csv, in order.
var Methods = []string{"strata-poss", "strata-linear", "strata-lex", "rf", "j48", "jrip", "xgboost", "majority"}

// Result is a method's result on a table, over all its splits.
type Result struct {
	Method    string
	Confusion *table.Confusion // pooled over the splits
	Rules     float64          // mean per split; J48: leaves; NaN when it has no meaning
	Literals  float64          // mean per split; J48: tree nodes; NaN when it has no meaning
	Seconds   float64          // mean per split: learning and predicting
	Note      string           // why the method did not run, when Confusion is nil
}

// TableResult is the results on one table.
type TableResult struct {
	Dataset Dataset
	Rows    int // training and test rows
	Splits  int
	Results []*Result // in the order of Methods; a method not run has a nil Confusion
	Error   string    // why the table was not run (a malformed file); Results is then empty
}

// Report is the outcome of a run.
type Report struct {
	Options Options
	Tables  []*TableResult
	Elapsed time.Duration
}

func (o Options) withDefaults() (Options, error) {
	if o.Data == "" || o.Dir == "" {
		return o, fmt.Errorf("tabular: Options.Data and Options.Dir are required")
	}
	if o.Folds == 0 {
		o.Folds = DefaultFolds
		if o.Quick {
			o.Folds = QuickFolds
		}
	}
	if o.Folds < 2 {
		return o, fmt.Errorf("tabular: %d folds", o.Folds)
	}
	if o.Timeout == 0 && !o.Quick {
		o.Timeout = DefaultTimeout
	}
	if o.Iterations == 0 {
		o.Iterations = learn.DefaultIterations
		if o.Quick {
			o.Iterations = QuickIterations
		}
	}
	if o.SelectFolds == 0 {
		o.SelectFolds = DefaultSelectFolds
	}
	if len(o.Semantics) == 0 {
		o.Semantics = possibilistic.AllSemantics
	}
	if len(o.Tables) == 0 && o.Quick {
		o.Tables = QuickTables
	}
	if o.Workers <= 0 {
		o.Workers = max(1, runtimeProcs())
	}
	return o, nil
}

// Run runs the suite and writes results.md and results.csv into o.Dir,
// after every table with the tables done so far.
func Run(ctx context.Context, o Options) (*Report, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	suite, err := ReadSuite(o.Data)
	if err != nil {
		return nil, err
	}
	if len(o.Tables) > 0 {
		var keep []Dataset
		for _, name := range o.Tables {
			i := slices.IndexFunc(suite, func(d Dataset) bool { return d.Name == name })
			if i < 0 {
				return nil, fmt.Errorf("tabular: no table %q in %s", name, filepath.Join(o.Data, "datasets.tsv"))
			}
			keep = append(keep, suite[i])
		}
		suite = keep
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	start := time.Now()
	rep := &Report{Options: o}
	for _, d := range suite {
		tr, err := runTable(ctx, o, d)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			// A table that cannot be read or learned is reported as such
			// (a malformed file is not repaired), and the others run.
			tr = &TableResult{Dataset: d, Error: err.Error()}
			if o.Progress != nil {
				o.Progress(Event{Table: d.Name, Message: err.Error()})
			}
		}
		rep.Tables = append(rep.Tables, tr)
		// The results so far, so that a long run shows them as it goes.
		rep.Elapsed = time.Since(start)
		if err := rep.write(); err != nil {
			return nil, err
		}
	}
	rep.Elapsed = time.Since(start)
	if err := rep.write(); err != nil {
		return nil, err
	}
	return rep, nil
}

// splits reads a dataset's files and returns its splits.
func splits(o Options, d Dataset) ([]split, int, error) {
	read := func(name string) (*table.Table, error) {
		f, err := os.Open(filepath.Join(o.Data, name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return table.Read(f, filepath.Join(o.Data, name), table.Options{Numeric: append([]string{}, d.Numeric...), Categorical: []string{d.Label}})
	}
	t, err := read(d.Files[0])
	if err != nil {
		return nil, 0, err
	}
	if len(d.Files) == 2 {
		test, err := read(d.Files[1])
		if err != nil {
			return nil, 0, err
		}
		all := func(n int) []int {
			r := make([]int, n)
			for i := range r {
				r[i] = i
			}
			return r
		}
		return []split{{train: t, test: test, trainRows: all(t.Rows), testRows: all(test.Rows)}}, t.Rows + test.Rows, nil
	}
	all := make([]int, t.Rows)
	for i := range all {
		all[i] = i
	}
	folds, err := table.Folds(t, all, o.Folds, d.Label, "", o.Seed)
	if err != nil {
		return nil, 0, err
	}
	var out []split
	for _, f := range folds {
		out = append(out, split{train: t, test: t, trainRows: table.Complement(all, f), testRows: f})
	}
	return out, t.Rows, nil
}

// outcome is one job's result on one split.
type outcome struct {
	conf            *table.Confusion
	rules, literals float64
	seconds         float64
}

// runTable runs every method on every split of d, o.Workers jobs at once.
func runTable(ctx context.Context, o Options, d Dataset) (*TableResult, error) {
	ss, rows, err := splits(o, d)
	if err != nil {
		return nil, err
	}
	tr := &TableResult{Dataset: d, Rows: rows, Splits: len(ss)}
	outs := make(map[string][]*outcome) // method -> per split
	for _, m := range Methods {
		outs[m] = make([]*outcome, len(ss))
	}
	type job struct {
		split  int
		method string
		run    func() (map[string]*outcome, error)
	}
	var jobs []job
	for i, s := range ss {
		dir := filepath.Join(o.Dir, d.Name, fmt.Sprintf("split%d", i+1))
		for _, sem := range o.Semantics {
			jobs = append(jobs, job{i, "strata-" + sem.String(), func() (map[string]*outcome, error) {
				oc, err := runStrata(ctx, o, d, s, sem, i)
				return map[string]*outcome{"strata-" + sem.String(): oc}, err
			}})
		}
		if o.Weka != nil {
			jobs = append(jobs, job{i, "weka", func() (map[string]*outcome, error) {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return nil, err
				}
				start := time.Now()
				res, conf, err := runWeka(ctx, o.Weka, d, s, dir)
				if err != nil {
					return nil, err
				}
				secs := time.Since(start).Seconds() / float64(len(res))
				out := map[string]*outcome{}
				for k, r := range res {
					oc := &outcome{conf: conf[k], rules: nan, literals: nan, seconds: secs}
					switch r.Classifier.Name {
					case weka.J48.Name:
						oc.rules, oc.literals = float64(r.Leaves), float64(r.TreeSize)
					case weka.JRip.Name:
						oc.rules = float64(r.Rules)
					}
					out[wekaMethod(r.Classifier)] = oc
				}
				return out, nil
			}})
		}
		if o.XGBoost != nil {
			jobs = append(jobs, job{i, "xgboost", func() (map[string]*outcome, error) {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return nil, err
				}
				start := time.Now()
				conf, err := runXGBoost(ctx, o.XGBoost, d, s, dir, 1)
				if err != nil {
					return nil, err
				}
				return map[string]*outcome{"xgboost": {conf: conf, rules: nan, literals: nan, seconds: time.Since(start).Seconds()}}, nil
			}})
		}
		jobs = append(jobs, job{i, "majority", func() (map[string]*outcome, error) {
			return map[string]*outcome{"majority": {conf: majority(d, s), rules: nan, literals: nan}}, nil
		}})
	}
	jctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex
	var wg sync.WaitGroup
	slots := make(chan struct{}, o.Workers)
	for _, j := range jobs {
		slots <- struct{}{}
		if jctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			res, err := j.run()
			if err != nil {
				cancel(fmt.Errorf("split %d, %s: %w", j.split+1, j.method, err))
				return
			}
			mu.Lock()
			defer mu.Unlock() // Progress is told by one job at a time
			for m, oc := range res {
				outs[m][j.split] = oc
			}
			if o.Progress != nil {
				o.Progress(Event{Table: d.Name, Method: j.method, Split: j.split + 1, Splits: len(ss)})
			}
		}()
	}
	wg.Wait()
	if err := context.Cause(jctx); err != nil {
		return nil, err
	}
	for _, m := range Methods {
		tr.Results = append(tr.Results, pool(m, outs[m], o))
	}
	return tr, nil
}

func wekaMethod(c weka.Classifier) string {
	switch c.Name {
	case weka.RandomForest.Name:
		return "rf"
	case weka.J48.Name:
		return "j48"
	case weka.JRip.Name:
		return "jrip"
	}
	return c.Name
}

// pool sums a method's confusion tables over the splits and averages its
// sizes and times.
func pool(method string, ocs []*outcome, o Options) *Result {
	r := &Result{Method: method}
	var rules, lits, secs float64
	n := 0
	for _, oc := range ocs {
		if oc == nil {
			continue
		}
		if r.Confusion == nil {
			r.Confusion = &table.Confusion{}
		}
		r.Confusion.Merge(oc.conf)
		rules += oc.rules
		lits += oc.literals
		secs += oc.seconds
		n++
	}
	if n == 0 {
		switch {
		case method == "xgboost" && o.XGBoost == nil:
			r.Note = "not run (no xgboost)"
		case o.Weka == nil:
			r.Note = "not run (no Weka)"
		default:
			r.Note = "not run"
		}
		r.Rules, r.Literals = nan, nan
		return r
	}
	r.Rules, r.Literals, r.Seconds = rules/float64(n), lits/float64(n), secs/float64(n)
	return r
}

// runStrata learns a theory on the split's training rows under sem and
// scores it on its test rows.
func runStrata(ctx context.Context, o Options, d Dataset, s split, sem possibilistic.Semantics, i int) (*outcome, error) {
	start := time.Now()
	st := table.Settings{
		Learner: learn.Settings{Iterations: o.Iterations, Timeout: o.Timeout, Seed: o.Seed + uint64(i)*7919,
			Threads: 1, Patience: learn.DefaultPatience, Semantics: sem},
		Label: d.Label, Features: d.Features,
	}
	if o.SelectFolds >= 2 {
		st.Folds = o.SelectFolds
	}
	lr, err := table.Learn(ctx, s.train, s.trainRows, st)
	if err != nil {
		return nil, err
	}
	learned := time.Since(start)
	preds, err := table.Predict(ctx, lr.Theory, s.test, table.PredictOptions{Semantics: sem, Label: d.Label, Rows: s.testRows})
	if err != nil {
		return nil, err
	}
	conf := &table.Confusion{}
	for _, p := range preds {
		conf.Add(p.Target, p.Class)
	}
	_ = learned
	return &outcome{conf: conf, rules: float64(lr.Model.NumClauses()), literals: float64(lr.Model.NumLiterals()),
		seconds: time.Since(start).Seconds()}, nil
}
