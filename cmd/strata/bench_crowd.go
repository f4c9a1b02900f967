package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/crowd/repro"
	"github.com/strata-logic/strata/weka"
)

func init() { registerBench(newBenchCrowdCmd) }

func newBenchCrowdCmd() *cobra.Command {
	var o repro.Options
	var noWeka bool
	var memory string
	cmd := &cobra.Command{
		Use:   "crowd [-o DIR] [--quick] [--seed N] [--iterations N] [--timeout D]",
		Short: "Reproduce the paper's crowdsourcing experiment (Tables 1 and 2) on real football and poker decisions",
		Long: `crowd runs the paper's crowdsourcing experiment (§5.2) end to end on the public
stand-ins for its crowd data: NFL playoff play calls (the team is the
annotator), the fourth-down decisions of 2014-18 as a second football row, and
the Pluribus poker hands (the player is the annotator).

For each domain it builds the datasets split by annotator (as strata crowd
does), learns a theory with the heuristic learner (the pairwise exclusions of
the actions are the hard rules), scores it on the most typical action of each
test situation and on the test defaults / non-defaults, and runs Weka's
RandomForest -I 100, J48 (C4.5) and JRip (RIPPER) on the same situations.

The number of iterations is chosen on held-out training annotators
(--validation), never on the test annotators: a first run learns on the other
training annotators, the smallest iteration within one standard error of the
best validation accuracy is kept, and the theory is learned on all training
annotators with that many iterations. --timeout bounds the learning time of
each domain (the validation run gets 40% of it).

DIR receives results.md (the table in the paper's layout, the model sizes,
the command, an excerpt of each theory), poker.theory, football.theory and
fourth_down.theory (highest level first, as the paper's Table 1), and one
directory per domain with the datasets and learning histories. --quick runs
a small version (a few hundred decisions per domain, 5 iterations).

Weka is needed for the baselines (bench/install-weka.sh); --no-weka leaves
them out.`,
		Example: `  strata bench crowd -o out/bench-crowd
  strata bench crowd --quick -o /tmp/crowd-quick --no-weka`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBenchCrowd(cmd, o, noWeka, memory)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&o.Dir, "out", "o", filepath.Join("out", "bench-crowd"), "output directory")
	fl.StringVar(&o.Data, "data", filepath.Join("..", "shared", "data"), "the public data directory (holds football/ and poker/)")
	fl.BoolVar(&o.Quick, "quick", false, "a small version: a few hundred decisions per domain, 5 iterations")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the splits, the negative examples and the learner")
	fl.Float64Var(&o.TestFraction, "test-fraction", 0.3, "share of the answers held out for testing, by whole annotators")
	fl.IntVar(&o.Iterations, "iterations", 0, fmt.Sprintf("most iterations of a learning run (0: %d, or %d with --quick)", repro.DefaultIterations, repro.QuickIterations))
	fl.DurationVar(&o.Timeout, "timeout", 0, fmt.Sprintf("learning time per domain, validation included (0: %s; none with --quick)", repro.DefaultTimeout))
	fl.Float64Var(&o.Validation, "validation", repro.DefaultValidation, "share of the training answers (whole annotators) held out to choose the number of iterations; 0 or less: none")
	fl.IntVar(&o.Candidates, "candidates", 0, "candidate clauses per iteration (0: the learner's default)")
	fl.IntVar(&o.Threads, "threads", 0, "learner workers (0: all CPUs)")
	fl.StringSliceVar(&o.Domains, "domains", nil, "run only these domains (poker, football, fourth_down)")
	fl.BoolVar(&noWeka, "no-weka", false, "do not run the Weka baselines")
	fl.StringVar(&memory, "java-memory", "2g", "maximum Java heap for Weka")
	return cmd
}

func runBenchCrowd(cmd *cobra.Command, o repro.Options, noWeka bool, memory string) error {
	if o.Validation <= 0 {
		o.Validation = -1 // the library's zero means the default
	}
	if !(o.TestFraction > 0 && o.TestFraction < 1) {
		return usageError{fmt.Errorf("--test-fraction %v outside ]0, 1[", o.TestFraction)}
	}
	if o.Iterations < 0 || o.Timeout < 0 {
		return usageError{errors.New("--iterations and --timeout must not be negative")}
	}
	if !noWeka {
		r, err := weka.Find()
		if err != nil {
			return fmt.Errorf("%w; or pass --no-weka to leave the baselines out", err)
		}
		r.Memory = memory
		o.Weka = r
	}
	o.Command = commandLine(cmd)
	p := newBenchProgress(cmd.ErrOrStderr())
	o.Progress = p.event
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := repro.Reproduce(ctx, o)
	p.finish()
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%-20s %s   %s\n", "", strings.Join(padded(repro.Columns), " "), "theory size / J48 nodes")
	for _, r := range rep.Rows {
		var cells []string
		for _, a := range r.Accuracies() {
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
		fmt.Fprintf(w, "%-20s %s   %d / %s\n", r.Domain.Label, strings.Join(cells, " "), r.TheorySize(), nodes)
	}
	fmt.Fprintf(w, "results, theories and datasets in %s (see results.md)\n", rep.Options.Dir)
	return nil
}

func padded(cols []string) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = fmt.Sprintf("%8s", c)
	}
	return out
}

// commandLine rebuilds the command line from the flags that were given, for
// results.md.
func commandLine(cmd *cobra.Command) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch {
		case f.Value.Type() == "bool":
			parts = append(parts, "--"+f.Name)
		case f.Value.Type() == "stringSlice":
			parts = append(parts, "--"+f.Name, strings.Trim(f.Value.String(), "[]"))
		default:
			parts = append(parts, "--"+f.Name, f.Value.String())
		}
	})
	return strings.Join(parts, " ")
}

// benchProgress shows the steps on stderr, one line each, and the learning
// iterations as a bar on a terminal or as a line every tenth iteration
// otherwise.
type benchProgress struct {
	w        io.Writer
	terminal bool
	bar      *progressbar.ProgressBar
}

func newBenchProgress(w io.Writer) *benchProgress {
	p := &benchProgress{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *benchProgress) event(e repro.Event) {
	if e.Iteration == nil {
		p.finish()
		if e.Domain == "" {
			fmt.Fprintf(p.w, "%s\n", e.Message)
		} else {
			fmt.Fprintf(p.w, "%s: %s\n", e.Domain, e.Message)
		}
		return
	}
	it := e.Iteration
	desc := fmt.Sprintf("%s %s: train %.3f", e.Domain, e.Step, it.TrainAccuracy)
	if it.TestAccuracy == it.TestAccuracy {
		desc += fmt.Sprintf(", validation %.3f", it.TestAccuracy)
	}
	desc += fmt.Sprintf(", %d rules, %d literals", it.Rules, it.Literals)
	if p.terminal {
		if p.bar == nil {
			p.bar = progressbar.NewOptions(e.MaxIterations, progressbar.OptionSetWriter(p.w), progressbar.OptionShowCount(),
				progressbar.OptionSetElapsedTime(true), progressbar.OptionClearOnFinish())
		}
		p.bar.Describe(desc)
		p.bar.Set(it.Iteration)
		return
	}
	if it.Iteration%10 == 0 {
		fmt.Fprintf(p.w, "  iteration %d %s (%s)\n", it.Iteration, desc, it.Elapsed.Round(time.Second))
	}
}

func (p *benchProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
