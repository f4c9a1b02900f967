package experiment

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/strata-logic/strata/possibilistic"
)

// Repeat runs a reproduction n times, with the seeds s.Seed, s.Seed+1, …:
// run learns and scores every subject with the seed it is given and writes
// into dir, a directory of s.Dir named after the seed, and returns its rows.
// Repeat then writes summary.md into s.Dir (Repeated.WriteMarkdown),
// atomically, and says where it is. After an error rep holds the runs that
// finished.
func Repeat(s *Settings, rep *Repeated, n int, run func(seed uint64, dir string) ([]*Row, error)) error {
	if n < 1 {
		return fmt.Errorf("repro: %d runs: give at least one", n)
	}
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return err
	}
	rep.Settings, rep.Run = s, startRun()
	for k := range n {
		seed := s.Seed + uint64(k)
		name := fmt.Sprintf("seed%d", seed)
		s.Emit(Event{Step: "run", Message: fmt.Sprintf("run %d of %d: seed %d, into %s", k+1, n, seed, filepath.Join(s.Dir, name))})
		rows, err := run(seed, filepath.Join(s.Dir, name))
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		if len(rep.Rows) > 0 && len(rows) != len(rep.Rows[0]) {
			return errors.New("repro: the runs scored different subjects")
		}
		rep.Seeds, rep.Dirs, rep.Rows = append(rep.Seeds, seed), append(rep.Dirs, name), append(rep.Rows, rows)
	}
	rep.Run.Elapsed = time.Since(rep.Run.Started)
	return s.writeReport("summary.md", rep.WriteMarkdown)
}

// Repeated is a reproduction run several times, each with its own seed: a
// seed draws other test annotators (or examples), so the runs show how far
// one run's table is from what the method does on average. Rows[i] are
// the rows of the run with Seeds[i], each run's subjects in the same order.
type Repeated struct {
	Title    string
	Settings *Settings // of the first run; Dir is the directory above the runs'
	Run      Run       // the whole of the runs
	Seeds    []uint64
	Dirs     []string // each run's output directory, relative to Settings.Dir
	Rows     [][]*Row
}

// Spread is a figure over the runs: its mean, least and greatest value, and
// how many runs gave one (a baseline that was not run gives none).
type Spread struct {
	Mean, Min, Max float64
	N              int
}

