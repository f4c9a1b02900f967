package eval

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// None is the answer of a theory that entails no class or several for a
// situation, and the target of a situation without a single most typical
// class.
const None = "none"

// Case is a situation of a multi-class task with its target: a class, or
// None.
type Case struct {
	Situation logic.Term
	Target    string
}

// Classes are the classes of a multi-class task, each an atom: a theory
// answers Labels[i] for a situation when it entails Atoms[i] and no other
// class atom.
type Classes struct {
	Labels []string
	Atoms  []logic.Atom
}

// ClassRules returns the hard rules saying that at most one of the
// classes holds in a situation: the pairwise exclusions ¬a ∨ ¬b, as in the
// top level of the paper's Table 1. With atLeastOne it adds the clause
// a1 ∨ … ∨ an, so that exactly one class holds. The classes are interned
// in v.
func ClassRules(v *logic.Vocabulary, classes []string, atLeastOne bool) []logic.Clause {
	var cs []logic.Clause
	for i, a := range classes {
		for _, b := range classes[i+1:] {
			cs = append(cs, logic.Clause{logic.Neg(v.Intern(a)), logic.Neg(v.Intern(b))})
		}
	}
	if atLeastOne {
		all := make(logic.Clause, len(classes))
		for i, a := range classes {
			all[i] = logic.Pos(v.Intern(a))
		}
		cs = append(cs, all)
	}
	return cs
}

// NewClasses returns the classes labels, interned as atoms of v. A class
// that a theory over v never mentions is never entailed.
func NewClasses(v *logic.Vocabulary, labels []string) Classes {
	c := Classes{Labels: slices.Clone(labels), Atoms: make([]logic.Atom, len(labels))}
	for i, l := range labels {
		c.Atoms[i] = v.Intern(l)
	}
	return c
}

// Predict returns the theory's answer for the situation under sem: the
// class whose atom r entails given the situation, when it entails exactly
// one, and None otherwise.
func (c Classes) Predict(ctx context.Context, r *possibilistic.Reasoner, sem possibilistic.Semantics, situation logic.Term) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	pred := None
	for i, a := range c.Atoms {
		ok, err := r.EntailsClause(ctx, sem, situation, logic.Clause{logic.Pos(a)})
		if err != nil {
			return "", err
		}
		if ok {
			if pred != None {
				return None, nil
			}
			pred = c.Labels[i]
		}
	}
	return pred, nil
}

// Cases scores the theory of r under sem on the multi-class task: one
// count per case, of its target against the answer of Predict. It stops
// with ctx's error when ctx is done.
func Cases(ctx context.Context, r *possibilistic.Reasoner, sem possibilistic.Semantics, c Classes, cases []Case) (*Confusion, error) {
	out := NewConfusion(c.Labels)
	for i, k := range cases {
		p, err := c.Predict(ctx, r, sem, k.Situation)
		if err != nil {
			return nil, fmt.Errorf("eval: case %d of %d: %w", i+1, len(cases), err)
		}
		if err := out.Add(k.Target, p); err != nil {
			return nil, fmt.Errorf("eval: case %d of %d: %w", i+1, len(cases), err)
		}
	}
	return out, nil
}

// Confusion is a confusion table of a multi-class task: Counts[t][p]
// situations of target Labels[t] were answered Labels[p]. Tables of one
// task with different labels merge (Merge), as the folds of a
// cross-validation whose training parts saw different classes.
type Confusion struct {
	Labels []string // the classes, then None
	Counts [][]int
}

// NewConfusion returns an empty table over the classes and None.
func NewConfusion(classes []string) *Confusion {
	c := &Confusion{Labels: append(slices.Clone(classes), None)}
	c.Counts = make([][]int, len(c.Labels))
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(c.Labels))
	}
	return c
}

