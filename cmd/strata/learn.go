package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/learn/curve"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

//go:embed examples/animals.theory
var animalsTheory string

func init() { register(newLearnCmd) }

type learnFlags struct {
	pos, neg, testPos, testNeg, hard string
	out, history, plot               string
	checkpoint, resume               string
	protocol                         protocolFlags
	semantics                        possibilistic.Semantics
	seed                             uint64
	verbose, json                    bool
	table                            tableFlags // learn --table (table.go)
}

func newLearnCmd() *cobra.Command {
	var f learnFlags
	cmd := &cobra.Command{
		Use:   "learn --pos P --neg N [--test-pos TP --test-neg TN] [--hard H] [-o THEORY]",
		Short: "Learn a possibilistic theory from default rules (§4.3 of the paper)",
		Long: `learn runs the heuristic learner of §4.3: each iteration samples candidate
clauses from the misclassified examples, tries each in every level and as a new
level at every position, keeps the best (training accuracy, then fewer levels,
then shorter clause), shortens it greedily, deletes clauses that do not help and
re-inserts every clause at its best level. It stops after --iterations, at
--timeout, after --patience iterations without improvement, or when every
training example is classified correctly. The same --seed gives the same theory
whatever --threads is.

--folds K chooses the number of iterations on training examples held out
by whole antecedents, scored by binary accuracy: by K-fold cross-validation
(K >= 2), or on one held-out part of --validation's share (--folds 1, which
--validation alone means); the smallest iteration within one standard error
of the best held-out accuracy is kept, and the theory is learned on all
training examples with that many iterations (and with --prune pruned of
the clauses too few of them need). --timeout then bounds the whole: the
validation gets 40% of it (60% with folds).

P and N hold positive and negative defaults, one "ANTECEDENT -> CONSEQUENT" per
line (the paper's Java tool's files work unchanged); H holds hard rules, one
clause per line, kept at the top level. Without --pos, learn uses a built-in
example: defaults drawn from a hidden theory about animals
(examples/animals.theory, which strata examples writes), 5% of them
mislabelled, and at the end asks the learned and the hidden theory the
paper's queries (penguin -> !flies, penguin -> bird, bird -> flies).

The theory is printed highest level first (or written to -o FILE,
atomically), followed on stderr by its accuracy and generalisation bound: the
number of formulas n and levels k, the paper's VC bound n*log2(k)
(Proposition 1), and Vapnik's VC bound on the expected error, err <=
err_train + sqrt((d(ln(2m/d)+1) + ln(4/delta))/m), at confidence 1-delta =
0.95. --json prints all of it as one JSON object on standard output instead:
the summary, the validation's choice and the theory.

--semantics decides when a theory covers a default: poss (the paper's, the
default) drowns every level at or below the inconsistency level the evidence
causes; linear skips only the levels that clash with the evidence and the
levels kept above them; lex keeps the models of the evidence that violate the
fewest formulas, level by level from the top. The theory file does not record
it: evaluate and query the theory with the same --semantics.

Ctrl-C stops cleanly: the theory of the last completed iteration is written,
and so is the checkpoint (an iteration cut short is undone); --resume
continues from it and ends with the theory of an uninterrupted run.

--table FILE --label COL learns from a table instead (CSV, TSV, ARFF or
Parquet, gzip-compressed or not, with a header, one row per case; '?' or an
empty field is a missing value; see --table-format): categorical
columns become atoms col=value, numeric ones thresholds col <= t with cut
points chosen on the table's rows (where the class changes, kept when they
pay by the minimum description length principle), the class one atom per
value with exactly one true. --numeric names the numeric columns (default:
inferred), --features the columns to learn from. --folds and --validation
hold out rows (whole --group values together), each held-out part encoded
with the cut points of its own training rows and scored one class per row;
--prune works as above. --test-table scores the theory on other rows. A row
that cannot be read is an error naming its line and column; --skip-bad-rows
leaves such rows out with a warning for each. strata predict and strata eval
--table use the theory on new rows (docs/tables.md).`,
		Example: `  strata learn
  strata learn --pos examples/animals/train.defaults --neg examples/animals/train.nondefaults -o animals.theory
  strata learn --pos train.defaults --neg train.nondefaults --hard hard.rules --folds 5 --prune --json
  strata learn --pos train.defaults --neg train.nondefaults --semantics lex --timeout 10m --checkpoint run.checkpoint
  strata learn --table examples/loans.csv --label decision --folds 3 -o loans.theory`,
		Args: argsBetween(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error { return runLearn(cmd, &f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.pos, "pos", "", "positive examples (defaults)")
	fl.StringVar(&f.neg, "neg", "", "negative examples (non-defaults)")
	fl.StringVar(&f.testPos, "test-pos", "", "positive test examples, scored after every iteration")
	fl.StringVar(&f.testNeg, "test-neg", "", "negative test examples")
	fl.StringVar(&f.hard, "hard", "", "hard rules, one clause per line")
	fl.StringVarP(&f.out, "output", "o", "", "write the theory to this file (-: standard output, the default)")
	fl.StringVar(&f.history, "history", "", "write the learning history (CSV) to this file")
	fl.StringVar(&f.plot, "plot", "", "draw the learning curves to this .svg or .png file")
	fl.StringVar(&f.checkpoint, "checkpoint", "", "write the learner's state to this file after every iteration")
	fl.StringVar(&f.resume, "resume", "", "continue from a checkpoint written by --checkpoint")
	addProtocolFlags(fl, &f.protocol, protocolDefaults{iterations: learn.DefaultIterations, patience: learn.DefaultPatience, heldOut: "whole antecedents"})
	fl.Uint64Var(&f.seed, "seed", 1, "random seed")
	fl.BoolVar(&f.verbose, "verbose", false, "print one line per iteration on stderr")
	deprecateShorthand(fl, "v", "verbose") // -v is strata --version
	addSemantics(fl, &f.semantics, semanticsUsage)
	fl.BoolVar(&f.json, "json", false, "print the summary, the validation's choice and the theory as JSON")
	addTableFlags(fl, &f.table, true)
	return cmd
}

// learnData is what a run learns from.
type learnData struct {
	vocab       *logic.Vocabulary
	train, test *learn.Examples
	hard        []logic.Clause
	hidden      *possibilistic.Theory // of the built-in example
	hardF       []*logic.Formula      // the hard rules as written, when hard names subformulas
}

func runLearn(cmd *cobra.Command, f *learnFlags) (err error) {
	if f.table.file != "" {
		return runLearnTable(cmd, f)
	}
	// The table's flags have no effect on examples: say so rather than
	// ignore them.
	if name := strayTableFlag(cmd.Flags()); name != "" {
		return usageError{fmt.Errorf("--%s goes with --table: it has no effect on examples", name)}
	}
	stderr := cmd.ErrOrStderr()
	s := learn.Settings{Semantics: f.semantics, Seed: f.seed}
	if err := f.protocol.settings(cmd.Flags(), &s); err != nil {
		return usageError{err}
	}
	if f.resume != "" {
		// A stand-in for Validate's rule that a resumed run chooses
		// nothing; the checkpoint itself is read below.
		s.Resume = []byte("{}")
	}
	if err := s.Validate(); err != nil {
		return settingsError(err)
	}
	s.Resume = nil
	if err := checkJSONOutput(f.json, f.out); err != nil {
		return err
	}
	if f.plot != "" { // before a long run, not after it
		if _, err := curve.Format(f.plot); err != nil {
			return usageError{err}
		}
	}
	for _, o := range []struct{ flag, path string }{{"--checkpoint", f.checkpoint}, {"-o", f.out}, {"--history", f.history}, {"--plot", f.plot}} {
		if stdout(o.path) {
			continue
		}
		if err := fileutil.CheckWritable(o.path); err != nil { // before a long run, not after it
			return fmt.Errorf("%s: %w", o.flag, err)
		}
	}
	var resumeName string
	if f.resume != "" {
		var err error
		if s.Resume, resumeName, err = readAll(cmd, f.resume); err != nil {
			return err
		}
	}
	d, err := loadLearnData(cmd, f)
	if err != nil {
		return err
	}
	if d.hidden != nil {
		p, n := d.train.Size()
		fmt.Fprintf(stderr, "strata: no --pos given; learning the built-in example: %d positive and %d negative defaults about animals, drawn from a hidden theory (%s, which strata examples writes) with 5%% of labels flipped\n", p, n, hiddenTheoryFile)
	}
	plan, err := learn.NewPlan(learn.Problem{Vocab: d.vocab, Train: d.train, Hard: d.hard, Test: d.test, HardRules: d.hardF}, s)
	if se := (*learn.SettingsError)(nil); errors.As(err, &se) && se.Field == "Resume" {
		return fmt.Errorf("resume %s: %w", resumeName, se.Err)
	} else if err != nil {
		return settingsError(err)
	}
	sayFolds(stderr, plan.Folds(), "examples")
	ctx, stop := interruptible()
	defer stop()
	rec := &learnRecorder{w: stderr, verbose: f.verbose, checkpoint: f.checkpoint, progress: newProgress(stderr),
		validationLimit: max(s.Defaulted().Iterations, 0) * len(plan.Folds())}
	res, err := plan.Learn(ctx, rec)
	rec.finish()
	if err != nil {
		return interruptedValidation(ctx, err)
	}
	// The run goes on without checkpoints, and its outputs are written,
	// but the command fails: what was asked for is missing.
	defer func() {
		if rec.cpErr != nil && err == nil {
			err = fmt.Errorf("--checkpoint: %w", rec.cpErr)
		}
	}()
	if res.Stop == learn.StopCancelled && f.checkpoint != "" {
		if err := fileutil.WriteAtomic(f.checkpoint, res.WriteCheckpoint); err != nil {
			return err
		}
	}
	if pr := res.Pruning; pr != nil && pr.Threshold > 0 {
		fmt.Fprintf(stderr, "pruned the clauses that at most %d of the %d training examples need: %d → %d literals\n",
			pr.Threshold, d.train.Total(), pr.Before, pr.After)
	}
	th := res.Theory
	if err := writeOutputs(cmd, f, th, res.History); err != nil {
		return err
	}
	sum := summarise(d, res)
	var classic []classicAnswer
	if d.hidden != nil {
		if classic, err = compareClassic(d, th); err != nil {
			return err
		}
	}
	if f.json {
		sum.Queries = classic
		if sum.Theory, err = jsonview.NewTheory(ctx, th); err != nil {
			return err
		}
		return writeJSON(cmd.OutOrStdout(), sum)
	}
	sum.write(stderr)
	if d.hidden != nil {
		fmt.Fprintf(stderr, "the paper's queries, learned theory against the hidden one (%s):\n", hiddenTheoryFile)
		for _, q := range classic {
			fmt.Fprintf(stderr, "  %-18s learned: %-3s  hidden: %s\n", q.Query, q.Learned, q.Hidden)
		}
	}
	return nil
}

// hiddenTheoryFile is where strata examples writes the built-in
// example's hidden theory.
const hiddenTheoryFile = "examples/animals.theory"

// classicQueries are the paper's running example, asked of the built-in
// example's learned theory and of the hidden theory it was drawn from.
var classicQueries = []string{"penguin -> !flies", "penguin -> bird", "bird -> flies"}

// classicAnswer is the answer of the learned and the hidden theory to one
// of the classic queries.
type classicAnswer struct {
	Query   string `json:"query"`
	Learned string `json:"learned"`
	Hidden  string `json:"hidden"`
}

// compareClassic asks the learned and the hidden theory the classic
// queries.
func compareClassic(d *learnData, learned *possibilistic.Theory) ([]classicAnswer, error) {
	ctx := context.Background() // a few queries on small theories
	lr, err := possibilistic.NewReasoner(ctx, learned)
	if err != nil {
		return nil, err
	}
	hr, err := possibilistic.NewReasoner(ctx, d.hidden)
	if err != nil {
		return nil, err
	}
	var out []classicAnswer
	for _, q := range classicQueries {
		r, err := logic.ParseRule(d.vocab, q)
		if err != nil {
			return nil, err
		}
		l, err := lr.Entails(ctx, possibilistic.Poss, r.Antecedent, r.Consequent)
		if err != nil {
			return nil, err
		}
		h, err := hr.Entails(ctx, possibilistic.Poss, r.Antecedent, r.Consequent)
		if err != nil {
			return nil, err
		}
		out = append(out, classicAnswer{Query: q, Learned: jsonview.YesNo(l), Hidden: jsonview.YesNo(h)})
	}
	return out, nil
}

// interruptible returns a context that the first SIGINT or SIGTERM
// cancels, for work that stops cleanly at its next check; a second signal
// ends the process at once (the default action is restored), in case a
// step does not check often enough.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	return ctx, stop
}

func loadLearnData(cmd *cobra.Command, f *learnFlags) (*learnData, error) {
	d := &learnData{vocab: &logic.Vocabulary{}}
	if f.pos == "" {
		if f.neg != "" || f.testPos != "" || f.testNeg != "" || f.hard != "" {
			return nil, usageError{errors.New("--neg, --test-pos, --test-neg and --hard need --pos")}
		}
		return builtinExample(d)
	}
	if f.neg == "" {
		return nil, usageError{errors.New("--pos needs --neg (negative examples)")}
	}
	if (f.testPos == "") != (f.testNeg == "") {
		return nil, usageError{errors.New("give both --test-pos and --test-neg, or neither")}
	}
	d.train = &learn.Examples{}
	if err := readExamples(cmd, d.vocab, d.train, f.pos, true); err != nil {
		return nil, err
	}
	if err := readExamples(cmd, d.vocab, d.train, f.neg, false); err != nil {
		return nil, err
	}
	if d.train.Total() == 0 {
		return nil, noExamples("training", "--pos", f.pos, "--neg", f.neg)
	}
	if f.testPos != "" {
		d.test = &learn.Examples{}
		if err := readExamples(cmd, d.vocab, d.test, f.testPos, true); err != nil {
			return nil, err
		}
		if err := readExamples(cmd, d.vocab, d.test, f.testNeg, false); err != nil {
			return nil, err
		}
		if d.test.Total() == 0 {
			return nil, noExamples("test", "--test-pos", f.testPos, "--test-neg", f.testNeg)
		}
	}
	if f.hard != "" {
		fs, err := readHardFile(cmd, d.vocab, f.hard)
		if err != nil {
			return nil, err
		}
		var named bool
		if d.hard, named, err = learn.HardClauses(d.vocab, fs); err != nil {
			return nil, fmt.Errorf("--hard %s: %w", f.hard, err)
		}
		if named {
			d.hardF = fs
		}
	}
	return d, nil
}

func readExamples(cmd *cobra.Command, v *logic.Vocabulary, ex *learn.Examples, path string, positive bool) error {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return err
	}
	defer r.Close()
	ds, err := defaults.ReadRules(r, name, v)
	if err != nil {
		return err
	}
	rules, err := defaults.ClausalRules(ds, v)
	if err != nil {
		return err
	}
	return ex.AddRules(rules, positive, v, name)
}

// readAll reads the file at path ("-" is stdin) and returns it and its
// name.
func readAll(cmd *cobra.Command, path string) ([]byte, string, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", name, err)
	}
	return data, name, nil
}

