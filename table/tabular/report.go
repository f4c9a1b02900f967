package tabular

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/table"
)

var nan = math.NaN()

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }

// Result returns the result of the named method, or nil.
func (t *TableResult) Result(method string) *Result {
	for _, r := range t.Results {
		if r.Method == method {
			return r
		}
	}
	return nil
}

func (r *Report) write() error {
	if err := fileutil.WriteAtomic(filepath.Join(r.Options.Dir, "results.csv"), r.WriteCSV); err != nil {
		return err
	}
	return fileutil.WriteAtomic(filepath.Join(r.Options.Dir, "results.md"), r.WriteMarkdown)
}

// WriteCSV writes one line per table and method:
// table,method,accuracy,macro_f1,rules,literals,seconds,time_stopped.
// Accuracy and macro-F1 are of the confusion table pooled over the splits;
// rules, literals and seconds are means per split (J48: leaves and tree
// nodes; empty where they have no meaning); time_stopped is, for strata,
// the number of splits whose learning the time limit ended (empty for the
// baselines); a method that did not run has empty scores.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"table", "method", "accuracy", "macro_f1", "rules", "literals", "seconds", "time_stopped"})
	for _, t := range r.Tables {
		for _, res := range t.Results {
			rec := []string{t.Dataset.Name, res.Method, "", "", num(res.Rules, 1), num(res.Literals, 1), "", ""}
			if res.Confusion != nil {
				rec[2], rec[3] = num(res.Confusion.Accuracy(), 4), num(res.Confusion.MacroF1(), 4)
				rec[6] = num(res.Seconds, 3)
				if strings.HasPrefix(res.Method, "strata-") {
					rec[7] = strconv.Itoa(res.TimeStopped)
				}
			}
			cw.Write(rec)
		}
	}
	cw.Flush()
	return cw.Error()
}

func num(x float64, prec int) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'f', prec, 64)
}

func pct(res *Result) string {
	if res == nil || res.Confusion == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*res.Confusion.Accuracy())
}

func f1(res *Result) string {
	if res == nil || res.Confusion == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*res.Confusion.MacroF1())
}

