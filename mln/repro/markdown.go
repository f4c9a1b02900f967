package repro

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
)

// Excerpt sizes in results.md.
const (
	excerptPerLevel = 6
	excerptLevels   = 12
)

// WriteMarkdown writes the report: the accuracy table in the layout of the
// paper's table of test-set accuracies next to the paper's numbers, the
// sizes of the models, the networks and examples, how each theory was
// learned, the times, and an excerpt of the first theory (NLTCS's in a full
// run).
func (rep *Report) WriteMarkdown(w io.Writer) error {
	er := &experiment.Report{Title: "Reproduction of the paper's MAP experiment (§5.3, the last four rows of its table of test-set accuracies)",
		Settings: &rep.Options.Settings, Run: rep.Run}
	for _, r := range rep.Rows {
		er.Rows = append(er.Rows, &r.Row)
	}
	return er.WriteMarkdown(w,
		experiment.AccuracyTable("Test-set accuracy (%)", rep.accuracyNote()),
		experiment.SizeTable("The paper: the possibilistic theories contain \"approximately 50% fewer literals than the decision trees\" (a ratio of about 0.5)."),
		func(w io.Writer, _ *experiment.Report) { rep.dataTable(w) },
		func(w io.Writer, _ *experiment.Report) { rep.diagnosticsTable(w) },
		experiment.LearningTable("How the theories were learned", "evidence formulas", "dataset"),
		func(w io.Writer, _ *experiment.Report) { rep.timeTable(w) },
		func(w io.Writer, _ *experiment.Report) { rep.theory(w) })
}

// accuracyNote explains the accuracy table.
func (rep *Report) accuracyNote() string {
	o := rep.Options
	how := "exact MAP"
	if o.Approx {
		how = "MaxWalkSAT"
	}
	return fmt.Sprintf("Each dataset has %d training and %d test examples α |~ β (evidence α of 1 to %d literals, β one literal on another atom), ",
		o.Train, o.Test, o.MaxEvidence) +
		fmt.Sprintf("positive when (M, α) ⊢MAP β by %s in the learned network M. ", how) +
		"Poss. predicts positive when the learned theory covers the example, (Θ, α) ⊢poss β; " +
		"Linear and Lex learn and score a theory of their own under linear entailment (the levels that clash with α and the levels kept above them are skipped, not drowned) " +
		"and lexicographic entailment (the models of α violating the fewest formulas, level by level from the top); " +
		"the baselines (Weka's RandomForest -I 100, J48 = C4.5, JRip = RIPPER, defaults otherwise) learn the same training examples " +
		"in the paper's encoding (two Boolean attributes per variable for the antecedent, two for the consequent). " +
		"The paper's columns are the last four rows of its table \"Test set accuracies\", on networks and examples of its own (same datasets, other networks and draws)."
}

func (rep *Report) dataTable(w io.Writer) {
	fmt.Fprintf(w, "## Networks and examples\n\n")
	fmt.Fprintf(w, "| | learned from | atoms | formulas | literals | test PLL / variable: network, independent | training examples +/− | test examples +/− |\n")
	fmt.Fprintf(w, "|---|---|---:|---:|---:|---|---|---|\n")
	for _, r := range rep.Rows {
		n, c := r.Network, r.Counts
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %.4f, %.4f | %d / %d | %d / %d |\n", r.Dataset.Label, n.Source,
			n.Atoms, n.Weighted+n.Hard, n.Literals, n.PLL, n.IndPLL, c.TrainPos, c.TrainNeg, c.TestPos, c.TestNeg)
	}
	fmt.Fprintf(w, "\nNetworks are learned as Lowd and Davis's DTSL (a depth-2 probabilistic decision tree per variable, pseudo-likelihood weights; `strata mln learn`). ")
	fmt.Fprintf(w, "Training examples use seed %d, test examples seed %d. ", rep.Options.Seed, rep.Options.Seed+1)
	fmt.Fprintf(w, "Each dataset's directory holds the network (NAME.mln), the examples (train/test .defaults and .nondefaults), ")
	fmt.Fprintf(w, "their ARFF encoding (train.arff, test.arff) and the learning histories (history.csv, validation.csv: with folds their pooled curve, and validation-foldN.csv each fold's).\n\n")
}

// majority returns the test accuracy of predicting the training majority.
func (c ExampleCounts) majority() float64 {
	if c.TestPos+c.TestNeg == 0 {
		return 0
	}
	if c.TrainPos >= c.TrainNeg {
		return float64(c.TestPos) / float64(c.TestPos+c.TestNeg)
	}
	return float64(c.TestNeg) / float64(c.TestPos+c.TestNeg)
}

