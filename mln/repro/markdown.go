package repro

import (
	"bufio"
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
	bw := bufio.NewWriter(w)
	o := rep.Options
	title := "Reproduction of the paper's MAP experiment (§5.3, the last four rows of its table of test-set accuracies)"
	if o.Quick {
		title += " — quick version"
	}
	rep.WriteHeader(bw, title, o.Command, o.Seed)
	rep.accuracyTable(bw)
	rep.sizeTable(bw)
	rep.dataTable(bw)
	rep.diagnosticsTable(bw)
	rep.learningTable(bw)
	rep.timeTable(bw)
	rep.theory(bw)
	return bw.Flush()
}

// columns returns the accuracy columns: one per semantics, then the
// baselines.
func (rep *Report) columns() []string {
	var cols []string
	for _, sem := range rep.Options.Semantics {
		cols = append(cols, experiment.SemanticsColumn(sem))
	}
	return append(cols, Columns[1:]...)
}

// accuracies returns a row's accuracies in % in the order of columns.
func (r *Row) accuracies() []float64 {
	var acc []float64
	for _, l := range r.Semantics {
		acc = append(acc, 100*l.Accuracy())
	}
	return append(acc, r.Accuracies()[1:]...)
}

func (rep *Report) accuracyTable(w io.Writer) {
	fmt.Fprintf(w, "## Test-set accuracy (%%)\n\n")
	cols := rep.columns()
	fmt.Fprintf(w, "| | %s | paper: %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Join(Columns, " | "),
		strings.Repeat("---:|", len(cols)+len(Columns)))
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "| %s | %s | %s |\n", r.Dataset.Label, strings.Join(experiment.Cells(r.accuracies()), " | "),
			strings.Join(experiment.Cells(r.Dataset.Paper), " | "))
	}
	o := rep.Options
	fmt.Fprintf(w, "\nEach dataset has %d training and %d test examples α |~ β (evidence α of 1 to %d literals, β one literal on another atom), ",
		o.Train, o.Test, o.MaxEvidence)
	how := "exact MAP"
	if o.Approx {
		how = "MaxWalkSAT"
	}
	fmt.Fprintf(w, "positive when (M, α) ⊢MAP β by %s in the learned network M. ", how)
	fmt.Fprintf(w, "Poss. predicts positive when the learned theory covers the example, (Θ, α) ⊢poss β; ")
	fmt.Fprintf(w, "Linear and Lex learn and score a theory of their own under linear entailment (the levels that clash with α and the levels kept above them are skipped, not drowned) ")
	fmt.Fprintf(w, "and lexicographic entailment (the models of α violating the fewest formulas, level by level from the top); ")
	fmt.Fprintf(w, "the baselines (Weka's RandomForest -I 100, J48 = C4.5, JRip = RIPPER, defaults otherwise) learn the same training examples ")
	fmt.Fprintf(w, "in the paper's encoding (two Boolean attributes per variable for the antecedent, two for the consequent). ")
	fmt.Fprintf(w, "The best of each row is in bold; – marks a baseline that was not run (no Weka). ")
	fmt.Fprintf(w, "The paper's columns are the last four rows of its table \"Test set accuracies\", on networks and examples of its own (same datasets, other networks and draws).\n\n")
}

