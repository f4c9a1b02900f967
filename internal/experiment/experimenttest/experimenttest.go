// Package experimenttest holds the checks that the tests of both
// reproductions (crowd/repro, mln/repro) make of a run of the harness in
// internal/experiment: its progress events, the accuracy table of
// results.md, the choice of the number of iterations, Weka's baselines,
// determinism under a seed and the errors of bad settings.
//
// It is a normal package so that both test suites can import it, but only
// tests import it: nothing here is part of a reproduction.
package experimenttest

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
	"github.com/strata-logic/strata/weka/wekatest"
)

// AccuracyHeader is the header line of the accuracy table of results.md,
// in the paper's layout: the run's eight columns, then the paper's four.
const AccuracyHeader = "| | Poss. | Linear | Lex | Rand. F. | C4.5 | RIPPER | XGBoost | majority | paper: Poss. | Rand. F. | C4.5 | RIPPER |\n"

// ours names the run's columns of the accuracy table.
var ours = []string{"Poss.", "Linear", "Lex", "Rand. F.", "C4.5", "RIPPER", "XGBoost", "majority"}

// Reproducer runs a reproduction with settings s on the subjects named
// (domains, datasets), or on all of them when none are named.
type Reproducer[R any] func(ctx context.Context, s experiment.Settings, subjects ...string) (R, error)

// Run is what a quick run of a reproduction left: its output folder, its
// progress events and its results.md.
type Run struct {
	Dir      string
	Weka     bool // whether Weka's baselines were run
	XGBoost  bool // whether XGBoost was run
	Events   []experiment.Event
	Markdown string
}

