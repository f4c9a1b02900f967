package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
)

func init() { register(newMLNCmd) }

func newMLNCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mln",
		Short: "Markov logic networks: learn them, MAP inference, MAP-entailment examples",
		Long: `mln works with propositional Markov logic networks, the models whose MAP
behaviour the paper's second experiment compiles into possibilistic theories.

Networks are files in Alchemy's propositional syntax (one "WEIGHT FORMULA"
per line, hard formulas end with '.', connectives ! ^ v => <=>) or, when the
name ends in .wcnf, in the weighted CNF format of MaxSAT solvers.`,
	}
	group(cmd)
	cmd.AddCommand(newMLNLearnCmd(), newMLNMapCmd(), newMLNExamplesCmd(), newMLNConvertCmd())
	return cmd
}

func newMLNLearnCmd() *cobra.Command {
	var out, test string
	var o mln.LearnOptions
	cmd := &cobra.Command{
		Use:   "learn TABLE -o NET.mln",
		Short: "Learn a network from a binary table (decision-tree features, PLL weights)",
		Long: `learn learns a Markov network from a table of comma-separated 0/1 rows (the
format of ../shared/data/debd), as Lowd and Davis's DTSL does: a probabilistic
decision tree for each variable over the others, each root-to-leaf path C of
the tree for x giving the feature C ^ x, weights maximising the
pseudo-log-likelihood with a Gaussian prior (L-BFGS). Atoms are named a1 ... an
after the columns. With --test, it reports the test pseudo-log-likelihood per
variable of the network and of the independent-variables model.`,
		Example: `  strata mln learn ../shared/data/debd/nltcs/nltcs.train.data -o nltcs.mln \
      --test ../shared/data/debd/nltcs/nltcs.test.data`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError{errors.New("learn needs -o NET.mln")}
			}
			train, err := mln.ReadTableFile(args[0])
			if err != nil {
				return err
			}
			bar := newMLNProgress(cmd.ErrOrStderr(), "learning")
			o.Progress = func(stage string, done, total int) { bar.set(stage, done, total) }
			start := time.Now()
			net, err := mln.Learn(train, o)
			bar.finish()
			if err != nil {
				return err
			}
			elapsed := time.Since(start)
			if err := writeNetwork(out, net); err != nil {
				return err
			}
			st := net.Stats()
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "network %s: %d atoms, %d weighted formulas, %d literals, learned from %d rows in %s\n",
				out, st.Atoms, st.Weighted, st.Literals, train.Rows(), elapsed.Round(time.Millisecond))
			if test == "" {
				return nil
			}
			tt, err := mln.ReadTableFile(test)
			if err != nil {
				return err
			}
			pll, err := mln.PLL(net, tt)
			if err != nil {
				return err
			}
			ind, err := mln.IndependentPLL(train, tt)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "test pseudo-log-likelihood per variable: %.4f (independent variables: %.4f)\n", pll, ind)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the network here (.wcnf for weighted CNF)")
	cmd.Flags().StringVar(&test, "test", "", "report the test PLL on this table")
	cmd.Flags().IntVar(&o.MaxDepth, "max-depth", 2, "longest tree path (features have at most this many literals plus one)")
	cmd.Flags().IntVar(&o.MinLeaf, "min-leaf", 20, "fewest training rows in a leaf")
	cmd.Flags().Float64Var(&o.Penalty, "penalty", 0, "least log-likelihood gain of a split, in nats (0: BIC, half the log of the rows)")
	cmd.Flags().Float64Var(&o.L2, "l2", 1, "precision of the Gaussian prior on the weights")
	return cmd
}

func newMLNMapCmd() *cobra.Command {
	var given, entails string
	var approx bool
	var walk mln.WalkOptions
	cmd := &cobra.Command{
		Use:   "map NET.mln --given 'a1, !a3'",
		Short: "Find a most probable world given evidence, or decide MAP entailment",
		Long: `map finds a most probable world of the network given the evidence (a
conjunction of literals), exactly or, with --map approx, by MaxWalkSAT. It prints
the world's true atoms, its cost (the weights of the formulas it violates, as
integers: cost / scale is the real cost) and its log-weight sum w_i f_i.

With --entails LIT it decides MAP entailment (M, alpha) |-MAP LIT: every most
probable world of the evidence satisfies LIT. The first line is "yes" or "no".`,
		Example: `  strata mln map nltcs.mln --given 'a1, !a3'
  strata mln map nltcs.mln --given 'a1, !a3' --entails a12`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			net, err := readNetwork(cmd, args[0])
			if err != nil {
				return err
			}
			alpha, err := parseEvidence(net, given)
			if err != nil {
				return err
			}
			e, err := mln.EngineFactory(net, approx, walk)()
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if entails != "" {
				return printMAPEntailment(w, net, e, alpha, entails)
			}
			world, cost, ok, err := e.MAP(alpha)
			if err != nil {
				return err
			}
			if !ok {
				fmt.Fprintln(w, "no world satisfies the evidence and the hard formulas")
				return nil
			}
			printWorld(w, net, e, world, cost)
			return nil
		},
	}
	cmd.Flags().StringVar(&given, "given", "", "evidence: literals separated by ','")
	cmd.Flags().StringVar(&entails, "entails", "", "decide whether the evidence MAP-entails this literal")
	addWalkFlags(cmd, &approx, &walk)
	return cmd
}

