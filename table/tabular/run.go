package tabular

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/weka"
)

// Options control a run. Data and Dir are required. A zero field has no
// effect (nothing held out) or is its default (TestFolds, Threads,
// Semantics, and Learning's as learn.Settings and a table's problem say);
// the command line's defaults are the Default* constants and learn's.
type Options struct {
	Data string // the suite's folder, with datasets.tsv
	Dir  string // the output folder: results.md, results.csv, one folder per table

	Datasets []string // run only these tables (all when empty)
	// Quick is a small run for CI: QuickTables, QuickTestFolds folds,
	// QuickIterations iterations unless Iterations says, no timeout.
	Quick     bool
	Seed      uint64 // the folds, the learner's draws and XGBoost's
	TestFolds int    // cross-validation folds of a table given as one file (0: DefaultTestFolds)

	// Learning says how each of strata's learning runs (one table, split
	// and semantics) learns, as table.Settings and strata learn take it
	// (a table's problem's defaults in its zero fields, but Iterations 0
	// is DefaultIterations, or QuickIterations when Quick): Timeout bounds the
	// run, the choice of iterations included; Folds chooses the number of
	// iterations on held-out training rows (2 or more folds, 1 one part of
	// share Validation, 0 none), each held-out part with its own cut
	// points; Prune prunes at the support chosen there. Its Threads,
	// Semantics and Seed are the run's: one thread, each of Semantics,
	// and Seed drawn per split.
	Learning learn.Settings
	// SmallFolds, with Learning.Folds 2 or more, is the number of folds of
	// a split with at most SmallRows training rows (0: Folds).
	SmallFolds int
	// LargeFolds, with Learning.Folds 2 or more, is the number of held-out
	// parts of a split with more than LargeRows training rows: 1 is one
	// part of share Learning.Validation (0: Folds).
	LargeFolds int
	// Variants are the encodings of the rows (table.Variant): one is
	// learned with; with several, each learning run chooses among them on
	// its held-out parts (table.Settings.Variants). None: the zero one.
	Variants []table.Variant

	Semantics []possibilistic.Semantics // all three when empty
	Threads   int                       // jobs (a learning run with one thread, a baseline) run at once (0: GOMAXPROCS)

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

// Defaults of Options and of the command line.
const (
	DefaultTestFolds = 10
	QuickTestFolds   = 3
	QuickIterations  = 5
	// DefaultIterations bounds each learning run of bench tabular. The
	// learner's own default (100) stops where the held-out curves on the
	// training rows still rise on the larger tables; the validation's
	// patience (DefaultValidationPatience) stops each held-out run soon
	// after its best score, so a higher limit costs only where the curve
	// keeps rising.
	DefaultIterations = 1000
	// DefaultTimeout is a safety net, not a budget: the iteration limit
	// and the patience bound every run of the shared suite well within
	// it, so that a result never depends on the machine's speed;
	// results.csv's time_stopped says when it bound.
	DefaultTimeout = 20 * time.Minute
	// DefaultFolds is how many folds of the training rows choose the
	// number of iterations.
	DefaultFolds = 3
	// DefaultSmallFolds and SmallRows: a split of at most SmallRows
	// training rows chooses on DefaultSmallFolds folds. On a small table
	// the held-out estimate's variance, not the time, limits the choice,
	// and a run takes seconds. Measured on training rows only (three
	// splits of the 12 tables of at most 2,000 rows, each learned on two
	// thirds of its training rows and scored on the other third, under
	// linear and lex, choosing the best held-out iteration), 5 folds
	// instead of 3 were more accurate in 27 of the 72 runs and less in 16,
	// by 0.9 points on average, and 10 instead of 5 more accurate in 66
	// of 216 runs (nine splits) and less in 44, by +0.30, +0.10 and +0.38
	// points in three batches of three splits. Above it the time binds:
	// on the large tables each held-out part's share of it would shrink.
	DefaultSmallFolds = 10
	SmallRows         = 2000
	// DefaultLargeFolds and LargeRows: a split of more than LargeRows
	// training rows chooses on one held-out part. There the run's time
	// binds (adult, nursery and pendigits take the whole minute): three
	// folds take three fifths of it, a fifth each, and censor their
	// curves, where one part has two fifths to itself and leaves the
	// final run the rest (learn.Settings.Timeout); with thousands of
	// held-out rows one part's estimate is already precise. Measured on
	// training rows only (two splits of adult and nursery and pendigits'
	// split, each learned on two thirds of its training rows and scored
	// on the other third, under linear and lex), one part instead of 3
	// folds was more accurate in 6 of the 10 runs and less in 4 (at most
	// 0.2 points), by 0.9 points on average: pendigits +3.6 and +4.4,
	// adult and nursery within 0.6 points. Mushroom, also above it, where
	// the minute does not bind, scored 100% either way on its inner
	// splits.
	DefaultLargeFolds = 1
	LargeRows         = 5000
	// DefaultValidationPatience stops a held-out part's run this many
	// iterations after its held-out score last improved: on a large table
	// the held-out curve is flat long before learn's default patience
	// runs out, and the iterations after its best are the dearest of the
	// run (each scores a larger theory); the rule of choice chooses at or
	// before the best.
	DefaultValidationPatience = 20
	// DefaultRule, the command line's default rule of choice, keeps the
	// iteration with the best held-out accuracy. With three folds of a
	// small table the one-standard-error rule stops a long way before the
	// best. Measured on training rows only (three splits of 14 tables,
	// each learned on two thirds of its training rows and scored on the
	// other third, under linear and lex), the best rule was more accurate
	// in 32 of the 84 runs and less in 19, by 0.4 points on average, with
	// a few more rules.
	DefaultRule = learn.BestScore
)

// QuickTables are the tables of a Quick run: small, binary and multi-class,
// categorical and numeric.
var QuickTables = []string{"acute", "wine"}

// Methods are the methods of results.csv, in order.
var Methods = []string{"strata-poss", "strata-linear", "strata-lex", "rf", "j48", "jrip", "xgboost", "majority"}

// Result is a method's result on a table, over all its splits.
type Result struct {
	Method    string
	Confusion *eval.Confusion // pooled over the splits
	Rules     float64         // mean per split; J48: leaves; NaN when it has no meaning
	// Fallbacks is, for strata, the mean number per split of the rules
	// that are the theory's fallback (table.Learned.Fallbacks), counted in
	// Rules; 0 for the other methods.
	Fallbacks float64
	Literals  float64 // mean per split; J48: tree nodes; NaN when it has no meaning
	Seconds   float64 // mean per split: learning and predicting
	// TimeStopped, for strata, is the number of splits whose learning
	// the time limit ended somewhere (a validation run or a final one),
	// so that its result is the limit's as much as the learner's.
	TimeStopped int
	Note        string // why the method did not run, when Confusion is nil
	// Variants counts, for strata with Options.Variants, the splits that
	// chose each encoding on their training rows.
	Variants map[string]int
}

// TableResult is the results on one table.
type TableResult struct {
	Dataset Dataset
	Rows    int // training and test rows
	Splits  int
	Results []*Result // in the order of Methods; a method not run has a nil Confusion
	Error   string    // why the table was not run (a malformed file); Results is then empty
	// Skipped says, for every row of the table's files that could not be
	// read (a ragged row) and was left out, where and why (file:line:col).
	Skipped []string
}

// Report is the outcome of a run.
type Report struct {
	Options Options
	Tables  []*TableResult
	Elapsed time.Duration
}

func (o Options) withDefaults() (Options, error) {
	switch {
	case o.Data == "" || o.Dir == "":
		return o, fmt.Errorf("tabular: Options.Data and Options.Dir are required")
	case o.TestFolds < 0 || o.TestFolds == 1:
		return o, fmt.Errorf("tabular: %d test folds: give 2 or more (0: %d)", o.TestFolds, DefaultTestFolds)
	case o.SmallFolds < 0 || o.SmallFolds == 1 || o.LargeFolds < 0 || o.Threads < 0:
		return o, errors.New("tabular: large folds and threads cannot be negative, nor small folds 1 or negative")
	}
	if err := o.Learning.Validate(); err != nil {
		return o, fmt.Errorf("tabular: %w", err)
	}
	if parts, _ := o.Learning.Parts(); len(o.Variants) > 1 && parts == 0 {
		return o, errors.New("tabular: several variants are chosen among on held-out rows: give folds or a validation share too")
	}
	if o.TestFolds == 0 {
		o.TestFolds = DefaultTestFolds
		if o.Quick {
			o.TestFolds = QuickTestFolds
		}
	}
	if o.Learning.Iterations == 0 && !o.Quick {
		o.Learning.Iterations = DefaultIterations
	}
	if o.Quick {
		o.Learning.Timeout = 0
		if o.Learning.Iterations == 0 {
			o.Learning.Iterations = QuickIterations
		}
		if len(o.Datasets) == 0 {
			o.Datasets = QuickTables
		}
	}
	if len(o.Semantics) == 0 {
		o.Semantics = possibilistic.AllSemantics
	}
	if o.Threads == 0 {
		o.Threads = max(1, runtimeProcs())
	}
	return o, nil
}

// Validate reports what Run would refuse in the options (a setting out of
// range, a suite that cannot be read, a table it does not list) without
// reading the tables, so that a command can say so before it looks for the
// baselines' tools.
func (o Options) Validate() error {
	_, _, err := o.selected()
	return err
}

// selected returns the options with their defaults and the suite's tables
// that they select.
func (o Options) selected() (Options, []Dataset, error) {
	o, err := o.withDefaults()
	if err != nil {
		return o, nil, err
	}
	suite, err := ReadSuite(o.Data)
	if err != nil {
		return o, nil, err
	}
	if len(o.Datasets) == 0 {
		return o, suite, nil
	}
	var keep []Dataset
	for _, name := range o.Datasets {
		i := slices.IndexFunc(suite, func(d Dataset) bool { return d.Name == name })
		if i < 0 {
			return o, nil, fmt.Errorf("tabular: no table %q in %s", name, filepath.Join(o.Data, "datasets.tsv"))
		}
		keep = append(keep, suite[i])
	}
	return o, keep, nil
}

// Run runs the suite and writes results.md and results.csv into o.Dir,
// after every table with the tables done so far.
func Run(ctx context.Context, o Options) (*Report, error) {
	o, suite, err := o.selected()
	if err != nil {
		return nil, err
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

// NotRun returns the tables that could not be run (a file that does not
// read), with why; a command reports them as its failure, after the
// others' results.
func (r *Report) NotRun() []*TableResult {
	var out []*TableResult
	for _, t := range r.Tables {
		if t.Error != "" {
			out = append(out, t)
		}
	}
	return out
}

// splits reads a dataset's files and returns its splits, the number of
// rows, and the rows left out as unreadable (table.Options.SkipBadRows: a
// suite's file is read as it is, not repaired, and results.md says which
// rows were left out).
func splits(o Options, d Dataset) (_ []split, rows int, skipped []string, _ error) {
	read := func(name string) (*table.Table, error) {
		f, err := os.Open(filepath.Join(o.Data, name))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		t, err := table.Read(f, filepath.Join(o.Data, name), table.Options{Numeric: append([]string{}, d.Numeric...), Categorical: []string{d.Label}, SkipBadRows: true})
		if err != nil {
			return nil, err
		}
		for _, e := range t.Skipped {
			skipped = append(skipped, e.Error())
		}
		if d.Kind == "binary" && d.Positive != "" {
			if err := binarize(t, d.Label, d.Positive); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	t, err := read(d.Files[0])
	if err != nil {
		return nil, 0, nil, err
	}
	if len(d.Files) == 2 {
		test, err := read(d.Files[1])
		if err != nil {
			return nil, 0, nil, err
		}
		all := func(n int) []int {
			r := make([]int, n)
			for i := range r {
				r[i] = i
			}
			return r
		}
		return []split{{train: t, test: test, trainRows: all(t.Rows), testRows: all(test.Rows)}}, t.Rows + test.Rows, skipped, nil
	}
	all := make([]int, t.Rows)
	for i := range all {
		all[i] = i
	}
	folds, err := table.Folds(t, all, o.TestFolds, d.Label, "", o.Seed)
	if err != nil {
		return nil, 0, nil, err
	}
	var out []split
	for _, f := range folds {
		out = append(out, split{train: t, test: t, trainRows: table.Complement(all, f), testRows: f})
	}
	return out, t.Rows, skipped, nil
}

// outcome is one job's result on one split.
type outcome struct {
	conf            *eval.Confusion
	rules, literals float64
	fallbacks       float64
	seconds         float64
	variant         string // strata's encoding, when chosen among Options.Variants
	timeStopped     bool   // strata's run, a validation run or the final one, ended by the time limit
}

// runTable runs every method on every split of d, o.Threads jobs at once.
func runTable(ctx context.Context, o Options, d Dataset) (*TableResult, error) {
	ss, rows, skipped, err := splits(o, d)
	if err != nil {
		return nil, err
	}
	tr := &TableResult{Dataset: d, Rows: rows, Splits: len(ss), Skipped: skipped}
	if len(skipped) > 0 && o.Progress != nil {
		o.Progress(Event{Table: d.Name, Message: fmt.Sprintf("%d unreadable rows left out: %s", len(skipped), strings.Join(skipped, "; "))})
	}
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
	slots := make(chan struct{}, o.Threads)
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
	var rules, lits, fallbacks, secs float64
	n := 0
	for _, oc := range ocs {
		if oc == nil {
			continue
		}
		if r.Confusion == nil {
			r.Confusion = eval.NewConfusion(nil)
		}
		r.Confusion.Merge(oc.conf)
		if oc.variant != "" {
			if r.Variants == nil {
				r.Variants = map[string]int{}
			}
			r.Variants[oc.variant]++
		}
		if oc.timeStopped {
			r.TimeStopped++
		}
		rules += oc.rules
		fallbacks += oc.fallbacks
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
	r.Rules, r.Literals, r.Fallbacks, r.Seconds = rules/float64(n), lits/float64(n), fallbacks/float64(n), secs/float64(n)
	return r
}

// heldOut returns the held-out parts that choose on a split of rows
// training rows: the folds, and the share of one part when there is one.
func (o Options) heldOut(rows int) (folds int, validation float64) {
	folds, validation = o.Learning.Parts()
	switch {
	case folds < 2:
	case o.SmallFolds >= 2 && rows <= SmallRows:
		folds = o.SmallFolds
	case o.LargeFolds > 0 && rows > LargeRows:
		folds = o.LargeFolds
		if folds == 1 {
			validation = o.Learning.Validation
			if validation <= 0 {
				validation = learn.DefaultValidation
			}
		}
	}
	return folds, validation
}

// runStrata learns a theory on the split's training rows under sem and
// scores it on its test rows.
func runStrata(ctx context.Context, o Options, d Dataset, s split, sem possibilistic.Semantics, i int) (*outcome, error) {
	start := time.Now()
	st := table.Settings{Learning: o.Learning, Label: d.Label, Features: d.Features}
	st.Learning.Seed, st.Learning.Threads, st.Learning.Semantics = SplitSeed(o.Seed, i), 1, sem
	st.Learning.Folds, st.Learning.Validation = o.heldOut(len(s.trainRows))
	switch {
	case len(o.Variants) == 1:
		st.Variant = o.Variants[0]
	case len(o.Variants) > 1:
		st.Variants = o.Variants
	}
	lr, err := table.Learn(ctx, s.train, s.trainRows, st, nil)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	preds, err := table.Predict(ctx, lr.Theory, s.test, table.PredictOptions{Semantics: sem, Label: d.Label, Rows: s.testRows})
	if err != nil {
		return nil, err
	}
	conf := eval.NewConfusion(nil)
	for _, p := range preds {
		count(conf, p.Target, p.Class)
	}
	oc := &outcome{conf: conf, rules: float64(lr.Hypothesis.NumClauses()), literals: float64(lr.Hypothesis.NumLiterals()),
		fallbacks: float64(lr.Fallbacks()), seconds: time.Since(start).Seconds()}
	if len(st.Variants) > 0 {
		oc.variant = lr.Variant.String()
	}
	oc.timeStopped = lr.TimeStopped()
	return oc, nil
}

// binarize makes the class column of a table that datasets.tsv calls
// binary two-valued, as the rule learners learn it: the positive class
// against every other, named Other(positive) (ecoli's cp against its seven
// other sites). A column of two values is left as it is.
func binarize(t *table.Table, label, positive string) error {
	c := t.Column(label)
	if c == nil || c.Numeric || len(c.Values) <= 2 {
		return nil
	}
	if !slices.Contains(c.Values, positive) {
		return fmt.Errorf("%s: the positive class %q of a binary table is not a value of %q", t.Name, positive, label)
	}
	other := Other(positive)
	if slices.Contains(c.Values, other) {
		return fmt.Errorf("%s: %q is a value of %q already; cannot name the other classes so", t.Name, other, label)
	}
	pos := int32(slices.Index(c.Values, positive))
	for i, code := range c.Codes {
		switch {
		case code < 0:
		case code == pos:
			c.Codes[i] = 0
		default:
			c.Codes[i] = 1
		}
	}
	c.Values = []string{positive, other}
	return nil
}

// Other names the classes other than positive in a binary table whose
// class column has more values (binarize).
func Other(positive string) string { return "not " + positive }
