package repro

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/possibilistic"
)

// Excerpt sizes in results.md.
const (
	excerptPerLevel = 4
	excerptLevels   = 10
)

// WriteMarkdown writes the report: the accuracy table in the layout of the
// paper's Table 2, the sizes of the models, how each theory was learned,
// the data, the command, and an excerpt of each theory.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	o := rep.Options
	title := "Reproduction of the paper's crowdsourcing experiment (§5.2, Tables 1 and 2)"
	if o.Quick {
		title += " — quick version"
	}
	rep.WriteHeader(bw, title, o.Command, o.Seed)

	rep.accuracyTable(bw)
	rep.sizeTable(bw)
	rep.learningTable(bw)
	rep.dataTable(bw)
	rep.theories(bw)
	return bw.Flush()
}

func (rep *Report) accuracyTable(w io.Writer) {
	fmt.Fprintf(w, "## Test-set accuracy (%%) on the most typical action\n\n")
	var cols []string
	for _, sem := range rep.Options.Semantics {
		cols = append(cols, experiment.SemanticsColumn(sem))
	}
	cols = append(cols, Columns[1:]...)
	fmt.Fprintf(w, "| | %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", len(cols)))
	for _, r := range rep.Rows {
		var acc []float64
		for _, l := range r.Semantics {
			acc = append(acc, 100*l.Accuracy())
		}
		acc = append(acc, r.Accuracies()[1:]...)
		fmt.Fprintf(w, "| %s | %s |\n", r.Domain.Label, strings.Join(experiment.Cells(acc), " | "))
	}
	fmt.Fprintf(w, "\nThe best of a row is in bold; – marks a baseline that was not run (no Weka). ")
	fmt.Fprintf(w, "Poss. predicts action a for a situation when (Θ, situation) ⊢poss a for exactly one action a, and none otherwise; ")
	fmt.Fprintf(w, "Linear and Lex do the same with a theory learned and queried under linear and lexicographic entailment; ")
	fmt.Fprintf(w, "the baselines (Weka's RandomForest -I 100, J48, JRip) learn the same targets from the training situations. ")
	fmt.Fprintf(w, "Train and test annotators are disjoint.\n\n")
	var paper []string
	for _, r := range rep.Rows {
		if r.Domain.Paper != nil {
			paper = append(paper, fmt.Sprintf("%s %s", r.Domain.Label, strings.Join(experiment.Cells(r.Domain.Paper), " / ")))
		}
	}
	if len(paper) > 0 {
		fmt.Fprintf(w, "The paper's Table 2, on its crowd answers (not these data), same columns: %s.\n\n", strings.Join(paper, "; "))
	}
}

func (rep *Report) sizeTable(w io.Writer) {
	fmt.Fprintf(w, "## Size of the models\n\n")
	var head, rule string
	for _, sem := range rep.Options.Semantics {
		head += fmt.Sprintf(" %s theory size (rules, levels) | J48 nodes / %s size |", experiment.SemanticsColumn(sem), experiment.SemanticsColumn(sem))
		rule += "---:|---:|"
	}
	fmt.Fprintf(w, "| |%s J48 tree nodes | JRip rules |\n", head)
	fmt.Fprintf(w, "|---|%s---:|---:|\n", rule)
	for _, r := range rep.Rows {
		nodes, rules := "–", "–"
		b := r.Result("C4.5")
		if b != nil {
			nodes = fmt.Sprint(b.TreeSize)
		}
		if b := r.Result("RIPPER"); b != nil {
			rules = fmt.Sprint(b.Rules)
		}
		var cells string
		for _, l := range r.Semantics {
			m := l.Learning.Model
			ratio := "–"
			if b != nil && l.Literals() > 0 {
				ratio = fmt.Sprintf("%.1f", float64(b.TreeSize)/float64(l.Literals()))
			}
			cells += fmt.Sprintf(" %d (%d, %d) | %s |", l.Literals(), m.NumClauses(), len(m.Levels), ratio)
		}
		fmt.Fprintf(w, "| %s |%s %s | %s |\n", r.Domain.Label, cells, nodes, rules)
	}
	fmt.Fprintf(w, "\nTheory size: the sum of rule lengths, hard rules excluded. ")
	fmt.Fprintf(w, "The paper: \"the size of the poker theory, as a sum of rule lengths, is more than 10 times smaller than the number of nodes in the learned tree\".\n\n")
}

