package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/xgboost"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka"
)

// defaultJavaMemory is the Java heap of every command that runs Weka
// (--java-memory): enough for RandomForest -I 100 on the largest crowd
// dataset, the Pluribus poker decisions.
const defaultJavaMemory = "2g"

// findWeka returns the Weka runner of the baselines with the given Java
// heap, or nil when want is false; hint says how to do without Weka.
func findWeka(want bool, memory, hint string) (*weka.Runner, error) {
	if !want {
		return nil, nil
	}
	r, err := weka.Find()
	if err != nil {
		return nil, fmt.Errorf("%w; %s", err, hint)
	}
	r.Memory = memory
	return r, nil
}

// findXGBoost returns XGBoost's runner, or nil when want is false; hint
// says how to do without it.
func findXGBoost(want bool, hint string) (*xgboost.Runner, error) {
	if !want {
		return nil, nil
	}
	r, err := xgboost.Find()
	if err != nil {
		return nil, fmt.Errorf("%w; %s", err, hint)
	}
	return r, nil
}

// benchBaselines say which baselines a reproduction runs and with what
// Java heap (--weka, --xgboost, --java-memory).
type benchBaselines struct {
	weka, xgboost bool
	memory        string
}

// runBench runs a reproduction whose settings are s (startBench) and
// prints the rows it returns for a person (sizes heads the size column,
// wrote says what the output directory holds) or as JSON. reproduce
// returns the output directory and the rows.
func runBench[R benchRow](cmd *cobra.Command, s *experiment.Settings, b benchBaselines, asJSON bool,
	reproduce func(context.Context) (string, []R, error), label func(R) string, sizes, wrote string) error {
	var dir string
	var rows []R
	err := startBench(cmd, s, b, func(ctx context.Context) error {
		var err error
		dir, rows, err = reproduce(ctx)
		return err
	})
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if asJSON {
		return writeJSON(w, newBenchJSON(dir, s.Command, rows, label))
	}
	printAccuracies(w, rows, label, sizes)
	fmt.Fprintf(w, "%s in %s (see results.md)\n", wrote, dir)
	return nil
}

// startBench finds the baselines' runners for s, records the command line
// and runs run in s.Dir with progress on stderr, stopping cleanly on Ctrl-C
// (a second Ctrl-C ends it at once).
func startBench(cmd *cobra.Command, s *experiment.Settings, b benchBaselines, run func(context.Context) error) error {
	var err error
	if s.Weka, err = findWeka(b.weka, b.memory, "or pass --weka=false to leave the baselines out"); err != nil {
		return err
	}
	if s.XGBoost, err = findXGBoost(b.xgboost, "or pass --xgboost=false to leave it out"); err != nil {
		return err
	}
	s.Command = commandLine(cmd)
	return runInDir(s.Dir, func() error {
		p := newBenchProgress(cmd.ErrOrStderr())
		ctx, stop := interruptible()
		defer stop()
		s.Progress = p.event
		err := run(ctx)
		p.finish()
		return err
	})
}

// benchRow is a row of a reproduction's results.
type benchRow interface {
	Accuracies() []float64
	Others() []float64
	Learned() []*experiment.Learned
	Result(name string) *weka.Result
}

// printAccuracies prints the results table of a reproduction for a
// person: the accuracy of the theory of each semantics and of the
// baselines, and the sizes of the theories and of the J48 tree.
func printAccuracies[R benchRow](w io.Writer, rows []R, label func(R) string, sizes string) {
	if len(rows) == 0 {
		return
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(label(r)))
	}
	var cols []string
	for _, l := range rows[0].Learned() {
		cols = append(cols, fmt.Sprintf("%8s", experiment.SemanticsColumn(l.Semantics)))
	}
	for _, c := range append(slices.Clone(experiment.Columns[1:]), experiment.OtherColumns...) {
		cols = append(cols, fmt.Sprintf("%8s", c))
	}
	fmt.Fprintf(w, "%-*s %s   %s\n", width, "", strings.Join(cols, " "), sizes)
	for _, r := range rows {
		var cells, lits []string
		for _, l := range r.Learned() {
			cells = append(cells, fmt.Sprintf("%8.1f", 100*l.Accuracy()))
			lits = append(lits, fmt.Sprint(l.Literals()))
		}
		for _, a := range append(r.Accuracies()[1:], r.Others()...) {
			if a != a { // NaN: a baseline that was not run
				cells = append(cells, fmt.Sprintf("%8s", "-"))
				continue
			}
			cells = append(cells, fmt.Sprintf("%8.1f", a))
		}
		nodes := "-"
		if b := r.Result("C4.5"); b != nil {
			nodes = fmt.Sprint(b.TreeSize)
		}
		fmt.Fprintf(w, "%-*s %s   %s / %s\n", width, label(r), strings.Join(cells, " "), strings.Join(lits, ", "), nodes)
	}
}

