// Package experiment is the harness of strata's reproductions of the
// paper's two experiments (crowd/repro, strata bench crowd; mln/repro,
// strata bench map): one Settings type that both embed, so a setting means
// the same in each; learning a subject's theory (Learn: learn.Learn, the
// iterations chosen on training data held out by whole groups, a Holdout,
// then the theory learned on all of it), with its progress and histories;
// Weka's baselines; progress events; and the report writer with the
// sections both reports share. The seeds of every draw are derived by
// learn.SeedFor from the run's seed and the draw's purpose.
//
// It stays internal and keeps its name: it is the harness of strata's own
// experiments, not a library for others, and the packages that run the
// experiments (crowd/repro, mln/repro) keep the data-specific parts.
package experiment

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/weka"
)

// Event is a progress report of a reproduction.
type Event struct {
	Subject string // the domain or dataset; empty for the whole run
	Step    string // "read", "network", "examples", "validate", "learn", "evaluate", "weka", "done", …
	Message string // what happens, for a person; empty on counting and iteration events

	// Done and Total count the work of a long step when Total > 0; Stage
	// says which part of the step is counted.
	Done, Total int
	Stage       string

	// Iteration is set after each learning iteration of the "validate" and
	// "learn" steps; MaxIterations is the iteration limit of that run.
	Iteration     *learn.Iteration
	MaxIterations int
}

// emitter sends events to a progress function, which may be nil.
type emitter func(Event)

// emit sends e if there is somewhere to send it.
func (f emitter) emit(e Event) {
	if f != nil {
		f(e)
	}
}

// Columns are the paper's names of the columns of Baselines.Accuracies.
var Columns = []string{"Poss.", "Rand. F.", "C4.5", "RIPPER"}

// Baselines are Weka's results on the examples a theory was learned from,
// in the order of weka.Baselines; nil when Weka was not run.
type Baselines []*weka.Result

// Result returns the baseline named as the paper's table names it ("RF",
// "C4.5", "RIPPER"), or nil.
func (b Baselines) Result(name string) *weka.Result {
	for _, r := range b {
		if r.Classifier.Name == name {
			return r
		}
	}
	return nil
}

// Accuracies returns poss, the theory's accuracy in [0, 1], and the
// baselines' test accuracies, all in % in the paper's column order (Poss.,
// Rand. F., C4.5, RIPPER); a baseline that was not run is NaN.
func (b Baselines) Accuracies(poss float64) []float64 {
	acc := []float64{100 * poss}
	for _, c := range weka.Baselines { // the paper's column order
		if r := b.Result(c.Name); r != nil {
			acc = append(acc, 100*r.Accuracy())
		} else {
			acc = append(acc, math.NaN())
		}
	}
	return acc
}

// RunBaselines runs Weka's baselines on train.arff and test.arff in dir.
func RunBaselines(ctx context.Context, r *weka.Runner, dir, subject string, progress func(Event)) (Baselines, time.Duration, error) {
	start := time.Now()
	var out Baselines
	for _, c := range weka.Baselines {
		emitter(progress).emit(Event{Subject: subject, Step: "weka", Message: fmt.Sprintf("Weka %s (%s)", c.Name, c.Class)})
		res, err := r.Run(ctx, c, filepath.Join(dir, "train.arff"), filepath.Join(dir, "test.arff"))
		if err != nil {
			return nil, 0, err
		}
		res.Report = "" // long; not needed in the report
		out = append(out, res)
	}
	return out, time.Since(start), nil
}

// startRun returns the Run of a reproduction that starts now.
func startRun() Run {
	return Run{Started: time.Now(), GoVersion: runtime.Version(), CPUs: runtime.GOMAXPROCS(0)}
}

// selectedRows runs run on every subject whose name is selected, in the
// order of subjects, and returns the rows; an error names the subject it
// came from.
func selectedRows[S, R any](subjects []S, selected []string, name func(S) string, run func(S) (R, error)) ([]R, error) {
	var rows []R
	for _, s := range subjects {
		if !slices.Contains(selected, name(s)) {
			continue
		}
		row, err := run(s)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name(s), err)
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// Reproduce runs a reproduction's common steps around its subjects: it
// makes s.Dir, starts run's clock, sets *rows to what each returns for the
// selected subjects, in the order of subjects (an error names the subject
// it came from), stops the clock, writes results.md into s.Dir with
// markdown, atomically, and says where it is.
func Reproduce[S, R any](s *Settings, run *Run, rows *[]R, subjects []S, selected []string, name func(S) string, each func(S) (R, error), markdown func(io.Writer) error) error {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	*run = startRun()
	var err error
	if *rows, err = selectedRows(subjects, selected, name, each); err != nil {
		return err
	}
	run.Elapsed = time.Since(run.Started)
	return s.writeReport("results.md", markdown)
}

// writeReport writes the report name into s.Dir with markdown, atomically,
// and says where it is.
func (s *Settings) writeReport(name string, markdown func(io.Writer) error) error {
	path := filepath.Join(s.Dir, name)
	if err := fileutil.WriteAtomic(path, markdown); err != nil {
		return err
	}
	s.Emit(Event{Step: "done", Message: "wrote " + path})
	return nil
}

// Finish ends one subject's row: it writes the theory of every semantics
// to s.Dir (NAME.theory for poss, NAME.SEMANTICS.theory otherwise, with the
// comment lines about gives it), runs Weka's baselines on the ARFF files of
// the subject's directory dir when s.Weka is set, XGBoost on the same
// tables, train and test, when s.XGBoost is, and scores the majority class,
// returning how long the baselines took.
func Finish(ctx context.Context, s *Settings, row *Row, name, dir string, train, test *weka.ARFF, about func(*Learned) []string) (baseline time.Duration, err error) {
	for _, l := range row.Semantics {
		if err := writeTheory(filepath.Join(s.Dir, theoryFile(name, l.Semantics)), l, s, about(l)...); err != nil {
			return 0, err
		}
	}
	if s.Weka != nil {
		if row.Baselines, baseline, err = RunBaselines(ctx, s.Weka, dir, name, s.Progress); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	if err := runOthers(ctx, s, row, name, dir, train, test); err != nil {
		return 0, err
	}
	return baseline + time.Since(start), ctx.Err()
}
