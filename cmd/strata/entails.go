package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
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
	"github.com/strata-logic/strata/logic"
)

func init() { register(newEntailsCmd) }

func newEntailsCmd() *cobra.Command {
	var flags baseFlags
	var semantics, queries, queriesFormat, results string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "entails RULES [QUERY]",
		Short: "Decide whether a default base entails α |~ β under System P, rational or lexicographic closure, System W or c-inference",
		Long: `entails decides whether a consistent set of defaults entails the default QUERY:

  --semantics p         System P (p-entailment): Δ ∪ {α |~ ¬β} is inconsistent;
                        the cautious core every rational reasoner accepts
  --semantics rational  rational closure / System Z: (Θ_Z, α) ⊢poss β (default)
  --semantics lex       lexicographic closure: β holds in the α-worlds that violate
                        the fewest defaults, Z-level by Z-level from the top; it
                        keeps the defaults an exception does not contradict
  --semantics w         System W: β holds in the α-worlds whose sets of falsified
                        defaults, Z-level by Z-level from the top, are minimal
                        under inclusion (between rational and lex)
  --semantics c         skeptical c-inference: every c-representation (ranking
                        function summing one impact per falsified default) ranks
                        α ∧ β below α ∧ ¬β; decided exactly

The first line of output is "yes" or "no" alone, for scripts; the next lines say
why. QUERY is a default: 'penguin -> !flies', 'bird, red |~ flies', ' -> bird',
or a conditional '(!f|p)' in the .cl syntax. With --queries FILE instead, every
query of FILE (a .clq file, or a rule file) is decided, one "yes" or "no" per
line, a tab, and the query as written. --timeout bounds the time of each query:
a query that overruns it is reported as "timeout", not answered (its work
stops at the solver's next check point). --results csv or json writes one record per query with the answer
and its time in seconds, for benchmarks; the JSON form also gives the setup
time (reading the base, its partition and, for c, the constraint system
CR(Δ) and a minimal c-representation).

--weak accepts a weakly consistent base: the defaults that no Z-level can
take (Δ^∞ of the extended partition, such as (Bottom|A) in a .cl file) make
their antecedents impossible, and every semantics reasons with the rest.

RULES is a rule file, a .cl knowledge base or - for standard input (see
'strata help closure'). A query whose antecedent contradicts the background
knowledge is entailed in every semantics.`,
		Example: `  strata entails --semantics lex penguins.rules 'penguin -> wings'
  strata entails --semantics p birds.cl '(b|p)'
  strata entails --semantics rational birds.cl --queries birds.clq
  strata entails --semantics c birds.cl --queries birds.clq --timeout 10s --results csv`,
		Args: argsBetween(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			sem, err := defaults.ParseSemantics(semantics)
			if err != nil {
				return usageError{fmt.Errorf("--semantics: %w", err)}
			}
			switch {
			case len(args) == 2 && queries != "":
				return usageError{errors.New("give either a QUERY or --queries, not both")}
			case len(args) == 1 && queries == "":
				return usageError{errors.New("entails needs a QUERY or --queries")}
			case args[0] == "-" && queries == "-":
				return usageError{errors.New("RULES and --queries cannot both be standard input")}
			}
			switch results {
			case "text", "csv", "json":
			default:
				return usageError{fmt.Errorf("--results %q: want text, csv or json", results)}
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
			rs, err := newReasoner(cmd.Context(), b, flags.weak)
			if err != nil {
				return err
			}
			if err := rs.Prepare(cmd.Context(), sem); err != nil {
				return err
			}
			setup := time.Since(start)
			w := bufio.NewWriter(cmd.OutOrStdout())
			if queries == "" && results == "text" {
				a, err := decide(cmd.Context(), rs, sem, qs[0], timeout, true)
				if errors.Is(err, context.DeadlineExceeded) {
					fmt.Fprintf(w, "timeout\nno answer within %v\n", timeout)
					return w.Flush()
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%s\n%s\n", yesNo(a.Entailed), a.Reason())
				return w.Flush()
			}
			rep := queryReport{Semantics: sem.String(), Setup: setup.Seconds(), Timeout: timeout.Seconds()}
			for _, q := range qs {
				t0 := time.Now()
				a, err := decide(cmd.Context(), rs, sem, q, timeout, false)
				answer := ""
				switch {
				case errors.Is(err, context.DeadlineExceeded):
					answer = "timeout"
				case err != nil:
					return err
				default:
					answer = yesNo(a.Entailed)
				}
				text := q.Text
				if text == "" {
					text = q.String(b.Vocab)
				}
				rep.Queries = append(rep.Queries, queryResult{Query: text, Answer: answer, Seconds: time.Since(t0).Seconds()})
			}
			if err := rep.write(w, results); err != nil {
				return err
			}
			return w.Flush()
		},
	}
	flags.add(cmd)
	cmd.Flags().StringVar(&semantics, "semantics", "rational", "p, rational, lex, w or c")
	cmd.Flags().StringVar(&queries, "queries", "", "decide every query of this file (.clq, or one rule per line) instead of QUERY")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "time budget of each query (0: none); overruns are reported as \"timeout\"")
	cmd.Flags().StringVar(&results, "results", "text", "output: text, or csv or json with the time of every query")
	cmd.Flags().StringVar(&queriesFormat, "queries-format", "auto", "format of --queries: clq, rules, or auto (clq for a .clq name)")
	return cmd
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
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
	case "auto", "":
		clq = strings.EqualFold(filepath.Ext(path), ".clq")
	default:
		return nil, usageError{fmt.Errorf("--queries-format %q: want clq, rules or auto", format)}
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

// decide answers one query within the time budget (none when zero). An
// answer that took longer than the budget is discarded as an overrun.
func decide(ctx context.Context, rs *defaults.Reasoner, sem defaults.Semantics, q defaults.Default, timeout time.Duration, explain bool) (defaults.Answer, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	t0 := time.Now()
	var a defaults.Answer
	var err error
	if explain {
		a, err = rs.Explain(ctx, sem, q)
	} else {
		var ok bool
		ok, err = rs.Entails(ctx, sem, q.Antecedent, q.Consequent)
		a.Entailed = ok
	}
	if err == nil && timeout > 0 && time.Since(t0) > timeout {
		err = context.DeadlineExceeded
	}
	return a, err
}

// queryReport is the record of a run of queries.
type queryReport struct {
	Semantics string        `json:"semantics"`
	Setup     float64       `json:"setup_seconds"`
	Timeout   float64       `json:"timeout_seconds,omitempty"`
	Queries   []queryResult `json:"queries"`
}

type queryResult struct {
	Query   string  `json:"query"`
	Answer  string  `json:"answer"` // yes, no or timeout
	Seconds float64 `json:"seconds"`
}

func (r queryReport) write(w io.Writer, format string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
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
