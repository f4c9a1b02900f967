package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/crowd/football"
	"github.com/strata-logic/strata/crowd/poker"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
)

func init() { register(newCrowdCmd) }

func newCrowdCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "crowd",
		Short: "Build the paper's crowd datasets (football, poker, any answer table) and evaluate theories on them",
		Long: `crowd runs the protocol of the paper's crowdsourcing experiment (§5.2) on real
decisions or on any table of answers. Each answer "in situation α, annotator A
chose action a" becomes a default α -> a; a negative example repeats α with a
random other action; the split into training and test parts is by annotator
(no annotator on both sides), or by source with --test-from (and by session
with crowd poker --test-sessions); hard rules say that only one action is
chosen. Every file of a domain has the domain's descriptors as attributes.

Every generating subcommand writes to the directory given with -o:
  train.defaults, train.nondefaults, test.defaults, test.nondefaults, hard.rules,
  train.typical, test.typical (each situation with its most typical action),
  train.arff, test.arff (the same for Weka), manifest.json (counts and seed).`,
	}
	cmd.AddCommand(newCrowdFootballCmd(), newCrowdPokerCmd(), newCrowdTableCmd(), newCrowdEvalCmd())
	group(cmd)
	return cmd
}

// crowdOut holds the flags shared by the generating subcommands.
type crowdOut struct {
	dir        string
	fraction   float64
	seed       uint64
	atLeastOne bool
	folds      int
	testFrom   []string
	json       bool
	cmd        *cobra.Command
}

func (o *crowdOut) flags(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&o.dir, "output", "o", "", "output directory (required)")
	alias(cmd.Flags(), "out", "output", true)
	cmd.Flags().Float64Var(&o.fraction, "test-fraction", 0.3, "share of the answers held out, by whole annotators")
	atLeast(cmd.Flags(), "test-fraction", 0, true)
	atMost(cmd.Flags(), "test-fraction", 1, true)
	cmd.Flags().Uint64Var(&o.seed, "seed", 1, "seed of the split and of the negative examples")
	cmd.Flags().BoolVar(&o.atLeastOne, "at-least-one", false, "add the hard rule that some action is chosen (exactly one instead of at most one)")
	cmd.Flags().IntVar(&o.folds, "test-folds", 0, "instead of one split, write the K splits of a K-fold cross-validation by annotator to OUT/fold1 … OUT/foldK (each annotator in one test fold)")
	alias(cmd.Flags(), "folds", "test-folds", true)
	cmd.Flags().StringArrayVar(&o.testFrom, "test-from", nil, "the answers read from PATH (a file or directory; repeatable) form the test set, all others the training set")
	cmd.Flags().BoolVar(&o.json, "json", false, "print what was written (each split's manifest) as JSON")
	o.cmd = cmd
}

// check validates the flags before any input is read.
func (o *crowdOut) check() error {
	if err := checkOutputDir(o.dir); err != nil {
		return err
	}
	if o.folds == 1 {
		return usageError{fmt.Errorf("--test-folds %d: a cross-validation needs 2 or more folds", o.folds)}
	}
	if o.fixedSplit() {
		if o.folds > 0 {
			return usageError{errors.New("--test-folds splits by annotator; it does not go with --test-from or --test-sessions")}
		}
		if o.cmd.Flags().Changed("test-fraction") {
			return usageError{errors.New("--test-fraction splits by annotator; it does not go with --test-from or --test-sessions")}
		}
	}
	return nil
}

// fixedSplit reports whether the user chose the test set.
func (o *crowdOut) fixedSplit() bool {
	return len(o.testFrom) > 0 || o.cmd.Flags().Changed("test-sessions")
}

// testFiles expands the --test-from paths like the inputs.
func (o *crowdOut) testFiles(exts ...string) (map[string]bool, []string, error) {
	files, err := expandPaths(o.testFrom, exts...)
	if err != nil {
		return nil, nil, fmt.Errorf("--test-from: %w", err)
	}
	test := map[string]bool{}
	for _, f := range files {
		test[filepath.Clean(f)] = true
	}
	return test, files, nil
}