func (rep *Report) sizeTable(w io.Writer) {
	fmt.Fprintf(w, "## Size of the models\n\n")
	var head, rule string
	for _, sem := range rep.Options.Semantics {
		head += fmt.Sprintf(" %s literals (rules, levels) | %s literals / J48 size |", experiment.SemanticsColumn(sem), experiment.SemanticsColumn(sem))
		rule += "---:|---:|"
	}
	fmt.Fprintf(w, "| |%s J48 tree size (nodes) | J48 leaves | JRip rules |\n", head)
	fmt.Fprintf(w, "|---|%s---:|---:|---:|\n", rule)
	for _, r := range rep.Rows {
		nodes, leaves, rules := "–", "–", "–"
		b := r.Result("C4.5")
		if b != nil {
			nodes, leaves = fmt.Sprint(b.TreeSize), fmt.Sprint(b.Leaves)
		}
		if b := r.Result("RIPPER"); b != nil {
			rules = fmt.Sprint(b.Rules)
		}
		var cells string
		for _, l := range r.Semantics {
			m := l.Learning.Model
			ratio := "–"
			if b != nil && b.TreeSize > 0 {
				ratio = fmt.Sprintf("%.2f", float64(l.Literals())/float64(b.TreeSize))
			}
			cells += fmt.Sprintf(" %d (%d, %d) | %s |", l.Literals(), m.NumClauses(), len(m.Levels), ratio)
		}
		fmt.Fprintf(w, "| %s |%s %s | %s | %s |\n", r.Dataset.Label, cells, nodes, leaves, rules)
	}
	fmt.Fprintf(w, "\nThe paper: the possibilistic theories contain \"approximately 50%% fewer literals than the decision trees\" ")
	fmt.Fprintf(w, "(a ratio of about 0.5 in the columns theory literals / J48 size, J48's size being its number of nodes).\n\n")
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
	fmt.Fprintf(w, "their ARFF encoding (train.arff, test.arff) and the learning histories (history.csv, validation.csv).\n\n")
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
	fmt.Fprintf(w, "| | majority class | sign rule | Poss. where α is consistent with Θ | Poss. where α drowns levels of Θ |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rep.Rows {
		d := r.Diagnostics
		fmt.Fprintf(w, "| %s | %.1f%% | %.1f%% | %s | %s |\n", r.Dataset.Label, 100*r.Counts.majority(), 100*d.SignRule,
			share(d.ConsistentCorrect, d.Consistent), share(d.InconsistentCorrect, d.Inconsistent))
	}
	fmt.Fprintf(w, "\nTest accuracies. The majority class predicts the more frequent label of the training examples; the sign rule predicts, ")
	fmt.Fprintf(w, "for each sign of the conclusion β, the label most training examples with that sign have (one attribute of the encoding suffices: ")
	fmt.Fprintf(w, "in sparse data most atoms are false in most probable worlds, so α |~ ¬x mostly holds and α |~ x mostly does not). ")
	fmt.Fprintf(w, "The last two columns split the test examples by whether the evidence α is consistent with the learned theory: ")
	fmt.Fprintf(w, "when it is not, every level at or below the inconsistency level is drowned, including the formulas unrelated to α.\n\n")
}

// share formats correct of total as a percentage with the total.
func share(correct, total int) string {
	if total == 0 {
		return "– (0)"
	}
	return fmt.Sprintf("%.1f%% (%d)", 100*float64(correct)/float64(total), total)
}

func (rep *Report) learningTable(w io.Writer) {
	fmt.Fprintf(w, "## How the theories were learned\n\n")
	fmt.Fprintf(w, "| | semantics | validation examples (evidence formulas) | best validation iteration (accuracy) | chosen iterations (accuracy) | final run | learning time | train accuracy |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---:|---:|\n")
	for _, r := range rep.Rows {
		for _, l := range r.Semantics {
			lr := l.Learning
			val := "none"
			if v := lr.Validation; v != nil && v.Skipped != "" {
				val = "none: " + v.Skipped
			} else if v != nil {
				val = fmt.Sprintf("%d of %d (%d)", v.Held, v.Held+v.FitExamples, len(v.HeldOut))
			}
			best, chosen := lr.Validation.Cells()
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d iterations, %s | %s | %.1f%% |\n", r.Dataset.Label, l.Semantics, val, best, chosen,
				len(lr.History), lr.Stop, experiment.Duration(lr.Total()), 100*lr.TrainAccuracy)
		}
	}
	o := rep.Options
	fmt.Fprintf(w, "\nThe validation examples are training examples held out by whole evidence formulas (%.0f%% of them), ", 100*o.Validation)
	fmt.Fprintf(w, "never test examples: a first run learns on the other training examples and scores them after every iteration; ")
	fmt.Fprintf(w, "the smallest number of iterations within one standard error of the best validation accuracy is kept (the one-standard-error rule, ")
	fmt.Fprintf(w, "which prefers the smaller theory as the paper's structural risk minimisation does), and the theory is learned on all training examples ")
	fmt.Fprintf(w, "with that many iterations. Settings: at most %d iterations", o.Iterations)
	if o.Timeout > 0 {
		fmt.Fprintf(w, ", %s of learning per dataset and semantics (validation gets 40%%; the paper gave its learner one hour)", o.Timeout)
	}
	fmt.Fprintf(w, ", validation patience %d, candidates %s, training patience %s, seed %d.\n\n",
		o.ValidationPatience, experiment.OrDefault(o.Candidates), experiment.Patience(o.Patience), o.Seed)
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
