package mln

import (
	"fmt"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/weka"
)

// MAPEncoding is the paper's attribute encoding of MAP-entailment examples
// α |~ β for the classical baselines (§5.3): for each of the first Atoms
// atoms of Vocab, two Boolean attributes for the antecedent (the atom occurs
// positively in α; it occurs negatively) and two for the consequent, then a
// nominal class, positive for a default and negative for a non-default.
type MAPEncoding struct {
	Vocab *logic.Vocabulary
	Atoms int // atoms 0 .. Atoms-1 get attributes; 0 means all of Vocab
}

func (e MAPEncoding) atoms() int {
	if e.Atoms > 0 {
		return e.Atoms
	}
	return e.Vocab.Len()
}

// Attributes returns the attributes in order: for every atom x, x_ante_pos
// and x_ante_neg; then for every atom, x_cons_pos and x_cons_neg; then class.
func (e MAPEncoding) Attributes() []weka.Attribute {
	n := e.atoms()
	bin := []string{"0", "1"}
	attrs := make([]weka.Attribute, 0, 4*n+1)
	for _, part := range []string{"ante", "cons"} {
		for a := 0; a < n; a++ {
			name := e.Vocab.Name(logic.Atom(a))
			attrs = append(attrs,
				weka.Attribute{Name: name + "_" + part + "_pos", Values: bin},
				weka.Attribute{Name: name + "_" + part + "_neg", Values: bin})
		}
	}
	return append(attrs, weka.Attribute{Name: "class", Values: []string{"positive", "negative"}})
}

// Row encodes one example. The antecedent must be a conjunction of literals
// and the consequent a disjunction of literals (in the MAP experiment, one
// literal), all on the encoded atoms.
func (e MAPEncoding) Row(r logic.Rule, positive bool) ([]string, error) {
	t, c, ok := r.Clausal()
	if !ok {
		return nil, fmt.Errorf("rule %s: the encoding needs a conjunction of literals -> a disjunction of literals", r.String(e.Vocab))
	}
	n := e.atoms()
	row := make([]string, 4*n+1)
	for i := range row {
		row[i] = "0"
	}
	set := func(base int, ls []logic.Lit) error {
		for _, l := range ls {
			if int(l.Atom()) >= n {
				return fmt.Errorf("rule %s: atom %s is not one of the %d encoded atoms", r.String(e.Vocab), e.Vocab.Name(l.Atom()), n)
			}
			i := base + 2*int(l.Atom())
			if l.IsNeg() {
				i++
			}
			row[i] = "1"
		}
		return nil
	}
	if err := set(0, t); err != nil {
		return nil, err
	}
	if err := set(2*n, c); err != nil {
		return nil, err
	}
	row[4*n] = "negative"
	if positive {
		row[4*n] = "positive"
	}
	return row, nil
}

// ARFF returns the table of the examples: the positive ones (defaults)
// first, then the negative ones (non-defaults), duplicates kept.
func (e MAPEncoding) ARFF(relation string, pos, neg []logic.Rule) (*weka.ARFF, error) {
	a := &weka.ARFF{Relation: relation, Attributes: e.Attributes()}
	for _, set := range []struct {
		rules []logic.Rule
		label bool
	}{{pos, true}, {neg, false}} {
		for _, r := range set.rules {
			row, err := e.Row(r, set.label)
			if err != nil {
				return nil, err
			}
			a.Rows = append(a.Rows, row)
		}
	}
	return a, nil
}
