package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
name ends in .wcnf, in the weighted CNF format of MaxSAT solvers (--format
says which for standard input, "-").`,
	}
	group(cmd)
	cmd.AddCommand(newMLNLearnCmd(), newMLNMapCmd(), newMLNExamplesCmd(), newMLNConvertCmd())
	for _, c := range cmd.Commands() {
		if c.Name() != "learn" {
			addNetworkFormat(c)
		}
	}
	return cmd
}

func newMLNLearnCmd() *cobra.Command {
	var out, test string
	var asJSON bool
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
variable of the network and of the independent-variables model.

-o - writes the network to standard output, and the summary to standard
error; --json prints the summary as JSON.`,
		Example: `  strata mln learn ../shared/data/debd/nltcs/nltcs.train.data -o nltcs.mln \
      --test ../shared/data/debd/nltcs/nltcs.test.data
  strata mln learn table.data -o - --min-leaf 5 > small.mln`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usageError{errors.New("learn needs -o NET.mln (-o - for standard output)")}
			}
			if err := checkJSONOutput(asJSON, out); err != nil {
				return err
			}
			if args[0] == "-" && test == "-" {
				return usageError{errors.New("TABLE and --test cannot both be standard input")}
			}
			train, err := readTable(cmd, args[0])
			if err != nil {
				return err
			}
			if train.Rows() == 0 {
				return fmt.Errorf("%s: no rows to learn from (the table is empty)", args[0])
			}
			var tt *mln.Table // read first, to fail before learning
			if test != "" {
				if tt, err = readTable(cmd, test); err != nil {
					return err
				}
				switch {
				case tt.Rows() == 0:
					return fmt.Errorf("--test %s: no rows to score (the table is empty)", test)
				case tt.Cols != train.Cols:
					return fmt.Errorf("--test %s:1: %d columns, and the training table %s has %d: both must have the same variables", test, tt.Cols, args[0], train.Cols)
				}
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
			if err := writeNetwork(cmd, out, net); err != nil {
				return err
			}
			st := net.Stats()
			sum := mlnLearnJSON{Network: out, Atoms: st.Atoms, Weighted: st.Weighted, Hard: st.Hard, Literals: st.Literals,
				Rows: train.Rows(), Seconds: elapsed.Seconds()}
			if tt != nil {
				pll, err := mln.PLL(net, tt)
				if err != nil {
					return err
				}
				ind, err := mln.IndependentPLL(train, tt)
				if err != nil {
					return err
				}
				sum.TestPLL, sum.IndependentPLL = &pll, &ind
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, sum)
			}
			name := out
			if stdout(out) {
				w = cmd.ErrOrStderr() // the network is on stdout
				name = "on standard output"
			}
			fmt.Fprintf(w, "network %s: %d atoms, %d weighted formulas, %d literals, learned from %d rows in %s\n",
				name, st.Atoms, st.Weighted, st.Literals, train.Rows(), elapsed.Round(time.Millisecond))
			if sum.TestPLL != nil {
				fmt.Fprintf(w, "test pseudo-log-likelihood per variable: %.4f (independent variables: %.4f)\n", *sum.TestPLL, *sum.IndependentPLL)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the network here (.wcnf for weighted CNF; -: standard output, in Alchemy syntax)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	cmd.Flags().StringVar(&test, "test", "", "report the test PLL on this table")
	cmd.Flags().IntVar(&o.MaxDepth, "max-depth", 2, "longest tree path (features have at most this many literals plus one)")
	cmd.Flags().IntVar(&o.MinLeaf, "min-leaf", 20, "fewest training rows in a leaf")
	cmd.Flags().Float64Var(&o.Penalty, "penalty", 0, "least log-likelihood gain of a split, in nats (0: BIC, half the log of the rows)")
	cmd.Flags().Float64Var(&o.L2, "l2", 1, "precision of the Gaussian prior on the weights")
	atLeast(cmd.Flags(), "min-leaf", 1, false)
	return cmd
}

