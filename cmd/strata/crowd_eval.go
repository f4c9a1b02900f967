package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func newCrowdEvalCmd() *cobra.Command {
	var runWeka, confusion, asJSON bool
	var memory string
	var sem possibilistic.Semantics
	cmd := &cobra.Command{
		Use:   "eval DIR [THEORY]",
		Short: "Score a theory and the Weka baselines on a crowd dataset directory",
		Long: `eval scores a learned theory on the test part of a directory written by
crowd football, poker or table, as the paper does: multi-class accuracy of
predicting the most typical action of each test situation (the theory
predicts a when it entails exactly one action a, and none otherwise), binary
accuracy on test.defaults / test.nondefaults, and the theory's size as the
sum of its rule lengths (in all, and without the top level of weight 1,
where the hard rules are). With --weka it also trains Weka's RandomForest -I
100, J48 (C4.5) and JRip (RIPPER) on train.arff and tests them on test.arff,
and reports J48's tree size. Without THEORY only the baselines and the
majority-class floor are reported. --semantics (poss, linear or lex) says how
the theory entails; the theory file does not record it. --json prints the
same as JSON, with the theory's confusion table.`,
		Example: `  strata crowd eval calls calls.theory
  strata crowd eval out/poker poker.theory --weka --json`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return crowdEval(cmd, args, runWeka, confusion, asJSON, memory, sem)
		},
	}
	cmd.Flags().BoolVar(&runWeka, "weka", false, "also run the Weka baselines (needs bench/install-weka.sh)")
	cmd.Flags().BoolVar(&confusion, "confusion", false, "print the theory's confusion table")
	cmd.Flags().StringVar(&memory, "java-memory", defaultJavaMemory, "maximum Java heap for Weka")
	addSemantics(cmd.Flags(), &sem, semanticsUsage)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the accuracies, sizes and the theory's confusion table as JSON")
	return cmd
}

// crowdEvalJSON is what crowd eval reports: the majority floor, the
// theory's accuracies and size, and the baselines'.
type crowdEvalJSON struct {
	Domain         string           `json:"domain"`
	TestSituations int              `json:"test_situations"`
	TestAnnotators int              `json:"test_annotators"`
	Majority       majorityJSON     `json:"majority"`
	Theory         *crowdTheoryJSON `json:"theory,omitempty"`
	Baselines      []crowdBaseline  `json:"baselines"`
}

type majorityJSON struct {
	Action   string  `json:"action"`
	Accuracy float64 `json:"accuracy"`
}

// crowdTheoryJSON is the theory's score: on the most typical action of
// each test situation (Accuracy, Confusion), and on the test defaults and
// non-defaults (BinaryAccuracy).
type crowdTheoryJSON struct {
	Semantics      string  `json:"semantics"`
	Accuracy       float64 `json:"accuracy"`
	Formulas       int     `json:"formulas"`
	Levels         int     `json:"levels"`
	Literals       int     `json:"literals"`
	BelowTop       int     `json:"literals_below_top"`
	BinaryAccuracy float64 `json:"binary_accuracy"`
	Defaults       int     `json:"defaults"`
	Nondefaults    int     `json:"nondefaults"`
	TruePositives  int     `json:"true_positives"`
	TrueNegatives  int     `json:"true_negatives"`
	// Confusion is the confusion table of the most typical actions, with
	// its scores, as strata eval --table --json gives a table's.
	Confusion *jsonview.Confusion `json:"confusion"`

	confusion *eval.Confusion
}

type crowdBaseline struct {
	Name      string  `json:"name"`
	Accuracy  float64 `json:"accuracy"`
	TreeNodes int     `json:"tree_nodes,omitempty"`
	Leaves    int     `json:"leaves,omitempty"`
	Rules     int     `json:"rules,omitempty"`
}

