package table

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/strata-logic/strata/possibilistic"
)

// Confusion is the confusion table of a multi-class task: Counts[t][p]
// rows of target Labels[t] were predicted Labels[p]. Labels grow as Add
// meets new ones; NoClass is a label like the others.
type Confusion struct {
	Labels []string
	Counts [][]int
}

// NewConfusion returns an empty table over the given labels.
func NewConfusion(labels ...string) *Confusion {
	c := &Confusion{}
	for _, l := range labels {
		c.index(l)
	}
	return c
}

func (c *Confusion) index(label string) int {
	if i := slices.Index(c.Labels, label); i >= 0 {
		return i
	}
	c.Labels = append(c.Labels, label)
	for i := range c.Counts {
		c.Counts[i] = append(c.Counts[i], 0)
	}
	c.Counts = append(c.Counts, make([]int, len(c.Labels)))
	return len(c.Labels) - 1
}

// Add counts one row.
func (c *Confusion) Add(target, predicted string) {
	t := c.index(target)
	p := c.index(predicted)
	c.Counts[t][p]++
}

// Merge adds the counts of d.
func (c *Confusion) Merge(d *Confusion) {
	for t, row := range d.Counts {
		for p, n := range row {
			if n > 0 {
				ti, pi := c.index(d.Labels[t]), c.index(d.Labels[p])
				c.Counts[ti][pi] += n
			}
		}
	}
}

// Total returns the number of rows.
func (c *Confusion) Total() int {
	n := 0
	for _, row := range c.Counts {
		for _, x := range row {
			n += x
		}
	}
	return n
}

// Correct returns the number of rows predicted right.
func (c *Confusion) Correct() int {
	n := 0
	for i := range c.Counts {
		n += c.Counts[i][i]
	}
	return n
}

// Accuracy returns Correct/Total (0 for an empty table).
func (c *Confusion) Accuracy() float64 {
	if t := c.Total(); t > 0 {
		return float64(c.Correct()) / float64(t)
	}
	return 0
}

// MacroF1 returns the mean over the classes of their F1 score, 2PR/(P+R)
// with P the precision and R the recall of the class (0 when the class is
// never predicted right). The classes are the labels that are the target
// of some row or the prediction of some row, NoClass excepted: a row
// predicted NoClass counts against its target's recall.
func (c *Confusion) MacroF1() float64 {
	sum, k := 0.0, 0
	for i, l := range c.Labels {
		if l == NoClass {
			continue
		}
		tp, actual, predicted := c.Counts[i][i], 0, 0
		for j := range c.Labels {
			actual += c.Counts[i][j]
			predicted += c.Counts[j][i]
		}
		if actual == 0 && predicted == 0 {
			continue
		}
		k++
		if tp > 0 {
			p, r := float64(tp)/float64(predicted), float64(tp)/float64(actual)
			sum += 2 * p * r / (p + r)
		}
	}
	if k == 0 {
		return 0
	}
	return sum / float64(k)
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

// Evaluate predicts every row of t that has a class (Predict) and returns
// the confusion table of the predictions against the rows' classes.
func Evaluate(ctx context.Context, th *possibilistic.Theory, t *Table, opts PredictOptions) (*Confusion, error) {
	opts.Explain = false
	preds, err := Predict(ctx, th, t, opts)
	if err != nil {
		return nil, err
	}
	return confusionOf(preds)
}

func confusionOf(preds []Prediction) (*Confusion, error) {
	c := &Confusion{}
	for _, p := range preds {
		if p.Target == "" {
			continue
		}
		c.Add(p.Target, p.Class)
	}
	if c.Total() == 0 {
		return nil, fmt.Errorf("no row has a class to score the predictions against")
	}
	return c, nil
}