func newMLNMapCmd() *cobra.Command {
	var given, entails string
	var approx, asJSON bool
	var walk mln.WalkOptions
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "map NET.mln --given 'a1, !a3'",
		Short: "Find a most probable world given evidence, or decide MAP entailment",
		Long: `map finds a most probable world of the network given the evidence (a
conjunction of literals), exactly or, with --map approx, by MaxWalkSAT. It prints
the world's true atoms, its cost (the weights of the formulas it violates, as
integers: cost / scale is the real cost) and its log-weight sum w_i f_i.

With --entails LIT it decides MAP entailment (M, alpha) |-MAP LIT: every most
probable world of the evidence satisfies LIT. The first line is "yes", "no",
or "no world satisfies the evidence" (then LIT follows only vacuously).

The last line says how long the slowest MAP query took; --timeout bounds
the whole command, which fails when the bound runs out. --json prints the
answer as JSON: the world (its true atoms, cost, scale and log-weight) or,
with --entails, the answer ("yes", "no", or "no world" when no world
satisfies the evidence).`,
		Example: `  strata mln map nltcs.mln --given 'a1, !a3'
  strata mln map nltcs.mln --given 'a1, !a3' --entails a12 --json
  strata mln map plants.mln --given a5 --map approx --flips 1000000 --seed 7`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			net, err := readNetwork(cmd, args[0])
			if err != nil {
				return err
			}
			alpha, err := mln.ParseEvidence(net, given)
			var contra *mln.ContradictoryEvidence
			if errors.As(err, &contra) {
				// An answer, as when the hard formulas exclude the evidence.
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), &mapJSON{Given: given, Solver: (*mapSolver)(&approx).String(), Entails: entails,
						Answer: noWorld, Entailed: entails != "", Reason: fmt.Sprintf("it holds both %s and %s", contra.Lit, contra.Neg)})
				}
				fmt.Fprintln(cmd.OutOrStdout(), noWorld+" satisfies the evidence")
				fmt.Fprintf(cmd.OutOrStdout(), "it holds both %s and %s\n", contra.Lit, contra.Neg)
				return nil
			}
			if err != nil {
				return fmt.Errorf("--given: %w", err)
			}
			inner, err := mln.EngineFactory(net, approx, walk)()
			if err != nil {
				return err
			}
			e := &timedEngine{Engine: inner}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			if timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, timeout)
				defer cancel()
			}
			view := &mapJSON{Given: given, Solver: (*mapSolver)(&approx).String(), Entails: entails}
			if entails != "" {
				err = decideMAPEntailment(ctx, view, net, e, alpha, entails)
			} else {
				err = findMAP(ctx, view, net, e, alpha)
			}
			if errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("MAP ran out of its budget (--timeout %s) after %d queries: exact MAP is NP-hard; give a longer --timeout (0: no bound), or --map approx for MaxWalkSAT's best world", timeout, e.queries)
			}
			if err != nil {
				return err
			}
			view.Slowest, view.Queries = e.slowest.Seconds(), e.queries
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), view)
			}
			view.write(cmd.OutOrStdout(), e.slowest)
			return nil
		},
	}
	cmd.Flags().StringVar(&given, "given", "", "evidence: literals separated by ','")
	cmd.Flags().StringVar(&entails, "entails", "", "decide whether the evidence MAP-entails this literal")
	cmd.Flags().DurationVar(&timeout, "timeout", time.Minute, "give up after this long, e.g. 30s (0: no bound; exact MAP is NP-hard and may take any time)")
	addWalkFlags(cmd, &approx, &walk)
	cmd.Flags().Uint64Var(&walk.Seed, "seed", 1, "random seed of MaxWalkSAT (--map approx)")
	alias(cmd.Flags(), "walk-seed", "seed", true)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the world or the answer as JSON")
	return cmd
}

// noWorld is the answer to a MAP query whose evidence no world satisfies.
const noWorld = "no world"

func addWalkFlags(cmd *cobra.Command, approx *bool, walk *mln.WalkOptions) {
	addMapFlag(cmd, approx, "MAP solver: exact, or approx (MaxWalkSAT)")
	cmd.Flags().IntVar(&walk.Flips, "flips", 100000, "MaxWalkSAT flips per try")
	cmd.Flags().IntVar(&walk.Tries, "tries", 1, "MaxWalkSAT restarts")
	cmd.Flags().Float64Var(&walk.Noise, "noise", 0.2, "MaxWalkSAT probability of a random flip")
	walkRanges(cmd.Flags())
}