// inputs returns the files to read: those of the arguments, then the test
// files not among them.
func inputs(args []string, test []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range append(slices.Clone(args), test...) {
		if c := filepath.Clean(f); !seen[c] || f == "-" {
			seen[c] = true
			out = append(out, f)
		}
	}
	return out
}

// testFromText says in the manifest which split --test-from made.
func testFromText(files []string) string {
	return "by source: the answers read from " + strings.Join(files, ", ") + " (--test-from) form the test set, all others the training set"
}

// write builds the datasets and writes them, printing a summary. With a
// split (how says which), that split is used instead of one by annotator.
func (o *crowdOut) write(cmd *cobra.Command, domain string, sources []string, input map[string]int, t *crowd.AnswerTable, split *crowd.Split, how string) error {
	opts := crowd.Options{TestFraction: o.fraction, Seed: o.seed, AtLeastOne: o.atLeastOne}
	if len(t.Answers) == 0 {
		return fmt.Errorf("%s: %w", strings.Join(sources, ", "), crowd.ErrNoAnswers)
	}
	var runs []*crowd.Datasets
	var dirs []string
	if split != nil {
		d, err := crowd.BuildSplit(domain, t, *split, how, opts)
		if err != nil {
			return err
		}
		runs, dirs = []*crowd.Datasets{d}, []string{o.dir}
	} else if o.folds > 0 {
		var err error
		if runs, err = crowd.BuildFolds(domain, t, o.folds, opts); err != nil {
			return fmt.Errorf("%s: %w", strings.Join(sources, ", "), err)
		}
		for i := range runs {
			dirs = append(dirs, filepath.Join(o.dir, crowd.FoldDir(i)))
		}
	} else {
		d, err := crowd.Build(domain, t, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", strings.Join(sources, ", "), err)
		}
		runs, dirs = []*crowd.Datasets{d}, []string{o.dir}
	}
	for _, d := range runs {
		d.Manifest.Sources, d.Manifest.Input = sources, input
	}
	// The whole output directory at once: a failed run changes nothing,
	// and fewer folds than last time leave none of the old ones.
	var err error
	if folds := split == nil && o.folds > 0; folds {
		err = crowd.WriteFolds(o.dir, runs)
	} else {
		err = runs[0].Write(o.dir)
	}
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if o.json {
		out := crowdJSON{Output: o.dir}
		for i, d := range runs {
			out.Splits = append(out.Splits, splitJSON{Output: dirs[i], Manifest: d.Manifest})
		}
		return writeJSON(w, out)
	}
	for i, d := range runs {
		m := d.Manifest
		fmt.Fprintf(w, "%s: %d answers by %d annotators -> %s\n", m.Domain, m.Train.Answers+m.Test.Answers,
			len(m.Train.Annotators)+len(m.Test.Annotators)-len(m.BothSides), dirs[i])
		if split != nil {
			fmt.Fprintf(w, "  split %s\n  %d annotators on both sides\n", m.Split, len(m.BothSides))
		}
		for _, p := range []struct {
			name string
			part crowd.Part
		}{{"train", m.Train}, {"test", m.Test}} {
			fmt.Fprintf(w, "  %-5s %3d annotators, %6d defaults, %6d non-defaults, %5d situations\n",
				p.name, len(p.part.Annotators), p.part.Positive, p.part.Negative, p.part.Situations)
		}
		fmt.Fprintf(w, "  %d descriptors, %d actions (%s), %d hard rules\n", m.Descriptors, len(m.Actions), strings.Join(m.Actions, ", "), m.HardRules)
	}
	return nil
}

// crowdJSON is what a generating crowd command wrote: one split, or the
// splits of a cross-validation (--test-folds), each with its manifest.
type crowdJSON struct {
	Output string      `json:"output"`
	Splits []splitJSON `json:"splits"`
}

type splitJSON struct {
	Output   string         `json:"output"`
	Manifest crowd.Manifest `json:"manifest"`
}