// SpreadOf returns the spread of xs, skipping NaN.
func SpreadOf(xs []float64) Spread {
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	sum := 0.0
	for _, x := range xs {
		if math.IsNaN(x) {
			continue
		}
		s.N++
		sum += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	if s.N == 0 {
		return Spread{Mean: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	s.Mean = sum / float64(s.N)
	return s
}

// Verdict is how a run's best drowning-free theory compares with the
// baselines on one subject: the question of the project's accuracy
// criterion for real decisions, asked of every run.
type Verdict struct {
	// Theory is the more accurate of the linear and lex theories (the
	// smaller on a tie); nil when neither was learned.
	Theory *Learned
	// Baseline names the most accurate baseline other than the majority
	// class, and Accuracy is its accuracy in [0, 1]; "" when none ran.
	Baseline string
	Accuracy float64
	// J48Nodes is the size of C4.5's tree, 0 when Weka did not run.
	J48Nodes int
}

// AtLeastAsAccurate reports whether the theory is at least as accurate as
// every baseline, comparing the figures as the tables print them (one
// decimal of a percent), so that a tie on the page is a tie.
func (v Verdict) AtLeastAsAccurate() bool {
	return v.Theory != nil && v.Baseline != "" && percent(v.Theory.Accuracy()) >= percent(v.Accuracy)
}

// Smaller reports whether the theory has fewer literals than C4.5's tree
// has nodes.
func (v Verdict) Smaller() bool {
	return v.Theory != nil && v.J48Nodes > 0 && v.Theory.Literals() < v.J48Nodes
}

// percent rounds an accuracy in [0, 1] to the tenth of a percent the
// tables print.
func percent(a float64) float64 { return math.Round(1000*a) / 10 }

// Judge returns the verdict of r.
func Judge(r *Row) Verdict {
	var v Verdict
	for _, l := range r.Semantics {
		if l.Semantics == possibilistic.Poss {
			continue
		}
		if v.Theory == nil || l.Accuracy() > v.Theory.Accuracy() ||
			l.Accuracy() == v.Theory.Accuracy() && l.Literals() < v.Theory.Literals() {
			v.Theory = l
		}
	}
	names := append(slices.Clone(Columns[1:]), OtherColumns[0]) // not the majority class
	accs := append(r.Accuracies()[1:], r.Others()[0])
	for i, a := range accs {
		if !math.IsNaN(a) && (v.Baseline == "" || a/100 > v.Accuracy) {
			v.Baseline, v.Accuracy = names[i], a/100
		}
	}
	if b := r.Result("C4.5"); b != nil {
		v.J48Nodes = b.TreeSize
	}
	return v
}

// Columns returns the headings of the accuracy columns, as the accuracy
// table has them: one per semantics, then the baselines.
func (rep *Repeated) Columns() []string { return accuracyColumns(rep.Settings.Semantics) }

// accuracyColumns returns the headings of an accuracy table's columns: one
// per semantics of sems, then the baselines (Row.AllAccuracies' order).
func accuracyColumns(sems []possibilistic.Semantics) []string {
	var cols []string
	for _, sem := range sems {
		cols = append(cols, SemanticsColumn(sem))
	}
	return append(append(cols, Columns[1:]...), OtherColumns...)
}

// AllAccuracies returns r's test accuracies in %, in the order of an
// accuracy table's columns: one per semantics, then the baselines (NaN for
// one that was not run).
func (r *Row) AllAccuracies() []float64 {
	var acc []float64
	for _, l := range r.Semantics {
		acc = append(acc, 100*l.Accuracy())
	}
	acc = append(acc, r.Accuracies()[1:]...)
	return append(acc, r.Others()...)
}

// Spreads returns, for the subject at index i of every run, the spread of
// each column's accuracy in % over the runs.
func (rep *Repeated) Spreads(i int) []Spread {
	cols := make([][]float64, len(rep.Columns()))
	for _, rows := range rep.Rows {
		for c, a := range rows[i].AllAccuracies() {
			cols[c] = append(cols[c], a)
		}
	}
	out := make([]Spread, len(cols))
	for c, xs := range cols {
		out[c] = SpreadOf(xs)
	}
	return out
}

// Verdicts counts, for the subject at index i, the runs that had a
// drowning-free theory and a baseline to judge, those of them whose best
// drowning-free theory is at least as accurate as every baseline, and of
// those the runs where it also has fewer literals than J48 has nodes.
func (rep *Repeated) Verdicts(i int) (judged, accurate, smaller int) {
	for _, rows := range rep.Rows {
		v := Judge(rows[i])
		if v.Theory == nil || v.Baseline == "" {
			continue
		}
		judged++
		if v.AtLeastAsAccurate() {
			accurate++
			if v.Smaller() {
				smaller++
			}
		}
	}
	return judged, accurate, smaller
}

// WriteMarkdown writes summary.md: the accuracy of every column over the
// runs, the verdict of every run, and each run's table.
func (rep *Repeated) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	title := rep.Title
	if rep.Settings.Quick {
		title += " — quick version"
	}
	rep.Run.WriteHeader(bw, title, rep.Settings.Command, rep.Settings.Seed)
	rep.writeSpreads(bw)
	rep.writeVerdicts(bw)
	rep.writeRuns(bw)
	return bw.Flush()
}

func (rep *Repeated) writeSpreads(w io.Writer) {
	cols := rep.Columns()
	fmt.Fprintf(w, "## Test accuracy (%%) over %d runs: mean (least–greatest)\n\n", len(rep.Rows))
	fmt.Fprintf(w, "| | %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", len(cols)))
	for i, r := range rep.Rows[0] {
		sp := rep.Spreads(i)
		means := make([]float64, len(sp))
		for c, s := range sp {
			means[c] = s.Mean
		}
		bold := cells(means)
		row := make([]string, len(sp))
		for c, s := range sp {
			if s.N == 0 {
				row[c] = "–"
				continue
			}
			row[c] = fmt.Sprintf("%s (%.1f–%.1f)", bold[c], s.Min, s.Max)
		}
		fmt.Fprintf(w, "| %s | %s |\n", r.Label, strings.Join(row, " | "))
	}
	fmt.Fprintf(w, "\nThe runs' seeds are %s: each seed draws its own test annotators, negative examples and learner's choices. The best mean of a row is in bold; – marks a baseline that was not run.\n\n", seedList(rep.Seeds))
}

func (rep *Repeated) writeVerdicts(w io.Writer) {
	fmt.Fprintf(w, "## The best drowning-free theory against the baselines\n\n")
	fmt.Fprintf(w, "| | at least as accurate as every baseline | and fewer literals than J48 has nodes | each run: theory %% / best baseline %%, literals / J48 nodes |\n|---|---:|---:|---|\n")
	for i, r := range rep.Rows[0] {
		judged, accurate, both := rep.Verdicts(i)
		var runs []string
		for k, rows := range rep.Rows {
			v := Judge(rows[i])
			if v.Theory == nil || v.Baseline == "" {
				runs = append(runs, fmt.Sprintf("seed %d: –", rep.Seeds[k]))
				continue
			}
			nodes := "–"
			if v.J48Nodes > 0 {
				nodes = fmt.Sprint(v.J48Nodes)
			}
			runs = append(runs, fmt.Sprintf("seed %d: %s %.1f / %s %.1f, %d / %s", rep.Seeds[k],
				v.Theory.Semantics, percent(v.Theory.Accuracy()), v.Baseline, percent(v.Accuracy), v.Theory.Literals(), nodes))
		}
		if judged == 0 {
			fmt.Fprintf(w, "| %s | – | – | %s |\n", r.Label, strings.Join(runs, "; "))
			continue
		}
		fmt.Fprintf(w, "| %s | %d of %d | %d of %d | %s |\n", r.Label, accurate, judged, both, judged, strings.Join(runs, "; "))
	}
	fmt.Fprintf(w, "\nThe best drowning-free theory of a run is the more accurate of its linear and lex theories (the one with fewer literals on a tie); "+
		"the baselines are Rand. F., C4.5, RIPPER and XGBoost (not the majority class), compared at the tenth of a percent the tables print.\n\n")
}

func (rep *Repeated) writeRuns(w io.Writer) {
	cols := rep.Columns()
	fmt.Fprintf(w, "## Each run\n\n")
	sems := make([]string, len(rep.Settings.Semantics))
	for i, sem := range rep.Settings.Semantics {
		sems[i] = sem.String()
	}
	fmt.Fprintf(w, "| seed | | %s | literals (%s) / J48 nodes |\n|---:|---|%s---|\n", strings.Join(cols, " | "),
		strings.Join(sems, ", "), strings.Repeat("---:|", len(cols)))
	for k, rows := range rep.Rows {
		for _, r := range rows {
			var lits []string
			for _, l := range r.Semantics {
				lits = append(lits, fmt.Sprint(l.Literals()))
			}
			nodes := "–"
			if b := r.Result("C4.5"); b != nil {
				nodes = fmt.Sprint(b.TreeSize)
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s / %s |\n", rep.Seeds[k], r.Label, strings.Join(cells(r.AllAccuracies()), " | "), strings.Join(lits, ", "), nodes)
		}
	}
	fmt.Fprintf(w, "\nEach run's results, theories and datasets are in its directory (%s).\n", strings.Join(rep.Dirs, ", "))
}

// seedList writes seeds as "1, 2 and 3".
func seedList(seeds []uint64) string {
	s := make([]string, len(seeds))
	for i, x := range seeds {
		s[i] = fmt.Sprint(x)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