// WriteMarkdown writes the report: per table the accuracy and macro-F1 of
// every method, strata's theory sizes and times, J48's nodes and JRip's
// rules, and the published FOLD figures beside them.
func (r *Report) WriteMarkdown(w io.Writer) error {
	o := r.Options
	l := table.Learning(o.Learning).Defaulted()
	var b strings.Builder
	fmt.Fprintf(&b, "# strata bench tabular\n\n")
	if o.Command != "" {
		fmt.Fprintf(&b, "Command: `%s` (seed %d), %s in all.\n\n", o.Command, o.Seed, r.Elapsed.Round(time.Second))
	}
	fmt.Fprintf(&b, "Each table given as one file is scored by %d-fold cross-validation (stratified by class, seed %d), a table given as train and test files by that split; "+
		"accuracy and macro-F1 are those of the predictions pooled over the folds. Every choice is made on the training rows of a split: strata's cut points "+
		"(Fayyad and Irani's MDL criterion) and its number of iterations (", o.TestFolds, o.Seed)
	switch {
	case l.Folds >= 2:
		fmt.Fprintf(&b, "%d-fold cross-validation on the training rows", l.Folds)
		var other []string
		if f, _ := o.heldOut(SmallRows); f != l.Folds {
			other = append(other, fmt.Sprintf("%d-fold for a split of at most %d training rows", f, SmallRows))
		}
		switch f, share := o.heldOut(LargeRows + 1); {
		case f == 1:
			other = append(other, fmt.Sprintf("one held-out part of %.0f%% for a split of more than %d", 100*share, LargeRows))
		case f != l.Folds:
			other = append(other, fmt.Sprintf("%d-fold for a split of more than %d", f, LargeRows))
		}
		if len(other) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(other, "; "))
		}
		fmt.Fprintf(&b, ", each fold with the cut points of its own training rows, held-out rows scored as the task is, one class per row, and %s on the pooled curve", ruleText(l.Rule))
	case l.Folds == 1:
		fmt.Fprintf(&b, "one held-out part of %.0f%% of the training rows, with the cut points of the others, held-out rows scored as the task is, one class per row, and %s", 100*l.Validation, ruleText(l.Rule))
	default:
		fmt.Fprintf(&b, "none: the learner's limits")
	}
	held := l.Folds > 0 // iterations chosen on held-out rows
	if l.ValidationPatience > 0 && held {
		fmt.Fprintf(&b, ", a held-out part's run stopped %d iterations after its best held-out score", l.ValidationPatience)
	}
	if l.Timeout > 0 && held {
		fmt.Fprintf(&b, "; when the held-out parts' time ran out at their best score, the final run learned to the limits instead")
	}
	if l.Restarts > 1 && held {
		fmt.Fprintf(&b, "; the final run learned up to %d times with other seeds within the iteration limit, the theory most accurate on the training rows kept", l.Restarts)
	}
	if l.Prune {
		fmt.Fprintf(&b, "; the final theory pruned at the support chosen there")
	}
	if l.Grow > 0 {
		fmt.Fprintf(&b, "; each iteration's candidates with %d more grown by information gain from the rows of as many of them", l.Grow)
	}
	if l.Tally == learn.SwitchOn {
		fmt.Fprintf(&b, "; under lex, a level of one-literal rules that vote also a candidate of the first iteration and of the powers of two")
	}
	switch {
	case len(o.Variants) > 1:
		var ws []string
		for _, v := range o.Variants {
			ws = append(ws, "`"+v.String()+"`")
		}
		fmt.Fprintf(&b, "; and the encoding of the rows, among %s, by the same held-out parts (the best held-out accuracy at its chosen iteration)", strings.Join(ws, ", "))
	case len(o.Variants) == 1:
		fmt.Fprintf(&b, "; the rows encoded as `%s`", o.Variants[0])
	}
	fmt.Fprintf(&b, "), each learning run bounded by %s", durationText(l.Timeout))
	if l.Iterations > 0 {
		fmt.Fprintf(&b, " and %d iterations", l.Iterations)
	}
	if l.Patience > 0 {
		fmt.Fprintf(&b, ", patience %d", l.Patience)
	}
	fmt.Fprintf(&b, "; %d jobs (a learning run with one thread, or a baseline) ran at once. "+
		"A theory predicts `none` for a row when it entails no single class; such a row counts as wrong.\n\n", o.Threads)

	fmt.Fprintf(&b, "## Accuracy (%%)\n\n")
	fmt.Fprintf(&b, "| table | rows | poss | linear | lex | RF | J48 | JRip | XGBoost | majority | FOLD (published) | XGBoost (published) |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, t := range r.Tables {
		pub := PublishedFigures[t.Dataset.Name]
		fold, xgb := "–", "–"
		if pub.Method != "" {
			fold = fmt.Sprintf("%.0f (%s)", 100*pub.Accuracy, pub.Method)
		}
		if pub.XGBoost > 0 {
			xgb = fmt.Sprintf("%.0f", 100*pub.XGBoost)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t.Dataset.Name, t.Rows,
			pct(t.Result("strata-poss")), pct(t.Result("strata-linear")), pct(t.Result("strata-lex")),
			pct(t.Result("rf")), pct(t.Result("j48")), pct(t.Result("jrip")), pct(t.Result("xgboost")), pct(t.Result("majority")), fold, xgb)
	}
	fmt.Fprintf(&b, "\n## Macro-F1 (%%)\n\n")
	fmt.Fprintf(&b, "| table | poss | linear | lex | RF | J48 | JRip | XGBoost | majority |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, t := range r.Tables {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", t.Dataset.Name,
			f1(t.Result("strata-poss")), f1(t.Result("strata-linear")), f1(t.Result("strata-lex")),
			f1(t.Result("rf")), f1(t.Result("j48")), f1(t.Result("jrip")), f1(t.Result("xgboost")), f1(t.Result("majority")))
	}
	fmt.Fprintf(&b, "\n## Sizes and times (means per split)\n\n")
	fmt.Fprintf(&b, "| table | rules (poss, linear, lex) | literals (poss, linear, lex) | seconds (poss, linear, lex) | splits the time limit stopped (poss, linear, lex) | J48 nodes | JRip rules | FOLD rules (published) |\n|---|---|---|---|---|---:|---:|---:|\n")
	stopped := 0
	for _, t := range r.Tables {
		var rules, lits, secs, stops []string
		for _, m := range []string{"strata-poss", "strata-linear", "strata-lex"} {
			res := t.Result(m)
			if res == nil || res.Confusion == nil {
				rules, lits, secs, stops = append(rules, "–"), append(lits, "–"), append(secs, "–"), append(stops, "–")
				continue
			}
			rules = append(rules, num(res.Rules, 1))
			lits = append(lits, num(res.Literals, 1))
			secs = append(secs, num(res.Seconds, 1))
			stops = append(stops, strconv.Itoa(res.TimeStopped))
			stopped += res.TimeStopped
		}
		j48, jrip := "–", "–"
		if res := t.Result("j48"); res != nil && res.Confusion != nil {
			j48 = num(res.Literals, 1)
		}
		if res := t.Result("jrip"); res != nil && res.Confusion != nil {
			jrip = num(res.Rules, 1)
		}
		fold := "–"
		if pub, ok := PublishedFigures[t.Dataset.Name]; ok {
			fold = num(pub.Rules, 1)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", t.Dataset.Name, strings.Join(rules, ", "), strings.Join(lits, ", "),
			strings.Join(secs, ", "), strings.Join(stops, ", "), j48, jrip, fold)
	}
	if o.Learning.Timeout > 0 {
		fmt.Fprintf(&b, "\nThe time limit (%s a learning run) stopped %d learning runs in all; a run it stopped learned what the limit allowed.\n", durationText(o.Learning.Timeout), stopped)
	}
	if len(o.Variants) > 1 {
		fmt.Fprintf(&b, "\n## Encodings chosen on the training rows (splits per encoding)\n\n| table | poss | linear | lex |\n|---|---|---|---|\n")
		for _, t := range r.Tables {
			var cells []string
			for _, m := range []string{"strata-poss", "strata-linear", "strata-lex"} {
				res := t.Result(m)
				if res == nil || len(res.Variants) == 0 {
					cells = append(cells, "–")
					continue
				}
				var ws []string
				for _, v := range o.Variants {
					if n := res.Variants[v.String()]; n > 0 {
						ws = append(ws, fmt.Sprintf("%s: %d", v, n))
					}
				}
				cells = append(cells, strings.Join(ws, ", "))
			}
			fmt.Fprintf(&b, "| %s | %s |\n", t.Dataset.Name, strings.Join(cells, " | "))
		}
	}
	fmt.Fprintf(&b, "\nThe published FOLD-R++ / FOLD-RM figures (arXiv 2202.06913, Tables 4 and 6) come from other folds and machines; they are quoted, not rerun.\n")
	r.writeTargets(&b)
	for _, t := range r.Tables {
		if t.Error != "" {
			fmt.Fprintf(&b, "\n**%s was not run:** %s\n", t.Dataset.Name, t.Error)
		}
		if len(t.Skipped) > 0 {
			fmt.Fprintf(&b, "\n**%s: %d unreadable rows were left out** (the file is read as it is, not repaired; every method saw the same rows):\n\n", t.Dataset.Name, len(t.Skipped))
			for _, s := range t.Skipped {
				fmt.Fprintf(&b, "- %s\n", s)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func durationText(d time.Duration) string {
	if d <= 0 {
		return "no time limit"
	}
	return d.String()
}

// writeTargets writes how the best drowning-free theory of each table
// (linear or lex, the more accurate; the smaller on a tie) compares with
// the others: at least as accurate as the published FOLD figure, as JRip,
// as J48, within 2 points of XGBoost, and no more rules than FOLD's.
func (r *Report) writeTargets(b *strings.Builder) {
	type count struct{ met, of int }
	var fold, jrip, j48, xgb, rules, allRules count
	fmt.Fprintf(b, "\n## The best drowning-free theory against the others\n\n")
	fmt.Fprintf(b, "The rules are compared as FOLD counts them. FOLD-R++ (the binary tables) writes rules for one class only and answers the other when none applies, by negation as failure, with no rule; a strata theory states that answer as its fallback, the class alone at its lowest level, which the comparison with FOLD-R++ leaves out (the rules column gives the count without it in brackets). FOLD-RM (the multi-class tables) writes rules for every class, and every rule of the theory is counted.\n\n")
	fmt.Fprintf(b, "| table | best (semantics) | rules | >= FOLD | >= JRip | >= J48 | >= XGBoost - 2 | rules <= FOLD's |\n|---|---|---:|---|---|---|---|---|\n")
	mark := func(c *count, ok, known bool) string {
		if !known {
			return "–"
		}
		c.of++
		if ok {
			c.met++
			return "yes"
		}
		return "**no**"
	}
	for _, t := range r.Tables {
		var best *Result
		for _, m := range []string{"strata-linear", "strata-lex"} {
			res := t.Result(m)
			if res == nil || res.Confusion == nil {
				continue
			}
			if best == nil || res.Confusion.Accuracy() > best.Confusion.Accuracy() ||
				res.Confusion.Accuracy() == best.Confusion.Accuracy() && res.Rules < best.Rules {
				best = res
			}
		}
		if best == nil {
			continue
		}
		acc := best.Confusion.Accuracy()
		other := func(m string) (float64, bool) {
			res := t.Result(m)
			if res == nil || res.Confusion == nil {
				return 0, false
			}
			return res.Confusion.Accuracy(), true
		}
		pub, hasPub := PublishedFigures[t.Dataset.Name]
		// The published accuracies have two digits: compare at that precision.
		cFold := mark(&fold, math.Round(100*acc) >= math.Round(100*pub.Accuracy), hasPub)
		a, ok := other("jrip")
		cJRip := mark(&jrip, acc >= a, ok)
		a, ok = other("j48")
		cJ48 := mark(&j48, acc >= a, ok)
		a, ok = other("xgboost")
		cXGB := mark(&xgb, acc >= a-0.02, ok)
		n, shown := best.Rules, num(best.Rules, 1)
		if pub.Method == "FOLD-R++" {
			n -= best.Fallbacks
			shown += " (" + num(n, 1) + ")"
		}
		cRules := mark(&rules, n <= pub.Rules, hasPub)
		mark(&allRules, best.Rules <= pub.Rules, hasPub)
		fmt.Fprintf(b, "| %s | %.1f (%s) | %s | %s | %s | %s | %s | %s |\n", t.Dataset.Name, 100*acc,
			strings.TrimPrefix(best.Method, "strata-"), shown, cFold, cJRip, cJ48, cXGB, cRules)
	}
	fmt.Fprintf(b, "\nMet: at least FOLD's published accuracy on %d of %d tables; at least JRip's on %d of %d, J48's on %d of %d; within 2 points of XGBoost on %d of %d; no more rules than FOLD on %d of %d (%d of %d counting the fallback too).\n",
		fold.met, fold.of, jrip.met, jrip.of, j48.met, j48.of, xgb.met, xgb.of, rules.met, rules.of, allRules.met, allRules.of)
}

// ruleText says how the rule r chooses the iterations on a held-out curve.
func ruleText(r learn.Rule) string {
	if r == learn.BestScore {
		return "the best held-out score"
	}
	return "the one-standard-error rule"
}
