package crowd

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Confusion is a confusion table of the multi-class task: Counts[t][p]
// situations of target Labels[t] were predicted as Labels[p].
type Confusion struct {
	Labels []string // the actions, then NoAction
	Counts [][]int
}

// NewConfusion returns an empty table over the actions and NoAction.
func NewConfusion(actions []string) *Confusion {
	c := &Confusion{Labels: append(slices.Clone(actions), NoAction)}
	c.Counts = make([][]int, len(c.Labels))
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(c.Labels))
	}
	return c
}

// Add counts one situation.
func (c *Confusion) Add(target, predicted string) {
	t, p := slices.Index(c.Labels, target), slices.Index(c.Labels, predicted)
	if t < 0 || p < 0 {
		panic(fmt.Sprintf("crowd: label %q or %q is not an action", target, predicted))
	}
	c.Counts[t][p]++
}

// Correct returns the number of situations predicted right.
func (c *Confusion) Correct() int {
	n := 0
	for i := range c.Counts {
		n += c.Counts[i][i]
	}
	return n
}

// Total returns the number of situations.
func (c *Confusion) Total() int {
	n := 0
	for _, row := range c.Counts {
		for _, x := range row {
			n += x
		}
	}
	return n
}

// Accuracy returns Correct/Total (0 for an empty table).
func (c *Confusion) Accuracy() float64 {
	if c.Total() == 0 {
		return 0
	}
	return float64(c.Correct()) / float64(c.Total())
}

// Write prints the table, targets as rows and predictions as columns.
func (c *Confusion) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "target \\ predicted\t%s\t\n", strings.Join(c.Labels, "\t"))
	for i, row := range c.Counts {
		cells := make([]string, len(row))
		for j, x := range row {
			cells[j] = fmt.Sprint(x)
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", c.Labels[i], strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// EvaluateCases scores a theory on the multi-class task. Action atoms are
// interned in the theory's vocabulary (an action the theory never mentions
// is never entailed).
func EvaluateCases(th *possibilistic.Theory, actions []string, cases []Case) *Confusion {
	return EvaluateCasesUnder(th, actions, cases, possibilistic.Poss)
}

// Binary counts how a theory classifies default rules: a default is
// predicted positive when the theory covers it, (Θ, α) ⊢poss β.
type Binary struct {
	TruePositives, FalseNegatives int // defaults covered, not covered
	TrueNegatives, FalsePositives int // non-defaults not covered, covered
}

// Accuracy returns the share of examples classified right.
func (b Binary) Accuracy() float64 {
	n := b.TruePositives + b.FalseNegatives + b.TrueNegatives + b.FalsePositives
	if n == 0 {
		return 0
	}
	return float64(b.TruePositives+b.TrueNegatives) / float64(n)
}

// EvaluateDefaults scores a theory on positive and negative examples over
// its vocabulary.
func EvaluateDefaults(th *possibilistic.Theory, pos, neg []logic.Rule) Binary {
	return EvaluateDefaultsUnder(th, pos, neg, possibilistic.Poss)
}

// Majority returns the accuracy of always predicting the most frequent
// target of the training cases: the floor any method should beat.
func Majority(train, test []Case) (string, float64) {
	freq := map[string]int{}
	for _, c := range train {
		freq[c.Target]++
	}
	best := NoAction
	for t, n := range freq {
		if n > freq[best] || n == freq[best] && t < best {
			best = t
		}
	}
	if len(test) == 0 {
		return best, 0
	}
	right := 0
	for _, c := range test {
		if c.Target == best {
			right++
		}
	}
	return best, float64(right) / float64(len(test))
}
