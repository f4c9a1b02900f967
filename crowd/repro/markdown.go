package repro

import (
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
	er := &experiment.Report{Title: "Reproduction of the paper's crowdsourcing experiment (§5.2, Tables 1 and 2)",
		Settings: &rep.Options.Settings, Run: rep.Run}
	for _, r := range rep.Rows {
		er.Rows = append(er.Rows, &r.Row)
	}
	return er.WriteMarkdown(w,
		experiment.AccuracyTable("Test-set accuracy (%) on the most typical action",
			"Poss. predicts action a for a situation when (Θ, situation) ⊢poss a for exactly one action a, and none otherwise; "+
				"Linear and Lex do the same with a theory learned and queried under linear and lexicographic entailment; "+
				"the baselines (Weka's RandomForest -I 100, J48, JRip) learn the same targets from the training situations. "+
				"Train and test annotators are disjoint. The paper's columns are its Table 2, on its crowd answers (not these data)."),
		experiment.SizeTable("The paper: \"the size of the poker theory, as a sum of rule lengths, is more than 10 times smaller than the number of nodes in the learned tree\" (a ratio below 0.1)."),
		experiment.LearningTable("How the theories were learned, and other scores", "annotators", "domain",
			experiment.Column{Heading: "binary test accuracy", Cell: func(i int, l *experiment.Learned) string {
				if l.Semantics != possibilistic.Poss {
					return "–"
				}
				return fmt.Sprintf("%.1f%%", 100*rep.Rows[i].Binary.Accuracy())
			}},
			experiment.Column{Heading: "majority class", Cell: func(i int, l *experiment.Learned) string {
				return fmt.Sprintf("%.1f%% (%s)", 100*rep.Rows[i].Majority, rep.Rows[i].MajorityAction)
			}}),
		func(w io.Writer, _ *experiment.Report) { rep.dataTable(w) },
		func(w io.Writer, _ *experiment.Report) { rep.theories(w) })
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
	fmt.Fprintf(w, "\nNon-defaults are as many as defaults (the same situation with a random other action). ")
	if rep.Options.Typical {
		fmt.Fprintf(w, "The theories learn from the training answers each stating its situation's most typical action, the test's target, instead of its own (one default and one non-default per answer; the answers of a situation without one give none; `--examples typical`). ")
	} else {
		fmt.Fprintf(w, "The theories learn from the training defaults and non-defaults as they are, each answer's own action (`--examples answers`). ")
	}
	fmt.Fprintf(w, "Each domain's directory holds the datasets ")
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