// walkRanges declares the ranges of the MaxWalkSAT flags: a try flips at
// least once, there is at least one try, and the noise is a probability.
func walkRanges(fl *pflag.FlagSet) {
	atLeast(fl, "flips", 1, false)
	atLeast(fl, "tries", 1, false)
	atMost(fl, "noise", 1, false)
}

// mapJSON is the answer of mln map: a most probable world of the
// evidence, or with Entails whether every one satisfies that literal.
type mapJSON struct {
	Given  string `json:"given"`
	Solver string `json:"solver"` // exact or approx
	// The world found, when one was asked for: all of its fields, however
	// many are zero (the world of no true atom is "world": []).
	*mapWorld
	// Entails is the literal asked about; Answer is yes, no, or "no
	// world" when no world satisfies the evidence (for a world too), and
	// Entailed holds for yes and, vacuously, for no world.
	Entails  string `json:"entails,omitempty"`
	Answer   string `json:"answer,omitempty"`
	Entailed bool   `json:"entailed"`
	Reason   string `json:"reason,omitempty"`
	// Slowest is the time of the slowest MAP query, in seconds.
	Slowest float64 `json:"slowest_seconds"`
	Queries int     `json:"queries"`

	approx bool // the world is MaxWalkSAT's best
}

// mapWorld is a world that mln map found: World lists its true atoms,
// Atoms counts the network's atoms, Cost is the integer cost of the
// formulas the world violates, Cost/Scale the real one, LogWeight is
// Σ w_i f_i.
type mapWorld struct {
	World     []string `json:"world"`
	Atoms     int      `json:"atoms"`
	Cost      int64    `json:"cost"`
	Scale     float64  `json:"scale"`
	LogWeight float64  `json:"log_weight"`
}

// write prints the answer as text, ending with the slowest query.
func (m *mapJSON) write(w io.Writer, slowest time.Duration) {
	switch {
	case m.Entails != "" && m.Answer == noWorld:
		fmt.Fprintf(w, "%s satisfies the evidence\n%s\n", noWorld, m.Reason)
	case m.Entails != "":
		fmt.Fprintf(w, "%s\n%s\n", m.Answer, m.Reason)
	case m.Answer == noWorld:
		fmt.Fprintf(w, "%s satisfies the evidence and the hard formulas\n", noWorld)
	default:
		kind := "a most probable world"
		if m.approx {
			kind = "the best world MaxWalkSAT found"
		}
		fmt.Fprintf(w, "%s: %d of %d atoms true\n", kind, len(m.World), m.Atoms)
		fmt.Fprintf(w, "true: %s\n", strings.Join(m.World, " "))
		fmt.Fprintf(w, "cost %d (scale %g), log-weight %.6f\n", m.Cost, m.Scale, m.LogWeight)
	}
	fmt.Fprintf(w, "slowest query: %s (%d queries)\n", slowest.Round(time.Microsecond), m.Queries)
}

// timedEngine records how long the slowest query of an engine took.
type timedEngine struct {
	mln.Engine
	slowest time.Duration
	queries int
}

func (t *timedEngine) time(start time.Time) {
	t.queries++
	t.slowest = max(t.slowest, time.Since(start))
}

func (t *timedEngine) MAP(ctx context.Context, ev logic.Term) ([]bool, int64, bool, error) {
	defer t.time(time.Now())
	return t.Engine.MAP(ctx, ev)
}

func (t *timedEngine) AtMost(ctx context.Context, ev logic.Term, bound int64) (bool, error) {
	defer t.time(time.Now())
	return t.Engine.AtMost(ctx, ev, bound)
}

