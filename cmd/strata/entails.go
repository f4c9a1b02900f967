package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
)

func init() { register(newEntailsCmd) }

func newEntailsCmd() *cobra.Command {
	var flags baseFlags
	var queries, queriesFormat, results string
	var relation defaults.Semantics
	var asJSON, asCSV bool
	var timeout, total time.Duration
	cmd := &cobra.Command{
		Use:   "entails RULES [QUERY]",
		Short: "Decide whether a default base entails α |~ β under System P, rational or lexicographic closure, System W or c-inference",
		Long: `entails decides whether a consistent set of defaults entails the default QUERY
under the inference relation --relation:

  --relation p         System P (p-entailment): Δ ∪ {α |~ ¬β} is inconsistent;
                       the cautious core every rational reasoner accepts
  --relation rational  rational closure / System Z: (Θ_Z, α) ⊢poss β (default)
  --relation lex       lexicographic closure: β holds in the α-worlds that violate
                       the fewest defaults, Z-level by Z-level from the top; it
                       keeps the defaults an exception does not contradict
  --relation w         System W: β holds in the α-worlds whose sets of falsified
                       defaults, Z-level by Z-level from the top, are minimal
                       under inclusion (between rational and lex)
  --relation c         skeptical c-inference: every c-representation (ranking
                       function summing one impact per falsified default) ranks
                       α ∧ β below α ∧ ¬β; decided exactly

The first line of output is "yes" or "no" alone, for scripts; the next lines say
why. QUERY is a default: 'penguin -> !flies', 'bird, red |~ flies', ' -> bird',
or a conditional '(!f|p)' in the .cl syntax. With --queries FILE instead, every
query of FILE (a .clq file, or a rule file) is decided, one "yes" or "no" per
line, a tab, and the query as written.

The first query compiles what the base needs once: its Z-ordering and, for
c, when the query needs it, the constraint system CR(Δ) (a query that a
c-representation at hand rejects needs none); a compilation that takes long
shows its progress on stderr. --query-timeout bounds all the work of each
query, that compilation included. A query that overruns its budget is
reported as "timeout", not answered, with a line on stderr that says how far
it came; its work stops at the solver's next check point, what it compiled
is kept, and the next query goes on from there. --timeout bounds the whole
command: the answers found are printed, the queries left are reported as
"timeout", and the command fails.

--json prints the answer as POST /api/query gives it on the base (answer,
semantics: the relation, explanation with its text and its defaults and
Z-levels) with its time in seconds, or with --queries one record per query
with its answer, its time (the compilation it did included) and, for a
timeout, how far it came (stopped), and the time to read the base and the
queries (setup_seconds); --csv prints the records of --queries as CSV.

--weak accepts a weakly consistent base: the defaults that no Z-level can
take (Δ^∞ of the extended partition, such as (Bottom|A) in a .cl file) make
their antecedents impossible, and every relation reasons with the rest.

RULES is a rule file, a .cl knowledge base or - for standard input (see
'strata help closure'). A query whose antecedent contradicts the background
knowledge is entailed under every relation.`,
		Example: `  strata entails --relation lex examples/penguins.rules 'penguin -> wings'
  strata entails --relation p examples/birds.cl '(b|p)'
  strata entails --relation rational examples/birds.cl --queries examples/birds.clq
  strata entails --relation c examples/birds.cl --queries examples/birds.clq --query-timeout 10s --json`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sem := relation
			if err := resultsFlag(cmd, results, &asJSON, &asCSV); err != nil {
				return err
			}
			if asJSON && asCSV {
				return usageError{errors.New("give --json or --csv, not both")}
			}
			if asCSV && queries == "" {
				return usageError{errors.New("--csv writes the records of --queries")}
			}
			switch {
			case len(args) == 2 && queries != "":
				return usageError{errors.New("give either a QUERY or --queries, not both")}
			case len(args) == 1 && queries == "":
				return usageError{errors.New("entails needs a QUERY or --queries")}
			case args[0] == "-" && queries == "-":
				return usageError{errors.New("RULES and --queries cannot both be standard input")}
			}
			ctx := cmd.Context()
			if total > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, total)
				defer cancel()
			}
			start := time.Now()
			b, err := loadBase(cmd, args[0], flags)
			if err != nil {
				return err
			}
			var qs []defaults.Default
			if queries != "" {
				if qs, err = loadQueries(cmd, queries, queriesFormat, b.Vocab); err != nil {
					return err
				}
			} else {
				q, err := parseDefault(b.Vocab, args[1])
				if err != nil {
					return fmt.Errorf("query: %w", err)
				}
				qs = []defaults.Default{q}
			}
			prog := newMLNProgress(cmd.ErrOrStderr(), "entails")
			defer prog.finish()
			rs := &lazyReasoner{base: b, weak: flags.weak, progress: prog.set}
			setup := time.Since(start)
			w := bufio.NewWriter(cmd.OutOrStdout())
			if queries == "" {
				t0 := time.Now()
				a, err := decide(ctx, rs, sem, qs[0], timeout, true)
				out := entailsJSON{Answer: &jsonview.Answer{}}
				switch {
				case err != nil && ctx.Err() != nil:
					return commandBudget(ctx, err, total, 0, 1)
				case errors.Is(err, context.DeadlineExceeded):
					out.Answer = &jsonview.Answer{Query: args[1], Word: "timeout", Semantics: sem.String(),
						Explanation: &jsonview.Explanation{Text: fmt.Sprintf("no answer within %v: %v", timeout, err),
							Entailing: []jsonview.FormulaRef{}, Drowned: []int{}, SetAside: []jsonview.FormulaRef{}}}
				case err != nil:
					return err
				default:
					out.SetDefaults(args[1], a)
					out.Explanation = &jsonview.Explanation{}
					out.Explanation.SetDefaults(a, rs.rs.Ordering(), b.Vocab, b.Vocab.LitString)
				}
				out.Seconds = time.Since(t0).Seconds()
				if asJSON {
					err = writeJSON(w, out)
				} else {
					_, err = fmt.Fprintf(w, "%s\n%s\n", out.Word, out.Explanation.Text)
				}
				if err != nil {
					return err
				}
				return w.Flush()
			}
			format := "text"
			switch {
			case asJSON:
				format = "json"
			case asCSV:
				format = "csv"
			}
			rep := queryReport{Semantics: sem.String(), Setup: setup.Seconds(), Timeout: timeout.Seconds(), Queries: []queryResult{}}
			var stopped error // the whole command's budget ran out
			for k, q := range qs {
				text := q.Text
				if text == "" {
					text = q.String(b.Vocab)
				}
				res := queryResult{Query: text, Answer: "timeout"}
				if stopped == nil {
					t0 := time.Now()
					a, err := decide(ctx, rs, sem, q, timeout, false)
					res.Seconds = time.Since(t0).Seconds()
					switch {
					case err != nil && ctx.Err() != nil:
						if stopped = commandBudget(ctx, err, total, k, len(qs)); stopped == err {
							return err // interrupted
						}
						res.Stopped = err.Error()
					case errors.Is(err, context.DeadlineExceeded):
						res.Stopped = err.Error()
						prog.finish()
						fmt.Fprintf(cmd.ErrOrStderr(), "strata: query %d %s: no answer within %v (--query-timeout): %v\n", k+1, text, timeout, err)
					case err != nil:
						return err
					default:
						res.Answer = jsonview.YesNo(a.Entailed)
					}
				}
				rep.Queries = append(rep.Queries, res)
			}
			if err := rep.write(w, format); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
			return stopped
		},
	}
	flags.add(cmd)
	fl := cmd.Flags()
	fl.Var(relationValue{&relation}, "relation", "the inference relation: p (System P), rational (rational closure, System Z), lex (lexicographic closure), w (System W) or c (skeptical c-inference)")
	fl.Lookup("relation").DefValue = "rational"
	alias(fl, "semantics", "relation", true)
	fl.StringVar(&queries, "queries", "", "decide every query of this file (.clq, or one rule per line) instead of QUERY")
	fl.DurationVar(&timeout, "query-timeout", 0, "time budget of each query, the compilation of the base it needs included (0: none); overruns are reported as \"timeout\"")
	fl.DurationVar(&total, "timeout", 0, "time budget of the whole command (0: none); the queries it leaves unanswered are reported as \"timeout\"")
	fl.BoolVar(&asJSON, "json", false, "print the answer, or the records of --queries with their times, as JSON")
	fl.BoolVar(&asCSV, "csv", false, "print the records of --queries, with their times, as CSV")
	fl.StringVar(&results, "results", "", "the old spelling of --json and --csv: text, csv or json")
	deprecate(fl, "results", "use --json or --csv")
	addChoice(fl, &queriesFormat, "queries-format", "auto", []string{"auto", "clq", "rules"}, "format of --queries: clq, rules, or auto (clq for a .clq name)")
	return cmd
}