func crowdEval(cmd *cobra.Command, args []string, runWeka, confusion, asJSON bool, memory string, sem possibilistic.Semantics) error {
	dir := args[0]
	m, err := crowd.ReadManifest(dir)
	if err != nil {
		return err
	}
	v := &logic.Vocabulary{}
	var th *possibilistic.Theory
	if len(args) == 2 {
		if th, err = loadTheory(cmd, args[1], v); err != nil {
			return err
		}
	}
	readCases := func(name string) ([]crowd.Case, error) {
		var cs []crowd.Case
		err := eachInput(cmd, []string{filepath.Join(dir, name)}, func(r io.Reader, n string) error {
			var err error
			cs, err = crowd.ReadCases(r, n, v, m.Actions)
			return err
		})
		return cs, err
	}
	train, err := readCases("train.typical")
	if err != nil {
		return err
	}
	test, err := readCases("test.typical")
	if err != nil {
		return err
	}
	if len(test) == 0 {
		// An accuracy over no situation would print as 0.0 %.
		return fmt.Errorf("%s: no test situations to score", filepath.Join(dir, "test.typical"))
	}
	// Weka before any output: a table printed and then a missing Weka
	// would leave half a report.
	r, err := findWeka(runWeka, memory, "or leave out --weka")
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	best, acc := eval.Majority(train, test)
	rep := crowdEvalJSON{Domain: m.Domain, TestSituations: len(test), TestAnnotators: len(m.Test.Annotators),
		Majority: majorityJSON{Action: best, Accuracy: acc}, Baselines: []crowdBaseline{}}
	if !asJSON {
		fmt.Fprintf(w, "%s: %d test situations by %d annotators\n", m.Domain, len(test), len(m.Test.Annotators))
		fmt.Fprintf(w, "%-22s %8s %s\n", "method", "accuracy", "size")
		fmt.Fprintf(w, "%-22s %7.1f%% always %s\n", "majority", 100*acc, best)
	}
	if th != nil {
		if rep.Theory, err = crowdEvalTheory(cmd, dir, th, m.Actions, test, sem); err != nil {
			return err
		}
		if !asJSON {
			if err := rep.Theory.write(w, confusion); err != nil {
				return err
			}
		}
	}
	if r == nil {
		if asJSON {
			return writeJSON(w, rep)
		}
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	stderr := cmd.ErrOrStderr()
	bs, _, err := experiment.RunBaselines(ctx, r, dir, m.Domain, func(e experiment.Event) { fmt.Fprintf(stderr, "running %s...\n", e.Message) })
	if err != nil {
		return err
	}
	for _, res := range bs {
		rep.Baselines = append(rep.Baselines, crowdBaseline{Name: res.Classifier.Name, Accuracy: res.Accuracy(), TreeNodes: res.TreeSize, Leaves: res.Leaves, Rules: res.Rules})
		if asJSON {
			continue
		}
		size := ""
		switch {
		case res.TreeSize > 0:
			size = fmt.Sprintf("%d tree nodes, %d leaves", res.TreeSize, res.Leaves)
		case res.Rules > 0:
			size = fmt.Sprintf("%d rules", res.Rules)
		}
		fmt.Fprintf(w, "%-22s %7.1f%% %s\n", res.Classifier.Name, 100*res.Accuracy(), size)
	}
	if asJSON {
		return writeJSON(w, rep)
	}
	return nil
}

func crowdEvalTheory(cmd *cobra.Command, dir string, th *possibilistic.Theory, actions []string, test []crowd.Case, sem possibilistic.Semantics) (*crowdTheoryJSON, error) {
	var pos, neg []logic.Rule
	for _, p := range []struct {
		name string
		dst  *[]logic.Rule
	}{{"test.defaults", &pos}, {"test.nondefaults", &neg}} {
		err := eachInput(cmd, []string{filepath.Join(dir, p.name)}, func(r io.Reader, n string) error {
			ds, err := defaults.ReadRules(r, n, th.Vocab)
			*p.dst = defaults.Rules(ds)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	r, err := possibilistic.NewReasoner(cmd.Context(), th)
	if err != nil {
		return nil, err
	}
	c, err := eval.Cases(cmd.Context(), r, sem, eval.NewClasses(th.Vocab, actions), test)
	if err != nil {
		return nil, err
	}
	formulas, literals := th.Size()
	soft := literals
	if len(th.Levels) > 0 && th.Levels[0].Weight == 1 {
		for _, f := range th.Levels[0].Formulas {
			soft -= f.Size()
		}
	}
	b, err := eval.Defaults(cmd.Context(), r, sem, pos, neg)
	if err != nil {
		return nil, err
	}
	return &crowdTheoryJSON{Semantics: sem.String(), Accuracy: c.Accuracy(), Formulas: formulas, Levels: len(th.Levels), Literals: literals,
		BelowTop: soft, BinaryAccuracy: b.Accuracy(), Defaults: len(pos), Nondefaults: len(neg),
		TruePositives: b.TruePositives, TrueNegatives: b.TrueNegatives, Confusion: jsonview.NewConfusion(c), confusion: c}, nil
}

// write prints the theory's rows of crowd eval's table and, with
// confusion, its confusion table.
func (t *crowdTheoryJSON) write(w io.Writer, confusion bool) error {
	sem, _ := possibilistic.ParseSemantics(t.Semantics)
	fmt.Fprintf(w, "%-22s %7.1f%% %d literals in %d formulas, %d levels (%d literals below the top level)\n",
		experiment.SemanticsColumn(sem)+" (theory)", 100*t.Accuracy, t.Literals, t.Formulas, t.Levels, t.BelowTop)
	fmt.Fprintf(w, "%-22s %7.1f%% on %d defaults and %d non-defaults (%d and %d right)\n", experiment.SemanticsColumn(sem)+" binary", 100*t.BinaryAccuracy,
		t.Defaults, t.Nondefaults, t.TruePositives, t.TrueNegatives)
	if confusion {
		fmt.Fprintln(w)
		return t.confusion.Write(w)
	}
	return nil
}
