package repro

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// Report is the outcome of a reproduction.
type Report struct {
	Options Options // with the defaults filled in
	Rows    []*Row
	experiment.Run
}

// Row is one dataset's line of the results: the network, the examples, the
// theory's test accuracy, the baselines' and the sizes of the models.
type Row struct {
	Dataset Dataset
	Network NetworkInfo
	Counts  ExampleCounts

	// Semantics holds the theory learned under each semantics of
	// Options.Semantics, poss first; Learning, Model, Theory, Correct and
	// Total repeat the poss one.
	Semantics []*experiment.Learned

	Learning *Learning
	Model    *learn.Model
	Theory   *possibilistic.Theory // Model as a theory over the network's atoms

	// Correct of Total test examples are classified correctly by the
	// theory: a default is predicted when (Θ, α) ⊢poss β.
	Correct, Total int
	// Diagnostics help read the accuracies.
	Diagnostics Diagnostics
	// Baselines are Weka's results on the same examples, in the order of
	// weka.Baselines; nil when Weka was not run.
	Baselines experiment.Baselines

	// Time to learn the network, to draw and label the examples (writing
	// the files included), to score the theory and to run Weka.
	NetworkTime, ExamplesTime, Evaluate, Baseline time.Duration
}

// Accuracy returns the theory's test accuracy in [0, 1].
func (r *Row) Accuracy() float64 {
	if r.Total == 0 {
		return 0
	}
	return float64(r.Correct) / float64(r.Total)
}

// TheorySize returns the size of the learned theory as the paper counts
// it: its total number of literals.
func (r *Row) TheorySize() int { return r.Model.NumLiterals() }

// Result returns the baseline named as the paper's table names it ("RF",
// "C4.5", "RIPPER"), or nil.
func (r *Row) Result(name string) *weka.Result { return r.Baselines.Result(name) }

// Accuracies returns the test accuracies in % in the paper's column order
// (Poss., Rand. F., C4.5, RIPPER); a baseline that was not run is NaN.
func (r *Row) Accuracies() []float64 { return r.Baselines.Accuracies(r.Accuracy()) }

// Columns are the paper's names of the columns of Accuracies.
var Columns = experiment.Columns

// Write writes results.md into dir, atomically.
func (rep *Report) Write(dir string) error {
	return fileutil.WriteAtomic(filepath.Join(dir, "results.md"), rep.WriteMarkdown)
}

// theoryFile names the theory learned under sem: NAME.theory for poss,
// NAME.SEMANTICS.theory otherwise.
func theoryFile(name string, sem possibilistic.Semantics) string {
	if sem == possibilistic.Poss {
		return name + ".theory"
	}
	return name + "." + sem.String() + ".theory"
}

// writeTheory writes the theory, highest level first as in the paper's
// table of the NLTCS theory, after comments saying where it comes from.
func writeTheory(path string, row *Row, l *experiment.Learned, opts *Options) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error {
		lr, m := l.Learning, l.Learning.Model
		fmt.Fprintf(w, "# Possibilistic theory learned by strata under %s semantics from %d MAP-entailment examples of the %s network\n",
			l.Semantics, lr.Examples, row.Dataset.Label)
		fmt.Fprintf(w, "# (learned from %s), as in the paper's §5.3. Highest level first.\n", row.Network.Source)
		fmt.Fprintf(w, "# %d rules in %d levels, %d literals; %d iterations (%s), seed %d.\n",
			m.NumClauses(), len(m.Levels), m.NumLiterals(), len(lr.History), lr.Stop, opts.Seed)
		fmt.Fprintf(w, "# Test accuracy under %s: %.1f%% of %d examples (%d correct).\n", l.Semantics, 100*l.Accuracy(), l.Total, l.Correct)
		if l.Semantics != possibilistic.Poss {
			fmt.Fprintf(w, "# Query it with --semantics %s: the file does not record the semantics.\n", l.Semantics)
		}
		if opts.Command != "" {
			fmt.Fprintf(w, "# Command: %s\n", opts.Command)
		}
		fmt.Fprintln(w)
		return l.Theory.WriteText(w)
	})
}

// Learned returns the theories learned under each semantics, poss first.
func (r *Row) Learned() []*experiment.Learned { return r.Semantics }