// readRuleFile reads a default-rule dataset ("-" is stdin).
func readRuleFile(cmd *cobra.Command, v *logic.Vocabulary, path string) ([]logic.Rule, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ds, err := defaults.ReadRules(r, name, v)
	return defaults.Rules(ds), err
}

// readFormulaFile reads one formula (usually a clause) per line, and
// where each was read.
func readFormulaFile(cmd *cobra.Command, v *logic.Vocabulary, path string) ([]*logic.Formula, []logic.Position, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return defaults.ReadClausesAt(r, name, v)
}

// readHardFile reads hard rules and refuses them, naming the rules and
// lines that clash, when no world satisfies them.
func readHardFile(cmd *cobra.Command, v *logic.Vocabulary, path string) ([]*logic.Formula, error) {
	fs, pos, err := readFormulaFile(cmd, v, path)
	if err != nil {
		return nil, err
	}
	if err := learn.CheckHardAt(v, fs, pos); err != nil {
		return nil, fmt.Errorf("--hard %s: %w", path, err)
	}
	return fs, nil
}

// builtinExample draws the built-in dataset from the embedded animals
// theory: defaults with antecedents of one or two literals, as people state
// them ("penguins do not fly", "birds that swim ..."). With antecedents of up
// to three random literals, a situation as plain as "a penguin" was so rare
// (about 1% of the defaults asked about penguins and flying) that the
// learned theory did not say that penguins do not fly.
func builtinExample(d *learnData) (*learnData, error) {
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(animalsTheory), "animals.theory", d.vocab)
	if err != nil {
		return nil, err
	}
	atoms := make([]logic.Atom, d.vocab.Len())
	for i := range atoms {
		atoms[i] = logic.Atom(i)
	}
	r := rand.New(rand.NewPCG(2016, 7))
	p, n := learn.Generate(th, atoms, 400, 400, 2, 0.05, r)
	tp, tn := learn.Generate(th, atoms, 300, 300, 2, 0, r)
	d.train, d.test, d.hidden = learn.Merge(p, n), learn.Merge(tp, tn), th
	return d, nil
}