func (rep *Report) diagnosticsTable(w io.Writer) {
	fmt.Fprintf(w, "## Reading the accuracies\n\n")
	fmt.Fprintf(w, "| | majority class | sign rule | Poss. where α is consistent with Θ | Poss. where α drowns levels of Θ | any theory of at most half the J48 nodes in literals: expected, at best |\n|---|---:|---:|---:|---:|---|\n")
	for _, r := range rep.Rows {
		d := r.Diagnostics
		fmt.Fprintf(w, "| %s | %.1f%% | %.1f%% | %s | %s | %s |\n", r.Dataset.Label, 100*r.Counts.majority(), 100*d.SignRule,
			share(d.ConsistentCorrect, d.Consistent), share(d.InconsistentCorrect, d.Inconsistent), halfSizeBound(r))
	}
	fmt.Fprintf(w, "\nTest accuracies. The majority class predicts the more frequent label of the training examples; the sign rule predicts, ")
	fmt.Fprintf(w, "for each sign of the conclusion β, the label most training examples with that sign have (one attribute of the encoding suffices: ")
	fmt.Fprintf(w, "in sparse data most atoms are false in most probable worlds, so α |~ ¬x mostly holds and α |~ x mostly does not). ")
	fmt.Fprintf(w, "The next two columns split the test examples by whether the evidence α is consistent with the learned theory: ")
	fmt.Fprintf(w, "when it is not, every level at or below the inconsistency level is drowned, including the formulas unrelated to α. ")
	fmt.Fprintf(w, "The last column bounds the accuracy of every theory of at most ⌊J48 nodes / 2⌋ literals, under any semantics (– where such a theory can mention every atom). ")
	fmt.Fprintf(w, "Such a theory leaves out k atoms or more, and a literal on an atom in neither the theory nor α is never entailed, so the positive test examples about the left-out atoms are lost: ")
	fmt.Fprintf(w, "expected is the bound averaged over every choice of the k atoms, the most a theory learned without the test set can expect (the conclusions' atoms are drawn uniformly); ")
	fmt.Fprintf(w, "at best leaves out the k atoms with the fewest positive test examples, which only the test set can tell.\n\n")
}

// halfSizeBound formats the bound of Diagnostics.SizeBound at half the
// J48 tree's nodes.
func halfSizeBound(r *Row) string {
	b := r.Result("C4.5")
	if b == nil || b.TreeSize == 0 {
		return "–"
	}
	mean, best, ok := r.Diagnostics.SizeBound(b.TreeSize / 2)
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.1f%%, %.1f%% (%d literals, %d of %d atoms left out)", 100*mean, 100*best, b.TreeSize/2, len(r.Diagnostics.Positives)-b.TreeSize/2, len(r.Diagnostics.Positives))
}

// share formats correct of total as a percentage with the total.
func share(correct, total int) string {
	if total == 0 {
		return "– (0)"
	}
	return fmt.Sprintf("%.1f%% (%d)", 100*float64(correct)/float64(total), total)
}

func (rep *Report) timeTable(w io.Writer) {
	fmt.Fprintf(w, "## Time\n\n| | network | examples | learning (validation included, all semantics) | scoring | Weka (3 classifiers) |\n|---|---:|---:|---:|---:|---:|\n")
	for _, r := range rep.Rows {
		var learning time.Duration
		for _, l := range r.Semantics {
			learning += l.Learning.Total()
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.Dataset.Label, experiment.Duration(r.NetworkTime), experiment.Duration(r.ExamplesTime),
			experiment.Duration(learning), experiment.Duration(r.Evaluate), experiment.Duration(r.Baseline))
	}
	fmt.Fprintln(w)
}

func (rep *Report) theory(w io.Writer) {
	if len(rep.Rows) == 0 {
		return
	}
	r := rep.Rows[0]
	fmt.Fprintf(w, "## The learned %s theory\n\n", r.Dataset.Label)
	fmt.Fprintf(w, "Highest level first, as in the paper's table of its NLTCS theory. Excerpt: at most %d rules a level and %d levels; ",
		excerptPerLevel, excerptLevels)
	fmt.Fprintf(w, "the full theories are in ")
	var files []string
	for _, r := range rep.Rows {
		files = append(files, "`"+r.Dataset.Name+".theory`")
	}
	fmt.Fprintf(w, "%s.\n\n```\n%s```\n", strings.Join(files, ", "), experiment.Excerpt(r.Theory, excerptPerLevel, excerptLevels))
}
