package experiment

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// Row is what every reproduction reports about one subject (a domain, a
// dataset); the reproductions' rows embed it.
type Row struct {
	Label string // the subject as the paper names it
	// Semantics holds the theory learned under each semantics of
	// Settings.Semantics, poss first.
	Semantics []*Learned
	// Baselines are Weka's results on the same data, in the order of
	// weka.Baselines; nil when Weka was not run.
	Baselines Baselines
	// Boosting is XGBoost's result on the same data, nil when it was not
	// run; Majority the majority class's (its class in Options).
	Boosting, Majority *weka.Result
	// Paper holds the paper's accuracies in the order of Columns, or nil
	// when the paper has no row for the subject.
	Paper []float64
}

// Learned returns the theories learned under each semantics, poss first.
func (r *Row) Learned() []*Learned { return r.Semantics }

// Result returns the baseline named as the paper's table names it ("RF",
// "C4.5", "RIPPER"), or nil.
func (r *Row) Result(name string) *weka.Result { return r.Baselines.Result(name) }

// Accuracies returns the test accuracies in % in the paper's column order
// (Poss., Rand. F., C4.5, RIPPER); a baseline that was not run is NaN.
func (r *Row) Accuracies() []float64 { return r.Baselines.Accuracies(r.Semantics[0].Accuracy()) }

// Report is a reproduction's results.md: a title, the line saying how it
// was made, and sections, the shared ones (AccuracyTable, SizeTable,
// LearningTable) and the reproduction's own.
type Report struct {
	Title    string
	Settings *Settings
	Run      Run
	Rows     []*Row
}

// A Section writes one part of a report.
type Section func(w io.Writer, rep *Report)

// WriteMarkdown writes the title, the header line and the sections.
func (rep *Report) WriteMarkdown(w io.Writer, sections ...Section) error {
	bw := bufio.NewWriter(w)
	title := rep.Title
	if rep.Settings.Quick {
		title += " — quick version"
	}
	rep.Run.WriteHeader(bw, title, rep.Settings.Command, rep.Settings.Seed)
	for _, s := range sections {
		s(bw, rep)
	}
	return bw.Flush()
}

// AccuracyTable returns the section of the test-set accuracies: one column
// per semantics, then the baselines, then the paper's figures when it has
// any for these subjects; note explains the table.
func AccuracyTable(heading, note string) Section {
	return func(w io.Writer, rep *Report) {
		fmt.Fprintf(w, "## %s\n\n", heading)
		cols := accuracyColumns(rep.Settings.Semantics)
		n := len(cols)
		paper := false
		for _, r := range rep.Rows {
			paper = paper || r.Paper != nil
		}
		if paper {
			cols = append(cols, "paper: "+strings.Join(Columns, " | "))
			n += len(Columns)
		}
		fmt.Fprintf(w, "| | %s |\n|---|%s\n", strings.Join(cols, " | "), strings.Repeat("---:|", n))
		for _, r := range rep.Rows {
			row := cells(r.AllAccuracies())
			if paper {
				p := cells(r.Paper)
				if r.Paper == nil {
					p = strings.Split(strings.Repeat("–", len(Columns)), "")
				}
				row = append(row, p...)
			}
			fmt.Fprintf(w, "| %s | %s |\n", r.Label, strings.Join(row, " | "))
		}
		fmt.Fprintf(w, "\nThe best of a row is in bold; – marks a baseline that was not run (no Weka, or no XGBoost). %s\n\n", note)
	}
}

// SizeTable returns the section comparing the sizes of the models: each
// theory's literals (rules, levels) and its ratio to the J48 tree's nodes,
// then J48's nodes and leaves and JRip's rules; note explains the table.
func SizeTable(note string) Section {
	return func(w io.Writer, rep *Report) {
		fmt.Fprintf(w, "## Size of the models\n\n")
		var head, rule string
		for _, sem := range rep.Settings.Semantics {
			c := SemanticsColumn(sem)
			head += fmt.Sprintf(" %s literals (rules, levels) | %s literals / J48 nodes |", c, c)
			rule += "---:|---:|"
		}
		fmt.Fprintf(w, "| |%s J48 tree nodes | J48 leaves | JRip rules |\n", head)
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
				m := l.Learning.Hypothesis
				ratio := "–"
				if b != nil && b.TreeSize > 0 {
					ratio = fmt.Sprintf("%.2f", float64(l.Literals())/float64(b.TreeSize))
				}
				cells += fmt.Sprintf(" %d (%d, %d) | %s |", l.Literals(), m.NumClauses(), len(m.Levels), ratio)
			}
			fmt.Fprintf(w, "| %s |%s %s | %s | %s |\n", r.Label, cells, nodes, leaves, rules)
		}
		fmt.Fprintf(w, "\nLiterals: the sum of the rule lengths of a theory, hard rules excluded, as the paper counts a theory's size; ")
		fmt.Fprintf(w, "a ratio below 1 means the theory is smaller than the tree. %s\n\n", note)
	}
}