func writeOutputs(cmd *cobra.Command, f *learnFlags, th *possibilistic.Theory, hist []learn.Iteration) error {
	if !f.json || !stdout(f.out) { // with --json and no file, the theory is in the JSON
		if err := writeOutput(cmd, f.out, th.WriteText); err != nil {
			return err
		}
	}
	if f.history != "" {
		if err := fileutil.WriteAtomic(f.history, func(w io.Writer) error { return learn.WriteHistoryCSV(w, hist) }); err != nil {
			return err
		}
	}
	if f.plot != "" {
		format, err := curve.Format(f.plot)
		if err != nil {
			return err
		}
		title := "strata learn"
		if f.pos != "" {
			title += " " + f.pos
		}
		if err := fileutil.WriteAtomic(f.plot, func(w io.Writer) error { return curve.Write(w, format, hist, title) }); err != nil {
			return err
		}
	}
	return nil
}

// runSummary is what strata learn and strata learn --table both say of a
// run, under the same names with the same meanings: why and when it
// stopped, its semantics, its accuracies (one class per row, for a table),
// the theory's size, what the held-out data chose and what pruning removed,
// and with --json the theory.
type runSummary struct {
	Stop          string  `json:"stop"`
	Iterations    int     `json:"iterations"`
	Seconds       float64 `json:"seconds"`
	Semantics     string  `json:"semantics"`
	TrainAccuracy float64 `json:"train_accuracy"`
	// TestAccuracy is null without test data.
	TestAccuracy *float64 `json:"test_accuracy"`
	Formulas     int      `json:"formulas"` // hard rules excluded
	Levels       int      `json:"levels"`
	Literals     int      `json:"literals"`
	HardRules    int      `json:"hard_rules"`
	// Validation is what the held-out data chose, with --folds or
	// --validation; Pruning what --prune removed.
	Validation *validationJSON `json:"validation,omitempty"`
	// FinalRuns is the number of final runs (--restarts), KeptRun the
	// one whose theory was kept, counted from 1.
	FinalRuns int              `json:"final_runs"`
	KeptRun   int              `json:"kept_run"`
	Pruning   *pruningJSON     `json:"pruning,omitempty"`
	Theory    *jsonview.Theory `json:"theory,omitempty"`
}