// findMAP finds a most probable world of the evidence alpha.
func findMAP(ctx context.Context, m *mapJSON, net *mln.Network, e mln.Engine, alpha logic.Term) error {
	world, cost, ok, err := e.MAP(ctx, alpha)
	if err != nil {
		return err
	}
	if !ok {
		m.Answer = noWorld
		return nil
	}
	m.mapWorld = &mapWorld{World: []string{}}
	for a, x := range world {
		name := net.Vocab.Name(logic.Atom(a))
		if net.IsAuxiliary(logic.Atom(a)) {
			continue // an atom a WCNF file left unnamed, as the file's others are named
		}
		m.Atoms++
		if x {
			m.World = append(m.World, name)
		}
	}
	m.LogWeight, _ = net.Score(world)
	if t, ok := e.(*timedEngine); ok {
		e = t.Engine
	}
	_, m.approx = e.(*mln.Approx)
	m.Cost, m.Scale = cost, e.Compiled().Scale
	return nil
}

// decideMAPEntailment decides whether every most probable world of alpha
// satisfies the literal src.
func decideMAPEntailment(ctx context.Context, m *mapJSON, net *mln.Network, e mln.Engine, alpha logic.Term, src string) error {
	atoms := net.NumAtoms() // parsing interns unknown names
	f, err := logic.ParseFormula(net.Vocab, src)
	if err != nil {
		return fmt.Errorf("--entails: %w", err)
	}
	beta, ok := f.AsLit()
	if !ok || int(beta.Atom()) >= atoms {
		return fmt.Errorf("--entails: %q is not a literal on an atom of the network", src)
	}
	ans, err := mln.Entails(ctx, e, alpha, beta)
	if err != nil {
		return err
	}
	switch ans {
	case mln.Entailed:
		m.Answer, m.Entailed, m.Reason = "yes", true, "every most probable world of the evidence satisfies "+src
	case mln.NoWorld:
		m.Answer, m.Entailed, m.Reason = noWorld, true, "no world satisfies the evidence and the hard formulas, so it entails "+src+" only vacuously"
	default:
		m.Answer, m.Reason = "no", "some most probable world of the evidence falsifies "+src
	}
	return nil
}