// AddLabels adds the labels the table does not have yet, in order, before
// None (which stays last when the table has it), with no counts.
func (c *Confusion) AddLabels(labels ...string) {
	for _, l := range labels {
		if slices.Contains(c.Labels, l) {
			continue
		}
		at := len(c.Labels)
		if at > 0 && c.Labels[at-1] == None {
			at--
		}
		c.Labels = slices.Insert(c.Labels, at, l)
		for i := range c.Counts {
			c.Counts[i] = slices.Insert(c.Counts[i], at, 0)
		}
		c.Counts = slices.Insert(c.Counts, at, make([]int, len(c.Labels)))
	}
}

// Merge adds the counts of d to c, label by label, adding the labels of d
// that c lacks (AddLabels): the confusion table of two sets of situations
// from the tables of each, such as the folds of a cross-validation.
func (c *Confusion) Merge(d *Confusion) {
	c.AddLabels(d.Labels...)
	at := make([]int, len(d.Labels))
	for i, l := range d.Labels {
		at[i] = slices.Index(c.Labels, l)
	}
	for t, row := range d.Counts {
		for p, n := range row {
			c.Counts[at[t]][at[p]] += n
		}
	}
}

// Add counts one situation; target and answer must be labels of the table.
func (c *Confusion) Add(target, answer string) error {
	t, p := slices.Index(c.Labels, target), slices.Index(c.Labels, answer)
	if t < 0 || p < 0 {
		return fmt.Errorf("target %q or answer %q is not a class of %s", target, answer, strings.Join(c.Labels, ", "))
	}
	c.Counts[t][p]++
	return nil
}

// Correct returns the number of situations answered right.
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
func (c *Confusion) Accuracy() float64 { return ratio(c.Correct(), c.Total()) }

// MacroF1 returns the mean over the classes of their F1 score, 2PR/(P+R)
// with P the precision and R the recall of the class (0 when no situation
// of the class is answered right), or 0 without classes. The classes are
// the labels that are the target or the answer of some situation, None
// excepted: a situation answered None counts against its target's recall,
// and a situation whose target is None against the precision of its
// answer.
func (c *Confusion) MacroF1() float64 {
	sum, k := 0.0, 0
	for i, l := range c.Labels {
		if l == None {
			continue
		}
		tp, actual, answered := c.Counts[i][i], 0, 0
		for j := range c.Labels {
			actual += c.Counts[i][j]
			answered += c.Counts[j][i]
		}
		if actual == 0 && answered == 0 {
			continue
		}
		k++
		if tp > 0 {
			p, r := float64(tp)/float64(answered), float64(tp)/float64(actual)
			sum += 2 * p * r / (p + r)
		}
	}
	if k == 0 {
		return 0
	}
	return sum / float64(k)
}

// Write prints the table, targets as rows and answers as columns. The None
// row is left out when no situation has None as its target, as on a
// table, whose rows each have a class: a row of zeros there says nothing.
func (c *Confusion) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "target \\ predicted\t%s\t\n", strings.Join(c.Labels, "\t"))
	for i, row := range c.Counts {
		if c.Labels[i] == None && !slices.ContainsFunc(row, func(n int) bool { return n != 0 }) {
			continue
		}
		cells := make([]string, len(row))
		for j, x := range row {
			cells[j] = fmt.Sprint(x)
		}
		fmt.Fprintf(tw, "%s\t%s\t\n", c.Labels[i], strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// Majority returns the most frequent target of the training cases (the
// first in byte order on ties; None without cases) and the accuracy of
// always answering it on the test cases: the floor any method should
// beat.
func Majority(train, test []Case) (string, float64) {
	freq := map[string]int{}
	for _, c := range train {
		freq[c.Target]++
	}
	best := None
	for t, n := range freq {
		if n > freq[best] || n == freq[best] && t < best {
			best = t
		}
	}
	right := 0
	for _, c := range test {
		if c.Target == best {
			right++
		}
	}
	return best, ratio(right, len(test))
}