// writeRestarts says, when the final run was repeated, which run's theory
// was kept.
func (s *runSummary) writeRestarts(w io.Writer) {
	if s.FinalRuns > 1 {
		fmt.Fprintf(w, "final run: learned %d times with other seeds (--restarts), kept run %d, the most accurate on the training examples\n", s.FinalRuns, s.KeptRun)
	}
}

// newRunSummary summarises the run res, beside hard hard rules.
func newRunSummary(res *learn.Result, hard int) runSummary {
	m, sel, pr := res.Hypothesis, res.Selection, res.Pruning
	s := runSummary{Stop: string(res.Stop), Iterations: len(res.History), Seconds: res.Elapsed.Seconds(), Semantics: res.Semantics.String(),
		Formulas: m.NumClauses(), Levels: len(m.Levels), Literals: m.NumLiterals(), HardRules: hard, FinalRuns: res.Runs, KeptRun: res.Kept + 1}
	if sel != nil {
		s.Validation = &validationJSON{Folds: max(1, len(sel.Folds)), Held: sel.Held, Best: sel.Best, BestAccuracy: sel.BestAccuracy,
			Chosen: sel.Chosen, ChosenAccuracy: sel.ChosenAccuracy, StdErr: sel.StdErr, Censored: sel.Censored(),
			Saturated: sel.Saturated()}
	}
	if pr != nil && pr.Threshold > 0 {
		s.Pruning = &pruningJSON{Threshold: pr.Threshold, Before: pr.Before, After: pr.After}
	}
	return s
}