// parseSemanticsList reads the --semantics-list of the bench commands.
func parseSemanticsList(names []string) ([]possibilistic.Semantics, error) {
	var out []possibilistic.Semantics
	for _, n := range names {
		s, err := possibilistic.ParseSemantics(n)
		if err != nil {
			return nil, usageError{fmt.Errorf("--semantics-list: %w", err)}
		}
		out = append(out, s)
	}
	return out, nil
}

// benchJSON is a reproduction's results table: per row, the accuracy and
// size of the theory of each semantics and the baselines' accuracies, as
// fractions (null for a baseline that was not run).
type benchJSON struct {
	Output  string         `json:"output"`
	Command string         `json:"command"`
	Rows    []benchRowJSON `json:"rows"`
}

type benchRowJSON struct {
	Name      string              `json:"name"`
	Theories  []benchTheoryJSON   `json:"theories"`
	Baselines []benchBaselineJSON `json:"baselines"`
	// J48Nodes is the size of C4.5's tree (0 when Weka did not run).
	J48Nodes int `json:"j48_nodes"`
}

type benchTheoryJSON struct {
	Semantics string  `json:"semantics"`
	Accuracy  float64 `json:"accuracy"`
	Literals  int     `json:"literals"`
}

type benchBaselineJSON struct {
	Name     string   `json:"name"`
	Accuracy *float64 `json:"accuracy"`
}

func newBenchJSON[R benchRow](dir, command string, rows []R, label func(R) string) *benchJSON {
	out := &benchJSON{Output: dir, Command: command, Rows: []benchRowJSON{}}
	for _, r := range rows {
		row := benchRowJSON{Name: label(r), Theories: []benchTheoryJSON{}, Baselines: []benchBaselineJSON{}}
		for _, l := range r.Learned() {
			row.Theories = append(row.Theories, benchTheoryJSON{Semantics: l.Semantics.String(), Accuracy: l.Accuracy(), Literals: l.Literals()})
		}
		accs := append(r.Accuracies()[1:], r.Others()...)
		for i, name := range append(slices.Clone(experiment.Columns[1:]), experiment.OtherColumns...) {
			b := benchBaselineJSON{Name: name}
			if a := accs[i]; a == a { // NaN: not run
				frac := a / 100
				b.Accuracy = &frac
			}
			row.Baselines = append(row.Baselines, b)
		}
		if b := r.Result("C4.5"); b != nil {
			row.J48Nodes = b.TreeSize
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// commandLine rebuilds the command line from the flags that were given, for
// results.md.
func commandLine(cmd *cobra.Command) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case f.Value.Type() == "bool" && f.Value.String() == "true":
			parts = append(parts, "--"+f.Name)
		case f.Value.Type() == "bool":
			parts = append(parts, "--"+f.Name+"="+f.Value.String())
		case f.Value.Type() == "stringSlice":
			parts = append(parts, "--"+f.Name, strings.Trim(f.Value.String(), "[]"))
		default:
			parts = append(parts, "--"+f.Name, f.Value.String())
		}
	})
	return strings.Join(parts, " ")
}

// benchProgress shows a reproduction's steps on stderr, one line each; the
// counted work (growing trees, labelling examples) and the learning
// iterations show as a bar on a terminal, and otherwise as a line per
// iteration or per minute, whichever is rarer (quietInterval), and a line
// when a counted stage ends (progress).
type benchProgress struct{ *progress }

func newBenchProgress(w io.Writer) *benchProgress { return &benchProgress{newProgress(w)} }

func (p *benchProgress) event(e experiment.Event) {
	switch {
	case e.Iteration != nil:
		p.iteration(e)
	case e.Total > 0:
		p.counted(e)
	default:
		p.finish()
		if e.Subject == "" {
			fmt.Fprintf(p.w, "%s\n", e.Message)
		} else {
			fmt.Fprintf(p.w, "%s: %s\n", e.Subject, e.Message)
		}
	}
}

// counted shows the progress of a counted stage.
func (p *benchProgress) counted(e experiment.Event) {
	key := e.Subject + " " + e.Stage
	if !p.terminal {
		if e.Done == e.Total || p.due() {
			fmt.Fprintf(p.w, "  %s: %d of %d\n", key, e.Done, e.Total)
		}
		return
	}
	p.count(key, int64(e.Done), int64(e.Total), "")
}

func (p *benchProgress) iteration(e experiment.Event) {
	it := e.Iteration
	desc := fmt.Sprintf("%s %s: train %.3f", e.Subject, e.Step, it.TrainAccuracy)
	if it.TestAccuracy == it.TestAccuracy {
		desc += fmt.Sprintf(", validation %.3f", it.TestAccuracy)
	}
	desc += fmt.Sprintf(", %d rules, %d literals", it.Rules, it.Literals)
	if !p.terminal {
		if p.due() {
			fmt.Fprintf(p.w, "  iteration %d %s (%s)\n", it.Iteration, desc, it.Elapsed.Round(time.Second))
		}
		return
	}
	p.count(e.Subject+" "+e.Step, int64(it.Iteration), int64(e.MaxIterations), desc)
}