// A Column is an extra column of the learning table: its heading and its
// cell for a row's theory.
type Column struct {
	Heading string
	Cell    func(r int, l *Learned) string
}

// LearningTable returns the section saying how each theory was learned:
// the held-out groups (what names them, plural), the validation run, the
// chosen and final iterations, the time and training accuracy, the extra
// columns, and the settings; per is what the timeout is per ("domain",
// "dataset").
func LearningTable(heading, what, per string, extra ...Column) Section {
	return func(w io.Writer, rep *Report) {
		fmt.Fprintf(w, "## %s\n\n", heading)
		fmt.Fprintf(w, "| | semantics | held out (%s) | best validation iteration (score) | chosen iterations (score) | final run |", what)
		rule := "|---|---|---|---|---|---|"
		if rep.Settings.Learning.Prune {
			fmt.Fprintf(w, " support pruning |")
			rule += "---|"
		}
		fmt.Fprintf(w, " learning time | train accuracy |")
		rule += "---:|---:|"
		for _, c := range extra {
			fmt.Fprintf(w, " %s |", c.Heading)
			rule += "---:|"
		}
		fmt.Fprintf(w, "\n%s\n", rule)
		for i, r := range rep.Rows {
			for _, l := range r.Semantics {
				lr := l.Learning
				val := "none"
				if v := lr.Validation; v != nil && v.Skipped != "" {
					val = "none: " + v.Skipped
				} else if v != nil && v.Folds > 0 {
					val = fmt.Sprintf("all: %d %s in %d folds (%d %s), learning on about %d examples each", v.Held, v.Scored, v.Folds, len(v.HeldOut), what, v.FitExamples)
				} else if v != nil {
					val = fmt.Sprintf("%d %s (%d: %s), learning on %d examples", v.Held, v.Scored, len(v.HeldOut), heldOut(v.HeldOut, 8), v.FitExamples)
				}
				best, chosen := lr.Validation.cells()
				fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d iterations, %s |", r.Label, l.Semantics, val, best, chosen, len(lr.History), lr.Stop)
				if rep.Settings.Learning.Prune {
					fmt.Fprintf(w, " %s |", lr.pruningCell())
				}
				fmt.Fprintf(w, " %s | %.1f%% |", Duration(lr.Total()), 100*lr.TrainAccuracy)
				for _, c := range extra {
					fmt.Fprintf(w, " %s |", c.Cell(i, l))
				}
				fmt.Fprintln(w)
			}
		}
		s := rep.Settings.Learning.Defaulted()
		switch {
		case s.Folds > 1:
			fmt.Fprintf(w, "\nThe number of iterations is chosen on the training data, never the test data, in %d folds of whole %s: ", s.Folds, what)
			fmt.Fprintf(w, "a run on the other folds scores each fold after every iteration, the folds' scores are pooled iteration by iteration (a cross-validation, so every training example is scored once; the learning times add up the folds' runs, which run as many at once as there are threads), and ")
		case s.Folds == 1:
			fmt.Fprintf(w, "\nThe number of iterations is chosen on training data held out by whole %s (%.0f%% of them), never on the test data: ", what, 100*s.Validation)
			fmt.Fprintf(w, "a first run learns on the other training examples and scores the held-out part after every iteration, ")
		default:
			fmt.Fprintf(w, "\nNo training data are held out: each theory is learned with at most the iteration limit. ")
		}
		if s.Folds > 0 {
			fmt.Fprintf(w, "as the test is scored (the score columns), ")
			switch s.Rule {
			case learn.BestScore:
				fmt.Fprintf(w, "the number of iterations with the best score is kept (the earliest of equal ones; --choose best), and the theory is learned on all training examples ")
			case learn.Paired:
				fmt.Fprintf(w, "the smallest number of iterations whose score is below the best by at most one standard error of their paired difference is kept (the square root of the held-out cases the two answer differently, over the cases: --choose paired; on a plateau of the curve, its first iteration), and the theory is learned on all training examples ")
			default:
				fmt.Fprintf(w, "the smallest number of iterations within one standard error of the best score is kept (the one-standard-error rule, with Agresti and Coull's adjusted standard error, which does not vanish near 100%%, ")
				fmt.Fprintf(w, "which prefers the smaller theory as the paper's structural risk minimisation does), and the theory is learned on all training examples ")
			}
			fmt.Fprintf(w, "with that many iterations. ")
		}
		if s.Prune {
			fmt.Fprintf(w, "Support pruning: the chosen hypothesis of the first run (of every fold's run, pooled as above) is pruned of every clause that at most t of its training examples need (t = 0, 1, 2, 3, 5, … up to %.0f%% of them, the support of a clause being the training score lost without it), ", 100*s.PruneShare)
			fmt.Fprintf(w, "the highest t whose held-out score is within one standard error of the best is kept, and the final theory loses every clause that at most the same share of all training examples needs (column: the threshold, the held-out scores chosen and unpruned, the literals before and after). ")
		}
		fmt.Fprintf(w, "Settings: %s", limit(s.Iterations, "iterations"))
		if s.Timeout > 0 {
			fmt.Fprintf(w, ", %s of learning per %s and semantics (validation gets 40%%, or 60%% with folds)", s.Timeout, per)
		}
		fmt.Fprintf(w, ", validation patience %s, candidates %d, training patience %s", patience(s.ValidationPatience), s.Candidates, patience(s.Patience))
		if s.Specialise > 0 {
			fmt.Fprintf(w, ", each iteration's chosen clause specialised by up to %d literals of the antecedent it was drawn from", s.Specialise)
		}
		if s.Grow > 0 {
			fmt.Fprintf(w, ", each iteration's candidates with %d more grown by information gain from the examples of as many of them", s.Grow)
		}
		if s.Tally == learn.SwitchOn {
			fmt.Fprintf(w, ", under lex a level of one-literal rules that vote also a candidate of the first iteration and of the powers of two")
		}
		fmt.Fprintf(w, ", seed %d.\n\n", rep.Settings.Seed)
	}
}