func addWalkFlags(cmd *cobra.Command, approx *bool, walk *mln.WalkOptions) {
	addMapFlag(cmd, approx, "MAP solver: exact, or approx (MaxWalkSAT)")
	cmd.Flags().IntVar(&walk.Flips, "flips", 100000, "MaxWalkSAT flips per try")
	cmd.Flags().IntVar(&walk.Tries, "tries", 1, "MaxWalkSAT restarts")
	cmd.Flags().Float64Var(&walk.Noise, "noise", 0.2, "MaxWalkSAT probability of a random flip")
	cmd.Flags().Uint64Var(&walk.Seed, "walk-seed", 1, "MaxWalkSAT random seed")
}

// parseEvidence reads a conjunction of literals over the network's atoms
// ("" is the empty one).
func parseEvidence(net *mln.Network, src string) (logic.Term, error) {
	atoms := net.NumAtoms() // parsing interns unknown names
	f, err := logic.ParseEvidence(net.Vocab, src)
	if err != nil {
		return nil, fmt.Errorf("--given: %w", err)
	}
	t, ok := f.AsTerm()
	if !ok {
		return nil, fmt.Errorf("--given: %q is not a conjunction of literals", src)
	}
	for _, l := range t {
		if int(l.Atom()) >= atoms {
			return nil, fmt.Errorf("--given: %s is not an atom of the network", net.Vocab.Name(l.Atom()))
		}
	}
	return t, nil
}

func printWorld(w io.Writer, net *mln.Network, e mln.Engine, world []bool, cost int64) {
	var on []string
	atoms := 0
	for a, x := range world {
		name := net.Vocab.Name(logic.Atom(a))
		if strings.HasPrefix(name, "_") {
			continue // an auxiliary atom of a WCNF file
		}
		atoms++
		if x {
			on = append(on, name)
		}
	}
	score, _ := net.Score(world)
	kind := "a most probable world"
	if _, ok := e.(*mln.Approx); ok {
		kind = "the best world MaxWalkSAT found"
	}
	fmt.Fprintf(w, "%s: %d of %d atoms true\n", kind, len(on), atoms)
	fmt.Fprintf(w, "true: %s\n", strings.Join(on, " "))
	fmt.Fprintf(w, "cost %d (scale %g), log-weight %.6f\n", cost, e.Compiled().Scale, score)
}

func printMAPEntailment(w io.Writer, net *mln.Network, e mln.Engine, alpha logic.Term, src string) error {
	atoms := net.NumAtoms() // parsing interns unknown names
	f, err := logic.ParseFormula(net.Vocab, src)
	if err != nil {
		return fmt.Errorf("--entails: %w", err)
	}
	beta, ok := f.AsLit()
	if !ok || int(beta.Atom()) >= atoms {
		return fmt.Errorf("--entails: %q is not a literal on an atom of the network", src)
	}
	yes, err := mln.Entails(e, alpha, beta)
	if err != nil {
		return err
	}
	if yes {
		fmt.Fprintf(w, "yes\nevery most probable world of the evidence satisfies %s\n", src)
	} else {
		fmt.Fprintf(w, "no\nsome most probable world of the evidence falsifies %s\n", src)
	}
	return nil
}