func newMLNExamplesCmd() *cobra.Command {
	var out string
	var mo mln.MAPOptions
	var walk mln.WalkOptions
	var slowest int
	var asJSON bool
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
network, the options and --seed.

--query-timeout bounds every MAP query and --timeout the whole run. An
example whose query ran out of its budget is not labelled: it is written to
no file, and the summary counts and lists it (the sets are then smaller than
asked for, and depend on the machine's speed). The summary ends with the
slowest queries and their evidence; --json prints it as JSON.`,
		Example: `  strata mln examples nltcs.mln -o nltcs-map --seed 1
  strata mln examples plants.mln -o plants-map --map approx --train-examples 500 --test-examples 500`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutputDir(out); err != nil {
				return err
			}
			net, err := readNetwork(cmd, args[0])
			if err != nil {
				return err
			}
			mo.Walk = walk
			bar := newMLNProgress(cmd.ErrOrStderr(), "labelling")
			mo.Examples.Progress = func(done, total int) { bar.set("examples", done, total) }
			mo.Examples.Slowest = slowest
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			start := time.Now()
			train, test, err := mln.MAPExamples(ctx, net, mo)
			bar.finish()
			if err != nil {
				return err
			}
			if err := mln.WriteExamples(out, net.Vocab, train.Examples, test.Examples); err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), newLabellingJSON(net.Vocab, train, test, slowest, out, time.Since(start), (*mapSolver)(&mo.Approx).String()))
			}
			printLabelling(cmd.OutOrStdout(), net.Vocab, train, test, slowest)
			fmt.Fprintf(cmd.OutOrStdout(), "written to %s in %s (%s MAP)\n", out, time.Since(start).Round(time.Millisecond), (*mapSolver)(&mo.Approx))
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
	f.DurationVar(&mo.Examples.QueryTimeout, "query-timeout", 0, "bound on every MAP query, e.g. 10s (0: none); examples whose query runs out are not labelled")
	f.DurationVar(&mo.Examples.Timeout, "timeout", 0, "bound on the whole labelling, e.g. 10m (0: none); examples left are not labelled")
	f.IntVar(&slowest, "slowest", 3, "list this many of the slowest queries with their evidence")
	f.IntVar(&walk.Flips, "flips", 100000, "MaxWalkSAT flips per try")
	f.IntVar(&walk.Tries, "tries", 1, "MaxWalkSAT restarts")
	f.Float64Var(&walk.Noise, "noise", 0.2, "MaxWalkSAT probability of a random flip")
	walkRanges(f)
	atLeast(f, "max-evidence", 1, false)
	atLeast(f, "per-evidence", 1, false)
	f.BoolVar(&asJSON, "json", false, "print the counts and the slowest queries as JSON")
	return cmd
}

// labellingJSON is what mln examples says of the examples it labelled.
type labellingJSON struct {
	Output  string      `json:"output"`
	Solver  string      `json:"solver"`
	Seconds float64     `json:"seconds"`
	Train   setJSON     `json:"train"`
	Test    setJSON     `json:"test"`
	Queries int         `json:"queries"`
	Slowest []queryJSON `json:"slowest"`
}

// setJSON counts one set of examples; OutOfBudget lists those whose query
// ran out of its budget, which no file holds.
type setJSON struct {
	Positive    int      `json:"positive"`
	Negative    int      `json:"negative"`
	OutOfBudget []string `json:"out_of_budget"`
}

type queryJSON struct {
	Query       string  `json:"query"`
	Seconds     float64 `json:"seconds"`
	OutOfBudget bool    `json:"out_of_budget"`
}

func newLabellingJSON(v *logic.Vocabulary, train, test *mln.Labelling, slowest int, out string, elapsed time.Duration, solver string) *labellingJSON {
	lj := &labellingJSON{Output: out, Solver: solver, Seconds: elapsed.Seconds(), Slowest: []queryJSON{}}
	var all []mln.QueryTime
	for _, set := range []struct {
		dst *setJSON
		l   *mln.Labelling
	}{{&lj.Train, train}, {&lj.Test, test}} {
		pos, neg := mln.Split(set.l.Examples)
		*set.dst = setJSON{Positive: len(pos), Negative: len(neg), OutOfBudget: []string{}}
		for _, e := range set.l.OutOfBudget {
			set.dst.OutOfBudget = append(set.dst.OutOfBudget, v.Join(e.Evidence, ", ")+" |~ "+v.LitString(e.Conclusion))
		}
		all = append(all, set.l.Slowest...)
		lj.Queries += set.l.Queries
	}
	slices.SortStableFunc(all, func(a, b mln.QueryTime) int { return cmp.Compare(b.Time, a.Time) })
	for _, q := range all[:min(slowest, len(all))] {
		lj.Slowest = append(lj.Slowest, queryJSON{Query: q.Describe(v), Seconds: q.Time.Seconds(), OutOfBudget: q.OutOfBudget})
	}
	return lj
}

// printLabelling prints the counts of both sets, the examples that ran out
// of budget and the slowest queries.
func printLabelling(w io.Writer, v *logic.Vocabulary, train, test *mln.Labelling, slowest int) {
	var all []mln.QueryTime
	queries := 0
	for _, set := range []struct {
		name string
		l    *mln.Labelling
	}{{"train", train}, {"test", test}} {
		pos, neg := mln.Split(set.l.Examples)
		fmt.Fprintf(w, "%s: %d positive, %d negative", set.name, len(pos), len(neg))
		if n := len(set.l.OutOfBudget); n > 0 {
			fmt.Fprintf(w, ", %d not labelled (out of budget, written nowhere)", n)
		}
		fmt.Fprintln(w)
		for i, e := range set.l.OutOfBudget {
			if i == 20 {
				fmt.Fprintf(w, "  ... and %d more\n", len(set.l.OutOfBudget)-i)
				break
			}
			fmt.Fprintf(w, "  out of budget: %s |~ %s\n", v.Join(e.Evidence, ", "), v.LitString(e.Conclusion))
		}
		all = append(all, set.l.Slowest...)
		queries += set.l.Queries
	}
	slices.SortStableFunc(all, func(a, b mln.QueryTime) int { return cmp.Compare(b.Time, a.Time) })
	if len(all) == 0 {
		return
	}
	fmt.Fprintf(w, "slowest query: %s of %d queries\n", all[0].Time.Round(time.Microsecond), queries)
	for _, q := range all[:min(slowest, len(all))] {
		note := ""
		if q.OutOfBudget {
			note = " (out of budget)"
		}
		fmt.Fprintf(w, "  %s  %s%s\n", q.Time.Round(time.Microsecond), q.Describe(v), note)
	}
}

func newMLNConvertCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "convert IN OUT",
		Short: "Convert a network between Alchemy syntax and weighted CNF",
		Long: `convert reads a network and writes it in the format its output name asks
for: weighted CNF for a name ending in .wcnf, Alchemy syntax otherwise. The
WCNF file can be given to any MaxSAT solver to check strata's MAP answers.
OUT - writes Alchemy syntax to standard output.`,
		Example: `  strata mln convert nltcs.mln nltcs.wcnf
  strata mln convert nltcs.wcnf -`,
		Args: argsBetween(2, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			net, err := readNetwork(cmd, args[0])
			if err != nil {
				return err
			}
			return writeNetwork(cmd, args[1], net)
		},
	}
}

// readTable reads a 0/1 table ("-" is stdin).
func readTable(cmd *cobra.Command, path string) (*mln.Table, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return mln.ReadTable(r, name)
}

// addNetworkFormat adds the --format flag that readNetwork obeys.
func addNetworkFormat(cmd *cobra.Command) {
	addFormat(cmd.Flags(), new(string), []string{"auto", "alchemy", "wcnf"}, "format of the network read: alchemy, wcnf, or auto (wcnf for a .wcnf name, else alchemy)")
}

// readNetwork reads a network ("-" is stdin) in the format --format names,
// or by the extension of path: WCNF for .wcnf, else Alchemy syntax.
func readNetwork(cmd *cobra.Command, path string) (*mln.Network, error) {
	var wcnf bool
	switch cmd.Flags().Lookup("format").Value.String() {
	case "wcnf":
		wcnf = true
	case "alchemy":
	default: // auto
		wcnf = strings.EqualFold(filepath.Ext(path), ".wcnf")
	}
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if wcnf {
		return mln.ReadWCNF(r, name)
	}
	return mln.ReadAlchemy(r, name)
}

// writeNetwork writes net to path ("-" is standard output), in WCNF for
// a name ending in .wcnf and in Alchemy syntax otherwise.
func writeNetwork(cmd *cobra.Command, path string, net *mln.Network) error {
	write := mln.WriteAlchemy
	if strings.EqualFold(filepath.Ext(path), ".wcnf") {
		write = mln.WriteWCNF
	}
	return writeOutput(cmd, path, func(w io.Writer) error { return write(w, net) })
}

// mlnLearnJSON is what mln learn says of the network it learned.
type mlnLearnJSON struct {
	Network  string  `json:"network"`
	Atoms    int     `json:"atoms"`
	Weighted int     `json:"weighted_formulas"`
	Hard     int     `json:"hard_formulas"`
	Literals int     `json:"literals"`
	Rows     int     `json:"rows"`
	Seconds  float64 `json:"seconds"`
	// TestPLL is the test pseudo-log-likelihood per variable with --test,
	// and IndependentPLL that of the independent-variables model.
	TestPLL        *float64 `json:"test_pll,omitempty"`
	IndependentPLL *float64 `json:"independent_pll,omitempty"`
}

// mlnProgress shows the stages of learning a network or labelling
// examples (progress): a bar per stage on a terminal, and otherwise a line
// per minute (quietInterval), and when a stage that printed one ends.
type mlnProgress struct {
	*progress
	what  string
	stage string
	spoke bool // a line of the current stage was printed
}

func newMLNProgress(w io.Writer, what string) *mlnProgress {
	return &mlnProgress{progress: newProgress(w), what: what}
}

func (p *mlnProgress) set(stage string, done, total int) {
	if p.terminal {
		p.count(p.what+": "+stage, int64(done), int64(total), "")
		return
	}
	if stage != p.stage {
		p.stage, p.spoke = stage, false
	}
	// A stage that has spoken also says when it ends.
	if p.due() || done == total && p.spoke {
		fmt.Fprintf(p.w, "%s: %s %d of %d\n", p.what, stage, done, total)
		p.spoke = done < total
	}
}