// resultsFlag applies the deprecated --results FORMAT as --json or --csv.
func resultsFlag(cmd *cobra.Command, results string, asJSON, asCSV *bool) error {
	if !cmd.Flags().Changed("results") {
		return nil
	}
	switch results {
	case "text":
	case "json":
		*asJSON = true
	case "csv":
		*asCSV = true
	default:
		return usageError{fmt.Errorf("--results %q: want text, csv or json (or rather --json or --csv)", results)}
	}
	return nil
}

// entailsJSON is the answer to one query as POST /api/query gives it on
// the base (answer yes or no, or timeout with the explanation's text
// alone), and the time it took.
type entailsJSON struct {
	*jsonview.Answer
	Seconds float64 `json:"seconds"`
}

// parseDefault reads a query: a rule or a .cl conditional (defaults.ParseQuery).
func parseDefault(v *logic.Vocabulary, src string) (defaults.Default, error) {
	return defaults.ParseQuery(v, src)
}

// loadQueries reads a .clq file, or a rule file of queries: as format says,
// or by path's extension for "auto" (standard input has none: give clq).
func loadQueries(cmd *cobra.Command, path, format string, v *logic.Vocabulary) ([]defaults.Default, error) {
	var clq bool
	switch format {
	case "clq":
		clq = true
	case "rules":
	default: // auto
		clq = strings.EqualFold(filepath.Ext(path), ".clq")
	}
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if clq {
		return defaults.ReadCLQ(r, name, v)
	}
	return defaults.ReadRules(r, name, v)
}