func newMLNExamplesCmd() *cobra.Command {
	var out string
	var mo mln.MAPOptions
	var walk mln.WalkOptions
	cmd := &cobra.Command{
		Use:   "examples NET.mln -o DIR",
		Short: "Generate MAP-entailment examples alpha |~ beta (the paper's MAP experiment)",
		Long: `examples generates training and test examples of MAP entailment as in the
paper's section 5.3: evidence alpha, a conjunction of 1 to --max-evidence
literals on distinct atoms, and for each alpha up to --per-evidence
conclusions beta, literals on other atoms. alpha |~ beta is positive (a
default) when every most probable world of alpha satisfies beta, and negative
otherwise. With --map approx, MaxWalkSAT decides, and the labels are noisy,
which the learner tolerates (the paper's point).

It writes DIR/train.defaults, train.nondefaults, test.defaults and
test.nondefaults in the default-rule format. The examples depend only on the
network, the options and --seed.`,
		Example: `  strata mln examples nltcs.mln -o nltcs-map --seed 1
  strata mln examples plants.mln -o plants-map --map approx --train-examples 500 --test-examples 500`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError{errors.New("examples needs -o DIR")}
			}
			net, err := readNetwork(cmd, args[0])
			if err != nil {
				return err
			}
			mo.Walk = walk
			bar := newMLNProgress(cmd.ErrOrStderr(), "labelling")
			mo.Examples.Progress = func(done, total int) { bar.set("examples", done, total) }
			start := time.Now()
			train, test, err := mln.MAPExamples(net, mo)
			bar.finish()
			if err != nil {
				return err
			}
			if err := mln.WriteExamples(out, net.Vocab, train, test); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, set := range []struct {
				name string
				exs  []mln.Example
			}{{"train", train}, {"test", test}} {
				pos, neg := mln.Split(set.exs)
				fmt.Fprintf(w, "%s: %d positive, %d negative\n", set.name, len(pos), len(neg))
			}
			fmt.Fprintf(w, "written to %s in %s (%s MAP)\n", out, time.Since(start).Round(time.Millisecond), (*mapSolver)(&mo.Approx))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "directory for the example files")
	addMapFlag(cmd, &mo.Approx, "MAP solver labelling the examples: exact or approx (MaxWalkSAT)")
	f.IntVar(&mo.Train, "train-examples", 1000, "training examples")
	f.IntVar(&mo.Test, "test-examples", 1000, "test examples")
	alias(f, "train", "train-examples", true)
	f.IntVar(&mo.Examples.MaxEvidence, "max-evidence", 5, "most literals in the evidence alpha")
	f.IntVar(&mo.Examples.PerEvidence, "per-evidence", 10, "conclusions beta drawn for each alpha")
	f.Uint64Var(&mo.Examples.Seed, "seed", 1, "random seed (the test set uses seed+1)")
	f.IntVar(&walk.Flips, "flips", 100000, "MaxWalkSAT flips per try")
	f.IntVar(&walk.Tries, "tries", 1, "MaxWalkSAT restarts")
	f.Float64Var(&walk.Noise, "noise", 0.2, "MaxWalkSAT probability of a random flip")
	return cmd
}

func newMLNConvertCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert a network between Alchemy syntax and weighted CNF",
		Long: `convert reads a network and writes it in the format its output name asks
for: weighted CNF for a name ending in .wcnf, Alchemy syntax otherwise. The
WCNF file can be given to any MaxSAT solver to check strata's MAP answers.`,
		Example: `  strata mln convert nltcs.mln nltcs.wcnf`,
		Args:    argsBetween(2, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			net, err := readNetwork(cmd, args[0])
			if err != nil {
				return err
			}
			return writeNetwork(args[1], net)
		},
	}
}

// readNetwork reads a network ("-" is stdin, in Alchemy syntax).
func readNetwork(cmd *cobra.Command, path string) (*mln.Network, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if strings.EqualFold(filepath.Ext(path), ".wcnf") {
		return mln.ReadWCNF(r, name)
	}
	return mln.ReadAlchemy(r, name)
}

func writeNetwork(path string, net *mln.Network) error {
	write := mln.WriteAlchemy
	if strings.EqualFold(filepath.Ext(path), ".wcnf") {
		write = mln.WriteWCNF
	}
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return write(w, net) })
}

// mlnProgress draws a progress bar on stderr when it is a terminal, and
// otherwise prints a line per minute (quietInterval), and when a stage
// that printed one ends.
type mlnProgress struct {
	bar   *progressbar.ProgressBar
	w     io.Writer
	what  string
	stage string
	pace  *pacer // not on a terminal
	spoke bool   // a line of the current stage was printed
}

func newMLNProgress(w io.Writer, what string) *mlnProgress {
	p := &mlnProgress{what: what, w: w}
	if !isTerminal(w) {
		p.pace = newPacer()
	}
	return p
}

func (p *mlnProgress) set(stage string, done, total int) {
	if p.pace != nil {
		if stage != p.stage {
			p.stage, p.spoke = stage, false
		}
		// A stage that has spoken also says when it ends.
		if p.pace.due() || done == total && p.spoke {
			fmt.Fprintf(p.w, "%s: %s %d of %d\n", p.what, stage, done, total)
			p.spoke = done < total
		}
		return
	}
	if p.bar == nil || stage != p.stage {
		p.finish()
		p.stage = stage
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(p.what+": "+stage),
			progressbar.OptionShowCount(),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish())
	}
	p.bar.Set(done)
}

func (p *mlnProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
