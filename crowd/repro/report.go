package repro

import (
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/strata-logic/strata/crowd"
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

// Row is one domain's line of the results: the theory's scores, the
// baselines' and the sizes of the models.
type Row struct {
	Domain   Domain
	Input    map[string]int // what the reader kept and dropped
	Warnings []string       // the reader's first warnings (skipped rows or hands)
	Manifest crowd.Manifest // the datasets: annotators and counts of each part

	// Semantics holds the theory learned under each semantics of
	// Options.Semantics, poss first, scored on the multi-class task;
	// Learning, Model and Theory repeat the poss one.
	Semantics []*experiment.Learned

	Learning *Learning
	Model    *learn.Model
	Theory   *possibilistic.Theory // Model as a theory, hard rules at weight 1

	// Poss is the theory's confusion table on the multi-class task: the most
	// typical action of each test situation, scored by crowd.EvaluateCases.
	Poss *crowd.Confusion
	// Binary is the theory on the test defaults and non-defaults.
	Binary crowd.Binary
	// Majority is the accuracy of always predicting MajorityAction, the most
	// frequent target of the training situations.
	MajorityAction string
	Majority       float64
	// Baselines are Weka's results on the same situations, in the order of
	// weka.Baselines; nil when Weka was not run.
	Baselines experiment.Baselines

	Prepare, Evaluate, Baseline time.Duration // time to read and build, to score the theory, to run Weka
}

// TheorySize returns the size of the learned theory as the paper counts
// it: the sum of the lengths of its rules, the hard rules excluded.
func (r *Row) TheorySize() int { return r.Model.NumLiterals() }

// Result returns the baseline named as the paper's table names it ("RF",
// "C4.5", "RIPPER"), or nil.
func (r *Row) Result(name string) *weka.Result { return r.Baselines.Result(name) }

// Accuracies returns the test accuracies in % in the paper's column order
// (Poss., Rand. F., C4.5, RIPPER); a baseline that was not run is NaN.
func (r *Row) Accuracies() []float64 { return r.Baselines.Accuracies(r.Poss.Accuracy()) }

// Columns are the paper's names of the columns of Accuracies.
var Columns = experiment.Columns

// Write writes results.md into dir, atomically.
func (rep *Report) Write(dir string) error {
	return fileutil.WriteAtomic(filepath.Join(dir, "results.md"), rep.WriteMarkdown)
}

// theoryFile names the theory learned under sem: DOMAIN.theory for poss,
// DOMAIN.SEMANTICS.theory otherwise.
func theoryFile(name string, sem possibilistic.Semantics) string {
	if sem == possibilistic.Poss {
		return name + ".theory"
	}
	return name + "." + sem.String() + ".theory"
}

// Learned returns the theories learned under each semantics, poss first.
func (r *Row) Learned() []*experiment.Learned { return r.Semantics }

// writeTheory writes the theory, highest level first as in the paper's
// Table 1, after a comment saying where it comes from.
func writeTheory(path string, row *Row, l *experiment.Learned, opts *Options) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error {
		lr, m := l.Learning, l.Learning.Model
		fmt.Fprintf(w, "# Possibilistic theory learned by strata under %s semantics from %s (%s), as in Table 1 of the paper.\n",
			l.Semantics, row.Domain.Label, row.Domain.Source)
		fmt.Fprintf(w, "# Highest level first. Weight 1: the hard rules (only one action per situation); below: the learned levels.\n")
		fmt.Fprintf(w, "# %d rules in %d levels, %d literals without the hard rules; %d iterations (%s), seed %d.\n",
			m.NumClauses(), len(m.Levels), m.NumLiterals(), len(lr.History), lr.Stop, opts.Seed)
		fmt.Fprintf(w, "# Test accuracy on the most typical action under %s: %.1f%% of %d situations.\n",
			l.Semantics, 100*l.Accuracy(), l.Total)
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