// printWarnings writes the reader's warnings to stderr, at most 50 of them.
func printWarnings(cmd *cobra.Command, warns logic.ErrorList) {
	w := cmd.ErrOrStderr()
	for i, x := range warns {
		if i == 50 {
			fmt.Fprintf(w, "warning: %d more warnings not shown\n", len(warns)-50)
			break
		}
		fmt.Fprintf(w, "warning: %s\n", x)
	}
}

// expandPaths replaces directories by the files in them whose names end in
// one of exts, sorted.
func expandPaths(paths []string, exts ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if p == "-" {
			out = append(out, p)
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		n := len(out)
		for _, e := range entries {
			for _, x := range exts {
				if !e.IsDir() && strings.HasSuffix(e.Name(), x) {
					out = append(out, filepath.Join(p, e.Name()))
					break
				}
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("%s: no %s files", p, strings.Join(exts, " or "))
		}
	}
	return out, nil
}

// eachInput opens every path in turn ("-" is stdin).
func eachInput(cmd *cobra.Command, paths []string, fn func(r io.Reader, name string) error) error {
	for _, p := range paths {
		r, name, err := fileutil.Open(p, cmd.InOrStdin())
		if err != nil {
			return err
		}
		err = fn(r, name)
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func newCrowdFootballCmd() *cobra.Command {
	var o crowdOut
	cmd := &cobra.Command{
		Use:   "football PATH... -o OUT",
		Short: "Datasets from NFL play calls: the team with the ball is the annotator",
		Long: `football reads NFL play-by-play CSV files (nflscrapR's legacy layout, or the
current nflscrapR / nflfastR layout) or fourth-down decision files
(fourth_calculator's layout), or directories of them ("-" is stdin), and turns
every play call into an answer: the situation (down, distance, field position,
time left, score difference, as readable atoms) and the call (punt, field_goal,
run, pass, kneel). A sack counts as a pass call; kickoffs, extra points,
timeouts, no plays, spikes, two-point tries, preseason and Pro Bowl games are
dropped. The layout is recognised by the header, exactly: a header that fits
no layout or two is an error saying what each layout needs, and a table with
a down column is never read as fourth-down data. Rows that cannot be read are
skipped with a warning naming file and line.`,
		Example: `  strata crowd football ../shared/data/football/playoffs -o out/football
  strata crowd football ../shared/data/football/fourth_down -o out/fourth --test-fraction 0.25 --seed 7
  strata crowd football ../shared/data/football/post_season -o out/temporal \
      --test-from ../shared/data/football/post_season/post_pbp_2014.csv \
      --test-from ../shared/data/football/post_season/post_pbp_2015.csv`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			paths, err := expandPaths(args, ".csv")
			if err != nil {
				return err
			}
			test, testPaths, err := o.testFiles(".csv")
			if err != nil {
				return err
			}
			paths = inputs(paths, testPaths)
			var answers []crowd.Answer
			var split crowd.Split
			var total football.Stats
			next := 0 // the path being read: "-" is named <stdin>
			err = eachInput(cmd, paths, func(r io.Reader, name string) error {
				path := paths[next]
				next++
				as, st, warns, err := football.Read(r, name)
				printWarnings(cmd, warns)
				answers = append(answers, as...)
				if test[filepath.Clean(path)] {
					split.Test = append(split.Test, as...)
				} else {
					split.Train = append(split.Train, as...)
				}
				total.Add(st)
				return err
			})
			if err != nil {
				return err
			}
			input := map[string]int{"rows": total.Rows, "answers": total.Answers, "non_plays": total.NonPlays,
				"two_point_tries": total.TwoPoint, "spikes": total.Spikes, "pro_bowl": total.ProBowl,
				"preseason": total.Preseason, "skipped_rows": total.Malformed}
			t := &crowd.AnswerTable{Actions: football.Actions, Answers: answers, Descriptors: football.DescriptorNames()}
			if o.fixedSplit() {
				return o.write(cmd, "football", paths, input, t, &split, testFromText(testPaths))
			}
			return o.write(cmd, "football", paths, input, t, nil, "")
		},
	}
	o.flags(cmd)
	return cmd
}

func newCrowdPokerCmd() *cobra.Command {
	var o crowdOut
	var streets []string
	var maxHands int
	var testSessions string
	cmd := &cobra.Command{
		Use:   "poker HANDS... -o OUT",
		Short: "Datasets from poker hand histories: the player is the annotator",
		Long: `poker reads PokerStars hand histories (plain or .gz) and turns every fold,
check, call, bet and raise of a player whose hole cards are known into an
answer: the situation from that player's view (street just dealt, made hand,
draws, board texture, position, what the opponents did on each street) and
the action fold, call (or check) or raise (or bet). Malformed hands are
skipped with a warning naming the hand number.`,
		Example: `  strata crowd poker ../shared/data/poker/pluribus_hands.txt.gz -o out/poker
  strata crowd poker ../shared/data/poker/pluribus_hands.txt.gz --test-sessions 100-118 -o out/later
  strata crowd poker hands.txt --streets flop,turn,river --max-hands 2000 -o out/postflop`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			var opts poker.Options
			for _, s := range streets {
				st, ok := poker.ParseStreet(s)
				if !ok {
					return usageError{fmt.Errorf("--streets: %q is not preflop, flop, turn or river", s)}
				}
				opts.Streets = append(opts.Streets, st)
			}
			opts.MaxHands = maxHands
			var sessions poker.Sessions
			if cmd.Flags().Changed("test-sessions") {
				if len(o.testFrom) > 0 {
					return usageError{errors.New("give the test set with --test-from or with --test-sessions, not both")}
				}
				var err error
				if sessions, err = poker.ParseSessions(testSessions); err != nil {
					return usageError{fmt.Errorf("--test-sessions: %w", err)}
				}
			}
			test, testPaths, err := o.testFiles("")
			if err != nil {
				return err
			}
			paths := inputs(args, testPaths)
			var answers []crowd.Answer
			var split crowd.Split
			var total poker.Stats
			next := 0 // the path being read: "-" is named <stdin>
			err = eachInput(cmd, paths, func(r io.Reader, name string) error {
				path := paths[next]
				next++
				if opts.MaxHands > 0 && total.Hands >= maxHands {
					return nil
				}
				o := opts
				if o.MaxHands > 0 {
					o.MaxHands -= total.Hands
				}
				ds, st, warns, err := poker.ReadDecisions(r, name, o)
				printWarnings(cmd, warns)
				for _, d := range ds {
					inTest := test[filepath.Clean(path)]
					if sessions != nil {
						n, ok := poker.SessionOf(d.Table)
						if !ok {
							return logic.Errorf(logic.Position{File: name, Line: d.Line}, "hand #%s: table %q has no session number (\"Session N\") for --test-sessions", d.Hand, d.Table)
						}
						inTest = sessions.Contains(n)
					}
					if inTest {
						split.Test = append(split.Test, d.Answer())
					} else {
						split.Train = append(split.Train, d.Answer())
					}
					answers = append(answers, d.Answer())
				}
				total.Hands += st.Hands
				total.Skipped += st.Skipped
				total.Decisions += st.Decisions
				total.UnknownCards += st.UnknownCards
				total.OtherStreets += st.OtherStreets
				return err
			})
			if err != nil {
				return err
			}
			input := map[string]int{"hands": total.Hands, "skipped_hands": total.Skipped, "decisions": total.Decisions,
				"decisions_without_hole_cards": total.UnknownCards, "decisions_on_other_streets": total.OtherStreets}
			if len(answers) == 0 {
				return errors.New("no decisions with known hole cards in the input")
			}
			t := &crowd.AnswerTable{Actions: poker.Actions, Answers: answers, Descriptors: poker.DescriptorNames()}
			switch {
			case sessions != nil:
				return o.write(cmd, "poker", paths, input, t, &split, "by session: the hands of sessions "+sessions.String()+
					" (--test-sessions, from the table name) form the test set, all others the training set")
			case len(o.testFrom) > 0:
				return o.write(cmd, "poker", paths, input, t, &split, testFromText(testPaths))
			}
			return o.write(cmd, "poker", paths, input, t, nil, "")
		},
	}
	o.flags(cmd)
	cmd.Flags().StringVar(&testSessions, "test-sessions", "", `the hands of these sessions ("100-118", "30-35,40"; the number in a table name such as 'Pluribus Session 100') form the test set`)
	cmd.Flags().StringSliceVar(&streets, "streets", nil, "keep decisions on these streets only (preflop, flop, turn, river)")
	cmd.RegisterFlagCompletionFunc("streets", words("preflop", "flop", "turn", "river"))
	cmd.Flags().IntVar(&maxHands, "max-hands", 0, "read at most this many well-formed hands (0: all)")
	return cmd
}

func newCrowdTableCmd() *cobra.Command {
	var o crowdOut
	var f crowd.AnswerFormat
	var describe []string
	cmd := &cobra.Command{
		Use:   "table CSV -o OUT --annotator COLUMN --answer COLUMN",
		Short: "Datasets from any CSV of answers: situation columns, an annotator and an answer",
		Long: `table reads a CSV answer table with a header row: one row per answer, an
annotator column, an answer column and situation columns. Answers become
action atoms ("Field Goal" -> field_goal); values given with --dont-know give
no positive example. Situation columns become descriptors: --describe gives
named intervals of a numeric column (they may overlap); otherwise a 0/1 or
true/false column gives the atom named after it, a numeric column with many
values is cut into --bins bins of about equal size named by their range
(ydstogo_4_to_7), and any other column gives one atom per value (down_4).
Rows that cannot be used are skipped with a warning naming file, line and
column.`,
		Example: `  strata crowd table examples/calls.csv -o calls --annotator team --answer call \
      --describe short=ydstogo:..3 --describe long=ydstogo:8..
  strata crowd table answers.csv -o out/answers --annotator worker --answer call \
      --dont-know "don't know" --test-folds 5 --json`,
		Args: argsBetween(1, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			for _, d := range describe {
				iv, err := crowd.ParseInterval(d)
				if err != nil {
					return usageError{fmt.Errorf("--describe: %w", err)}
				}
				f.Intervals = append(f.Intervals, iv)
			}
			if f.Annotator == "" || f.Answer == "" {
				return usageError{errors.New("table needs --annotator and --answer")}
			}
			test, testPaths, err := o.testFiles(".csv")
			if err != nil {
				return err
			}
			if test[filepath.Clean(args[0])] {
				return usageError{fmt.Errorf("%s is both the training table and a --test-from table", args[0])}
			}
			paths := append(slices.Clone(args), testPaths...)
			var sources []crowd.AnswerSource
			for i, p := range paths {
				r, name, err := fileutil.Open(p, cmd.InOrStdin())
				if err != nil {
					return err
				}
				defer r.Close()
				sources = append(sources, crowd.AnswerSource{R: r, Name: name, Test: i > 0})
			}
			t, split, warns, err := crowd.ReadAnswerSources(sources, f)
			printWarnings(cmd, warns)
			if err != nil {
				return err
			}
			input := map[string]int{"answers": len(t.Answers)}
			if o.fixedSplit() {
				return o.write(cmd, "table", paths, input, t, &split, testFromText(testPaths))
			}
			return o.write(cmd, "table", paths, input, t, nil, "")
		},
	}
	o.flags(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.Annotator, "annotator", "", "column of the annotator (required)")
	fl.StringVar(&f.Answer, "answer", "", "column of the answer (required)")
	fl.StringSliceVar(&f.DontKnow, "dont-know", nil, `answer values meaning "don't know" (default "dont_know", "don't know", "?")`)
	fl.StringSliceVar(&f.Actions, "actions", nil, "the actions; other answers are skipped with a warning (default: every answer seen)")
	fl.StringSliceVar(&f.Situation, "situation", nil, "situation columns (default: every other column)")
	fl.StringSliceVar(&f.Ignore, "ignore", nil, "columns that are not part of the situation")
	fl.StringArrayVar(&describe, "describe", nil, "a named interval NAME=COLUMN:LO..HI of a numeric column (repeatable; either bound may be left out)")
	fl.IntVar(&f.Bins, "bins", 3, "bins of an automatically described numeric column")
	atLeast(fl, "bins", 1, false)
	return cmd
}