// learnSummary is what strata learn says of its run: on stderr as text,
// or with --json on stdout with the theory.
type learnSummary struct {
	runSummary
	// VC is the paper's bound n*log2(k) on the VC dimension, and
	// ErrorBound Vapnik's bound on the expected error at confidence
	// 0.95, from Examples training examples.
	VC         float64 `json:"vc_dimension"`
	ErrorBound float64 `json:"error_bound"`
	Examples   int     `json:"examples"`
	// Queries are the built-in example's classic queries, asked of the
	// learned and the hidden theory.
	Queries []classicAnswer `json:"queries,omitempty"`
}

// validationJSON is the choice of the iterations, as the server's
// learning runs show it.
type validationJSON struct {
	Folds          int     `json:"folds"`
	Held           int     `json:"held_examples"`
	Best           int     `json:"best"`
	BestAccuracy   float64 `json:"best_accuracy"`
	Chosen         int     `json:"chosen"`
	ChosenAccuracy float64 `json:"chosen_accuracy"`
	StdErr         float64 `json:"std_err"`
	// Censored: the held-out curve was at its best when the validation's
	// time ran out, so the final run learned to the limits instead of
	// stopping at Chosen (learn.Selection.Censored).
	Censored bool `json:"censored"`
	// Saturated: every held-out example was right at Chosen, so the
	// final run learned until every training example was right, to the
	// limits (learn.Selection.Saturated).
	Saturated bool `json:"saturated"`
}