// newReasoner builds the reasoner for a base, strictly consistent or (with
// --weak) weakly consistent. A strict refusal of a weakly consistent base
// says so.
func newReasoner(ctx context.Context, b *defaults.Base, weak bool) (*defaults.Reasoner, error) {
	if weak {
		return defaults.NewWeakReasoner(ctx, b)
	}
	rs, err := defaults.NewReasoner(ctx, b)
	var ie *defaults.InconsistentError
	if errors.As(err, &ie) && !ie.Background {
		if p, werr := defaults.ExtendedPartition(ctx, b); werr == nil && !p.Strong() {
			return nil, fmt.Errorf("%w (the base is weakly consistent: --weak makes the antecedents of the %d defaults no level takes impossible)", err, len(p.Infinite))
		}
	}
	return rs, err
}

// lazyReasoner builds the reasoner of a base on first use, within the
// budget of the query that needs it; a build that ran out of its budget is
// tried again by the next query.
type lazyReasoner struct {
	base     *defaults.Base
	weak     bool
	progress func(stage string, done, total int)
	rs       *defaults.Reasoner
}

func (l *lazyReasoner) get(ctx context.Context) (*defaults.Reasoner, error) {
	if l.rs == nil {
		rs, err := newReasoner(ctx, l.base, l.weak)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("stopped computing the Z-ordering: %w", err)
			}
			return nil, err
		}
		rs.SetProgress(l.progress)
		l.rs = rs
	}
	return l.rs, nil
}

// decide answers one query within the time budget (none when zero), which
// covers whatever the query needs first: the reasoner, and the compilation
// of the base for the semantics. An answer that took longer than the
// budget is discarded as an overrun.
func decide(ctx context.Context, l *lazyReasoner, sem defaults.Semantics, q defaults.Default, timeout time.Duration, explain bool) (defaults.Answer, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	t0 := time.Now()
	var a defaults.Answer
	rs, err := l.get(ctx)
	if err != nil {
		return a, err
	}
	if explain {
		a, err = rs.Explain(ctx, sem, q)
	} else {
		var ok bool
		ok, err = rs.Entails(ctx, sem, q.Antecedent, q.Consequent)
		a.Entailed = ok
	}
	if err == nil && timeout > 0 && time.Since(t0) > timeout {
		err = fmt.Errorf("answered after the budget: %w", context.DeadlineExceeded)
	}
	return a, err
}

// commandBudget is the error of a command whose whole budget (--timeout)
// ran out, with what had been done, or err itself when it is another.
func commandBudget(ctx context.Context, err error, total time.Duration, done, queries int) error {
	if ctx.Err() == nil || total == 0 || !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("entails ran out of its budget (--timeout %v) after %d of %d queries: %w", total, done, queries, err)
}

// queryReport is the record of a run of queries, under the relation
// named semantics, as the JSON API names it.
type queryReport struct {
	Semantics string        `json:"semantics"`
	Setup     float64       `json:"setup_seconds"`
	Timeout   float64       `json:"query_timeout_seconds,omitempty"`
	Queries   []queryResult `json:"queries"`
}

type queryResult struct {
	Query   string  `json:"query"`
	Answer  string  `json:"answer"` // yes, no or timeout
	Seconds float64 `json:"seconds"`
	// Stopped says, for a query that ran out of its budget, how far its
	// work had come.
	Stopped string `json:"stopped,omitempty"`
}

func (r queryReport) write(w io.Writer, format string) error {
	switch format {
	case "json":
		return writeJSON(w, r)
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write([]string{"query", "answer", "seconds"})
		for _, q := range r.Queries {
			cw.Write([]string{q.Query, q.Answer, strconv.FormatFloat(q.Seconds, 'g', 6, 64)})
		}
		cw.Flush()
		return cw.Error()
	}
	for _, q := range r.Queries {
		if _, err := fmt.Fprintf(w, "%s\t%s\n", q.Answer, q.Query); err != nil {
			return err
		}
	}
	return nil
}
