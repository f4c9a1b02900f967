package experiment

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// Run says when, where and how long a reproduction ran.
type Run struct {
	Started   time.Time
	Elapsed   time.Duration
	GoVersion string
	CPUs      int
}

// WriteHeader writes the title of a report and the line saying which
// command made it, when, and on what.
func (r Run) WriteHeader(w io.Writer, title, command string, seed uint64) {
	fmt.Fprintf(w, "# %s\n\n", title)
	if command != "" {
		fmt.Fprintf(w, "Produced by `%s` (seed %d)", command, seed)
	} else {
		fmt.Fprintf(w, "Seed %d", seed)
	}
	fmt.Fprintf(w, " on %s in %s, %s, %d CPUs.\n\n", r.Started.Format("2006-01-02 15:04 MST"),
		Duration(r.Elapsed), r.GoVersion, r.CPUs)
}

// cells formats accuracies with one decimal, the best of them in bold, and
// NaN as "–". The best is found among the printed values, so that ties are
// ties on the page.
func cells(acc []float64) []string {
	out := make([]string, len(acc))
	best := math.Inf(-1)
	for i, a := range acc {
		if math.IsNaN(a) {
			out[i] = "–"
			continue
		}
		out[i] = fmt.Sprintf("%.1f", a)
		x, _ := strconv.ParseFloat(out[i], 64)
		best = max(best, x)
	}
	for i, c := range out {
		if x, err := strconv.ParseFloat(c, 64); err == nil && x == best {
			out[i] = "**" + c + "**"
		}
	}
	return out
}

// Duration rounds d for a reader: to the second, or to a tenth of a
// second below ten seconds.
func Duration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

// patience writes a patience setting (learn.Never: never).
func patience(n int) string {
	if n == learn.Never {
		return "never"
	}
	return fmt.Sprint(n)
}

// limit writes an iteration limit (learn.NoLimit: none).
func limit(n int, what string) string {
	if n == learn.NoLimit {
		return "no limit on " + what
	}
	return fmt.Sprintf("at most %d %s", n, what)
}

// Cells returns the cells of a report's learning table: the best
// validation iteration and the chosen one with their accuracies, or "–".
func (v *Validation) cells() (best, chosen string) {
	if v == nil || v.Skipped != "" {
		return "–", "–"
	}
	best = fmt.Sprintf("%d of %d (%.1f%%), %s", v.Best, len(v.History), 100*v.BestAccuracy, v.Stop)
	if v.Censored() {
		return best, fmt.Sprintf("%d (%.1f%%), still rising when the time ran out: the final run learned to the limits", v.Chosen, 100*v.ChosenAccuracy)
	}
	if v.Saturated() {
		return best, fmt.Sprintf("%d (%.1f%%), every held-out example right: the final run learned to the limits", v.Chosen, 100*v.ChosenAccuracy)
	}
	if v.Chosen == v.Best {
		// The best iteration is chosen under either rule; "within one s.e."
		// would read as if a smaller one had been.
		return best, fmt.Sprintf("%d (%.1f%%, the best)", v.Chosen, 100*v.ChosenAccuracy)
	}
	chosen = fmt.Sprintf("%d (%.1f%%, within one s.e. %.1f of the best)", v.Chosen, 100*v.ChosenAccuracy, 100*v.StdErr)
	return best, chosen
}

// pruningCell says how support pruning went: "off" without it, else the
// threshold, the held-out accuracies at the chosen threshold and at 0, and
// the literals before and after.
func (lr *Learning) pruningCell() string {
	v := lr.Validation
	if v == nil || v.Support == nil || lr.Pruned == nil {
		return "off"
	}
	sup, pr := v.Support, lr.Pruned
	return fmt.Sprintf("≤ %d examples (held-out %.1f%%, unpruned %.1f%%): %d → %d literals",
		pr.Threshold, 100*sup.Accuracy[sup.Chosen], 100*sup.Accuracy[0], pr.Before, pr.After)
}

// Excerpt returns th in the text format, highest level first, shortened for
// a page: at most perLevel formulas of a level and at most maxLevels levels
// (the highest and the lowest ones), with '#' comments saying what was left
// out, so that the excerpt still reads as a theory.
func Excerpt(th *possibilistic.Theory, perLevel, maxLevels int) string {
	var b strings.Builder
	k := len(th.Levels)
	top := (maxLevels + 1) / 2 // levels shown from the top; the rest from the bottom
	for fromTop, l := range th.Levels {
		if k > maxLevels && fromTop >= top && fromTop < k-(maxLevels-top) {
			if fromTop == top {
				fmt.Fprintf(&b, "# … %d levels not shown\n\n", k-maxLevels)
			}
			continue
		}
		ws := possibilistic.FormatWeight(l.Weight)
		for j, f := range l.Formulas {
			if j == perLevel {
				fmt.Fprintf(&b, "# … and %d more at %s\n", len(l.Formulas)-perLevel, ws)
				break
			}
			fmt.Fprintf(&b, "%s: %s\n", ws, f.String(th.Vocab))
		}
		if fromTop < k-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