type pruningJSON struct {
	Threshold int64 `json:"threshold"`
	Before    int   `json:"literals_before"`
	After     int   `json:"literals_after"`
}

func summarise(d *learnData, res *learn.Result) *learnSummary {
	m := res.Hypothesis
	g := learn.Generalise(m, 1-res.TrainAccuracy, d.train.Total(), 0.05)
	s := &learnSummary{runSummary: newRunSummary(res, len(m.Hard)), VC: g.VC, ErrorBound: g.Bound, Examples: g.Examples}
	s.TrainAccuracy = res.TrainAccuracy
	if d.test != nil {
		c, total := learn.Score(m, d.test, 0, res.Semantics)
		acc := float64(c) / float64(max(total, 1))
		s.TestAccuracy = &acc
	}
	return s
}

// write prints the summary as text.
func (s *learnSummary) write(w io.Writer) {
	elapsed := time.Duration(s.Seconds * float64(time.Second))
	fmt.Fprintf(w, "stopped: %s after %d iterations (%s)\n", s.Stop, s.Iterations, elapsed.Round(time.Millisecond))
	s.writeRestarts(w)
	fmt.Fprintf(w, "training accuracy: %.4f", s.TrainAccuracy)
	if s.TestAccuracy != nil {
		fmt.Fprintf(w, "   test accuracy: %.4f", *s.TestAccuracy)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "theory: %s in %s, %s (plus %s)\n", count(s.Formulas, "formula"), count(s.Levels, "level"),
		count(s.Literals, "literal"), count(s.HardRules, "hard rule"))
	fmt.Fprintf(w, "VC dimension <= n*log2(k) = %.1f; with probability 0.95 the expected error is <= %.4f (Vapnik's VC bound, m = %d)\n", s.VC, s.ErrorBound, s.Examples)
}

// count writes n and the noun, in the plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