// heldOut lists at most n held-out groups.
func heldOut(groups []string, n int) string {
	if len(groups) <= n {
		return strings.Join(groups, ", ")
	}
	return strings.Join(groups[:n], ", ") + fmt.Sprintf(", … %d more", len(groups)-n)
}

// writeTheory writes l's theory to path, atomically, highest level first
// as in the paper's tables, after comment lines: about (where it comes
// from), its size and stop, its test accuracy, and the command.
func writeTheory(path string, l *Learned, s *Settings, about ...string) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error {
		lr, m := l.Learning, l.Learning.Hypothesis
		for _, a := range about {
			fmt.Fprintf(w, "# %s\n", a)
		}
		fmt.Fprintf(w, "# %d rules in %d levels, %d literals without the hard rules; %d iterations (%s), seed %d.\n",
			m.NumClauses(), len(m.Levels), m.NumLiterals(), len(lr.History), lr.Stop, s.Seed)
		fmt.Fprintf(w, "# Test accuracy under %s: %.1f%% of %d (%d correct).\n", l.Semantics, 100*l.Accuracy(), l.Total, l.Correct)
		if l.Semantics != possibilistic.Poss {
			fmt.Fprintf(w, "# Query it with --semantics %s: the file does not record the semantics.\n", l.Semantics)
		}
		if s.Command != "" {
			fmt.Fprintf(w, "# Command: %s\n", s.Command)
		}
		fmt.Fprintln(w)
		return l.Theory.WriteText(w)
	})
}

// theoryFile names the theory of subject name learned under sem:
// NAME.theory for poss, NAME.SEMANTICS.theory otherwise.
func theoryFile(name string, sem possibilistic.Semantics) string {
	if sem == possibilistic.Poss {
		return name + ".theory"
	}
	return name + "." + sem.String() + ".theory"
}