func (rep *Report) learningTable(w io.Writer) {
	fmt.Fprintf(w, "## How the theories were learned, and other scores\n\n")
	fmt.Fprintf(w, "| | semantics | validation annotators | best validation iteration (accuracy) | chosen iterations (accuracy) | final run | learning time | train accuracy | binary test accuracy | majority class |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---:|---:|---:|---|\n")
	for _, r := range rep.Rows {
		for _, l := range r.Semantics {
			lr := l.Learning
			val := "none"
			if v := lr.Validation; v != nil && v.Skipped != "" {
				val = "none: " + v.Skipped
			} else if v != nil {
				val = fmt.Sprintf("%d (%s)", len(v.HeldOut), strings.Join(v.HeldOut, ", "))
			}
			best, chosen := lr.Validation.Cells()
			binary := "–"
			if l.Semantics == possibilistic.Poss {
				binary = fmt.Sprintf("%.1f%%", 100*r.Binary.Accuracy())
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d iterations, %s | %s | %.1f%% | %s | %.1f%% (%s) |\n", r.Domain.Label, l.Semantics, val, best, chosen,
				len(lr.History), lr.Stop, experiment.Duration(lr.Total()), 100*lr.TrainAccuracy, binary, 100*r.Majority, r.MajorityAction)
		}
	}
	o := rep.Options
	fmt.Fprintf(w, "\nAccuracies of the learner are on default / non-default examples (binary); the validation annotators are training annotators held out ")
	fmt.Fprintf(w, "(%.0f%% of the training answers) to choose the number of iterations by the one-standard-error rule, then the theory is learned on all ", 100*o.Validation)
	fmt.Fprintf(w, "training annotators. Settings: at most %d iterations", o.Iterations)
	if o.Timeout > 0 {
		fmt.Fprintf(w, ", %s of learning per domain (validation gets 40%%)", o.Timeout)
	}
	fmt.Fprintf(w, ", validation patience %d, candidates %s, training patience %s, test fraction %.2f, seed %d.\n\n",
		o.ValidationPatience, experiment.OrDefault(o.Candidates), experiment.OrDefault(o.Patience), o.TestFraction, o.Seed)
}

func (rep *Report) dataTable(w io.Writer) {
	fmt.Fprintf(w, "## Data\n\n")
	fmt.Fprintf(w, "| | source | answers | annotators train + test | defaults train / test | situations train / test | descriptors |\n")
	fmt.Fprintf(w, "|---|---|---:|---|---|---|---:|\n")
	for _, r := range rep.Rows {
		m := r.Manifest
		fmt.Fprintf(w, "| %s | %s | %d | %d + %d | %d / %d | %d / %d | %d |\n", r.Domain.Label, r.Domain.Source,
			m.Train.Answers+m.Test.Answers, len(m.Train.Annotators), len(m.Test.Annotators),
			m.Train.Positive, m.Test.Positive, m.Train.Situations, m.Test.Situations, m.Descriptors)
	}
	fmt.Fprintln(w)
	for _, r := range rep.Rows {
		keys := make([]string, 0, len(r.Input))
		for k := range r.Input {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			parts = append(parts, fmt.Sprintf("%s %d", strings.ReplaceAll(k, "_", " "), r.Input[k]))
		}
		fmt.Fprintf(w, "- %s: %s; test annotators %s. Time: reading and building %s, learning %s, scoring %s, Weka %s.\n",
			r.Domain.Label, strings.Join(parts, ", "), strings.Join(r.Manifest.Test.Annotators, ", "),
			experiment.Duration(r.Prepare), experiment.Duration(learningTime(r)), experiment.Duration(r.Evaluate), experiment.Duration(r.Baseline))
		for _, w2 := range r.Warnings {
			fmt.Fprintf(w, "  - warning: %s\n", w2)
		}
	}
	fmt.Fprintf(w, "\nNon-defaults are as many as defaults (the same situation with a random other action). Each domain's directory holds the datasets ")
	fmt.Fprintf(w, "(`strata crowd eval DIR THEORY --weka` scores them again) and the learning histories (`history.csv`, `validation.csv`).\n\n")
}

func (rep *Report) theories(w io.Writer) {
	fmt.Fprintf(w, "## Learned theories\n\n")
	fmt.Fprintf(w, "Highest level first, as in the paper's Table 1; weight 1 holds the hard rules. Excerpts: at most %d rules a level and %d levels; ",
		excerptPerLevel, excerptLevels)
	fmt.Fprintf(w, "the full theories are in the files named.\n\n")
	for _, r := range rep.Rows {
		fmt.Fprintf(w, "### %s (`%s.theory`)\n\n```\n%s```\n\n", r.Domain.Label, r.Domain.Name, experiment.Excerpt(r.Theory, excerptPerLevel, excerptLevels))
		fmt.Fprintf(w, "Its predictions on the test situations (rows: most typical action; columns: predicted):\n\n```\n")
		r.Poss.Write(w)
		fmt.Fprintf(w, "```\n\n")
	}
}

// learningTime sums the learning time of a row's theories.
func learningTime(r *Row) time.Duration {
	var d time.Duration
	for _, l := range r.Semantics {
		d += l.Learning.Total()
	}
	return d
}