// Quick runs the quick version of a reproduction on all its subjects with
// the data under data, seed 1, Weka when the machine has it, command as
// the command line to record, and a five-minute limit. It returns the
// reproduction's report and what the run left, after checking that
// results.md names the command and the seed.
func Quick[R any](t *testing.T, data, command string, run Reproducer[R]) (R, *Run) {
	t.Helper()
	q := &Run{Dir: t.TempDir()}
	wk := wekatest.Runner(t)
	q.Weka = wk != nil
	xg, err := xgboost.Find()
	switch {
	case err == nil:
		q.XGBoost = true
	case os.Getenv("STRATA_REQUIRE_XGBOOST") != "":
		t.Fatalf("STRATA_REQUIRE_XGBOOST is set: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s := experiment.Settings{Data: data, Dir: q.Dir, Quick: true, Seed: 1, Weka: wk, XGBoost: xg, Command: command,
		Progress: func(e experiment.Event) { q.Events = append(q.Events, e) }, Learning: learntest.Legacy(learn.Settings{})}
	rep, err := run(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(q.Dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	q.Markdown = string(md)
	if !strings.Contains(q.Markdown, "`"+command+"` (seed 1)") {
		t.Error("results.md does not give the command and seed")
	}
	return rep, q
}

// Bench measures the quick version of a reproduction on all its subjects
// with the data under data, seed 1 and no Weka.
func Bench[R any](b *testing.B, data string, run Reproducer[R]) {
	for b.Loop() {
		if _, err := run(context.Background(), experiment.Settings{Data: data, Dir: b.TempDir(), Quick: true, Seed: 1, Learning: learntest.Legacy(learn.Settings{})}); err != nil {
			b.Fatal(err)
		}
	}
}

// CheckEvents checks that the iteration and counting events stay within
// their limits and that every one of steps was reported.
func CheckEvents(t testing.TB, events []experiment.Event, steps ...string) {
	t.Helper()
	seen := map[string]int{}
	for _, e := range events {
		seen[e.Step]++
		if e.Iteration != nil && (e.Iteration.Iteration < 1 || e.Iteration.Iteration > e.MaxIterations) {
			t.Errorf("iteration %d of at most %d", e.Iteration.Iteration, e.MaxIterations)
		}
		if e.Total > 0 && (e.Done < 0 || e.Done > e.Total) {
			t.Errorf("%s: %d done of %d", e.Step, e.Done, e.Total)
		}
	}
	for _, s := range steps {
		if seen[s] == 0 {
			t.Errorf("no %q progress event (got %v)", s, seen)
		}
	}
}

// TableRow returns the cells of the row labelled label in the table of md
// under header.
func TableRow(t testing.TB, md, header, label string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(md, header)
	if !ok {
		t.Fatalf("results.md has no table %q:\n%s", header, md)
	}
	for _, line := range strings.Split(rest, "\n")[1:] {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		if cells[0] == label {
			return cells[1:]
		}
	}
	t.Fatalf("results.md has no %s row in %q", label, header)
	return nil
}

// AccuracyRow returns the row labelled label of the accuracy table, split
// into the run's eight cells and the paper's four, after checking that
// each of the run's cells is an accuracy in % (Weka's baselines' may be "–"
// when Weka was not run, XGBoost's when q.XGBoost is false).
func AccuracyRow(t testing.TB, q *Run, label string) (run, paper []string) {
	t.Helper()
	cells := TableRow(t, q.Markdown, AccuracyHeader, label)
	if len(cells) != len(ours)+len(experiment.Columns) {
		t.Fatalf("accuracy row %q has %d cells: %q", label, len(cells), cells)
	}
	for i, c := range cells[:len(ours)] {
		if c == "–" && (i >= 3 && i <= 5 && !q.Weka || ours[i] == "XGBoost" && !q.XGBoost) {
			continue
		}
		x, err := strconv.ParseFloat(strings.Trim(c, "*"), 64)
		if err != nil || x < 0 || x > 100 {
			t.Errorf("row %q: %s cell %q is not an accuracy in %%", label, ours[i], c)
		}
	}
	return cells[:len(ours)], cells[len(ours):]
}

// CheckBaselines checks that each baseline that ran was tested on total
// items (the majority class always runs) and that J48's tree has a size
// when Weka ran.
func CheckBaselines(t testing.TB, q *Run, row *experiment.Row, total int) {
	t.Helper()
	others := []*weka.Result{row.Majority}
	if q.XGBoost {
		others = append(others, row.Boosting)
	}
	for _, b := range others {
		if b == nil || b.Total != total {
			t.Errorf("baseline %+v: want %d items tested", b, total)
		}
	}
	if !q.Weka {
		return
	}
	for _, b := range row.Baselines {
		if b.Total != total {
			t.Errorf("%s tested %d items, want %d", b.Classifier.Name, b.Total, total)
		}
	}
	if j := row.Result("C4.5"); j == nil || j.TreeSize < 1 {
		t.Error("no J48 tree size")
	}
}

// Chosen checks that the final iteration limit of lr was chosen by its
// validation run, at most the best iteration (or, the curve censored, the
// limit), and returns that run; it
// returns nil after reporting an error when there was none.
func Chosen(t testing.TB, lr *experiment.Learning) *experiment.Validation {
	t.Helper()
	v := lr.Validation
	if v == nil || v.Skipped != "" {
		t.Errorf("no validation run: %+v", v)
		return nil
	}
	// A censored or saturated curve leaves the final run the iteration
	// limit.
	final := lr.Iterations == v.Chosen
	if v.ToLimits() {
		final = lr.Iterations == 0 || lr.Iterations > len(v.History)
	}
	if v.Chosen < 1 || v.Chosen > v.Best || !final {
		t.Errorf("chose %d iterations, best %d, final limit %d", v.Chosen, v.Best, lr.Iterations)
	}
	return v
}

// WithProtocol gives s the protocol settings of the benchmarks' command
// lines, folds and learn's default held-out share and validation
// patience, where it leaves them zero; its other zero fields mean none
// (Legacy).
func WithProtocol(s experiment.Settings, folds int) experiment.Settings {
	l := &s.Learning
	if l.Folds == 0 {
		l.Folds = folds
	}
	if l.ValidationPatience == 0 {
		l.ValidationPatience = learn.DefaultValidationPatience
	}
	if l.Folds == 1 && l.Validation == 0 {
		l.Validation = learn.DefaultValidation
	}
	s.Learning = learntest.Legacy(*l)
	return s
}

// CheckNoValidation checks a run made with Folds 0 and the given
// iteration limit: no validation run, the limit kept, and no
// validation.csv in the subject's folder dir.
func CheckNoValidation(t testing.TB, lr *experiment.Learning, limit int, dir string) {
	t.Helper()
	if lr.Validation != nil || lr.Iterations != limit || len(lr.History) > limit {
		t.Errorf("validation %+v, limit %d, %d iterations", lr.Validation, lr.Iterations, len(lr.History))
	}
	if _, err := os.Stat(filepath.Join(dir, "validation.csv")); err == nil {
		t.Error("validation.csv written without validation")
	}
}

// CheckDeterministic runs a reproduction twice, each time in a new folder
// given to run, with seed 7 and no time limit, and checks that the files
// named (relative to the folder) are the same both times.
func CheckDeterministic(t *testing.T, run func(dir string) error, files ...string) {
	t.Helper()
	var got [2][]byte
	for i := range got {
		dir := t.TempDir()
		if err := run(dir); err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			got[i] = append(got[i], b...)
		}
	}
	if string(got[0]) != string(got[1]) {
		t.Errorf("two runs with seed 7 differ:\n%s\n---\n%s", got[0], got[1])
	}
}

// CheckErrors checks that a reproduction refuses the settings that every
// reproduction refuses (no Data, a validation share of 1, a negative
// iteration limit), an unknown subject "chess" (what names a subject:
// "domain", "dataset"), and the subject named subject when its data, at
// path below Data, is missing.
func CheckErrors[R any](t *testing.T, run Reproducer[R], what, subject, path string) {
	t.Helper()
	dir := t.TempDir()
	for _, c := range []struct {
		s        experiment.Settings
		subjects []string
		want     string
	}{
		{experiment.Settings{Dir: dir}, nil, "Data and Options.Dir are required"},
		{experiment.Settings{Data: dir, Dir: dir, Learning: learn.Settings{Validation: 1}}, nil, "Validation 1: give a share between 0 and 1"},
		{experiment.Settings{Data: dir, Dir: dir, Learning: learn.Settings{Iterations: -2}}, nil, "Iterations -2"},
		{experiment.Settings{Data: dir, Dir: dir, Learning: learn.Settings{Grow: -2}}, nil, "Grow -2"},
		{experiment.Settings{Data: dir, Dir: dir}, []string{"chess"}, fmt.Sprintf("unknown %s %q", what, "chess")},
		{experiment.Settings{Data: filepath.Join(dir, "nothing"), Dir: dir}, []string{subject}, filepath.Join("nothing", path)},
	} {
		_, err := run(context.Background(), c.s, c.subjects...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v on %v: error %v, want %q", c.s, c.subjects, err, c.want)
		}
	}
}

// Read reads the file at path over v with read, one of the readers of
// theories, rules and clauses (ReadTheory, defaults.ReadRules,
// defaults.ReadClauses).
func Read[T any](t testing.TB, path string, v *logic.Vocabulary, read func(io.Reader, string, *logic.Vocabulary) (T, error)) T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	x, err := read(f, path, v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// ReadTheory is possibilistic.ReadText with a context never done, for Read.
func ReadTheory(r io.Reader, name string, v *logic.Vocabulary) (*possibilistic.Theory, error) {
	return possibilistic.ReadText(context.Background(), r, name, v)
}

// Literals returns the number of literals of the formulas of levels, the
// size the reports give of a theory.
func Literals(levels []possibilistic.Level) int {
	n := 0
	for _, l := range levels {
		for _, f := range l.Formulas {
			n += f.Size()
		}
	}
	return n
}
