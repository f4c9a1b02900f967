package table

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// NoClass is the prediction for a row of which the theory entails no
// single class (none, or several when the row contradicts the hard rules).
const NoClass = crowd.NoAction

// Encoding turns the rows of a table into literals: the atoms of the
// features and of the class over one vocabulary. Fit chooses it on training
// rows; FromTheory recovers it from the atoms of a theory.
type Encoding struct {
	Vocab    *logic.Vocabulary
	Label    string   // the class column
	Classes  []string // the class values, one atom Label=value each
	Features []Feature
}

// Feature is a column and its atoms.
type Feature struct {
	Column string
	Values []string  // the atoms Column=value, for the values seen in training
	Cuts   []float64 // the atoms Column<=t, ascending
	values []logic.Atom
	cuts   []logic.Atom
}

// classAtom returns the atom of class value v.
func (e *Encoding) classAtom(v string) logic.Atom {
	return e.Vocab.Intern(logic.EqualityName(e.Label, v))
}

// ClassAtoms returns the atoms of the classes, in the order of Classes.
func (e *Encoding) ClassAtoms() []logic.Atom {
	out := make([]logic.Atom, len(e.Classes))
	for i, c := range e.Classes {
		out[i] = e.classAtom(c)
	}
	return out
}

// ClassNames returns the names of the class atoms, as crowd names actions.
func (e *Encoding) ClassNames() []string {
	out := make([]string, len(e.Classes))
	for i, c := range e.Classes {
		out[i] = logic.EqualityName(e.Label, c)
	}
	return out
}

// Fit chooses the encoding of a table on the training rows: the class
// values and categorical values seen in them, and the cuts of each numeric
// feature (Cuts) on their values and classes. The class column must be
// categorical with a value in every training row.
func Fit(t *Table, label string, features []string, rows []int) (*Encoding, error) {
	lc, err := labelColumn(t, label)
	if err != nil {
		return nil, err
	}
	y, classes, err := classesOf(t, lc, rows)
	if err != nil {
		return nil, err
	}
	e := &Encoding{Vocab: &logic.Vocabulary{}, Label: label, Classes: classes}
	for _, c := range classes {
		e.classAtom(c)
	}
	for _, name := range features {
		col := t.Column(name)
		if col == nil {
			return nil, fmt.Errorf("%s: no feature column %q", t.Name, name)
		}
		if col == lc {
			return nil, fmt.Errorf("%s: column %q is the class, not a feature", t.Name, name)
		}
		f := Feature{Column: name}
		if col.Numeric {
			x := make([]float64, len(rows))
			for i, r := range rows {
				x[i] = col.Num[r]
			}
			f.Cuts = Cuts(x, y, len(classes))
		} else {
			seen := make([]bool, len(col.Values))
			for _, r := range rows {
				if c := col.Codes[r]; c >= 0 && !seen[c] {
					seen[c] = true
					f.Values = append(f.Values, col.Values[c])
				}
			}
			slices.Sort(f.Values)
		}
		e.Features = append(e.Features, f)
	}
	e.intern()
	return e, nil
}

// intern gives every feature its atoms.
func (e *Encoding) intern() {
	for i := range e.Features {
		f := &e.Features[i]
		f.values, f.cuts = nil, nil
		for _, v := range f.Values {
			f.values = append(f.values, e.Vocab.Intern(logic.EqualityName(f.Column, v)))
		}
		for _, t := range f.Cuts {
			f.cuts = append(f.cuts, e.Vocab.Intern(logic.ThresholdName(f.Column, t)))
		}
	}
}

func labelColumn(t *Table, label string) (*Column, error) {
	lc := t.Column(label)
	if lc == nil {
		return nil, logic.Errorf(logic.Position{File: t.Name, Line: 1, Col: 1}, "no class column %q in the header (columns: %s)", label, strings.Join(headerNames(t), ", "))
	}
	if lc.Numeric {
		return nil, fmt.Errorf("%s: class column %q was read as numeric; read it as categorical", t.Name, label)
	}
	return lc, nil
}

// classesOf returns the class of every row of rows, as an index into the
// sorted class values seen in them.
func classesOf(t *Table, lc *Column, rows []int) ([]int32, []string, error) {
	seen := make([]bool, len(lc.Values))
	var classes []string
	for _, r := range rows {
		c := lc.Codes[r]
		if c < 0 {
			return nil, nil, logic.Errorf(logic.Position{File: t.Name, Line: t.Lines[r]}, "row has no class (column %q)", lc.Name)
		}
		if !seen[c] {
			seen[c] = true
			classes = append(classes, lc.Values[c])
		}
	}
	if len(classes) < 2 {
		return nil, nil, fmt.Errorf("%s: the class column %q has %d value(s) in the training rows; need at least two", t.Name, lc.Name, len(classes))
	}
	for _, c := range classes {
		if c == NoClass {
			return nil, nil, fmt.Errorf("%s: class value %q is reserved for rows without a predicted class", t.Name, c)
		}
	}
	slices.Sort(classes)
	index := map[string]int32{}
	for i, c := range classes {
		index[c] = int32(i)
	}
	y := make([]int32, len(rows))
	for i, r := range rows {
		y[i] = index[lc.Values[lc.Codes[r]]]
	}
	return y, classes, nil
}

// Hard returns the hard rules of the encoding: exactly one class; at most
// one value of a categorical feature; a threshold implies the higher ones
// of its column (col<=3 -> col<=5).
func (e *Encoding) Hard() []logic.Clause {
	cs := crowd.HardRules(e.Vocab, e.ClassNames(), true)
	for _, f := range e.Features {
		for i, a := range f.values {
			for _, b := range f.values[i+1:] {
				cs = append(cs, logic.Clause{logic.Neg(a), logic.Neg(b)})
			}
		}
		for i := 1; i < len(f.cuts); i++ {
			cs = append(cs, logic.Clause{logic.Neg(f.cuts[i-1]), logic.Pos(f.cuts[i])})
		}
	}
	return cs
}

// Binding is an encoding bound to the columns of a table.
type Binding struct {
	e     *Encoding
	t     *Table
	cols  []*Column
	value []map[int32]logic.Atom // per categorical feature: the table's code -> atom
	label *Column                // nil when the table has no class column
	class map[int32]int          // the table's code of a class -> its index in Classes
}

// Bind binds e to the columns of t: every feature must be a column of t, of
// the same kind (a threshold needs a numeric column). The class column may
// be missing (the table is to be predicted).
func (e *Encoding) Bind(t *Table) (*Binding, error) {
	b := &Binding{e: e, t: t}
	for _, f := range e.Features {
		col := t.Column(f.Column)
		if col == nil {
			return nil, logic.Errorf(logic.Position{File: t.Name, Line: 1, Col: 1}, "no column %q in the header, which the theory needs (columns: %s)", f.Column, strings.Join(headerNames(t), ", "))
		}
		if len(f.Cuts) > 0 && !col.Numeric {
			return nil, fmt.Errorf("%s: column %q is not numeric, and the theory compares it with thresholds (read it as numeric)", t.Name, f.Column)
		}
		m := map[int32]logic.Atom{}
		if !col.Numeric {
			for code, v := range col.Values {
				if i := slices.Index(f.Values, v); i >= 0 {
					m[int32(code)] = f.values[i]
				}
			}
		}
		b.cols = append(b.cols, col)
		b.value = append(b.value, m)
	}
	if lc := t.Column(e.Label); lc != nil && !lc.Numeric {
		b.label = lc
		b.class = map[int32]int{}
		for code, v := range lc.Values {
			if i := slices.Index(e.Classes, v); i >= 0 {
				b.class[int32(code)] = i
			}
		}
	}
	return b, nil
}

// Situation returns the literals of row r: for a categorical feature with
// a value, the atom of that value, or, for a value the encoding has no atom
// of, the negations of all the feature's atoms (the hard rules then give
// the rest); for a numeric one, every threshold's literal; nothing for a
// missing value. The term is sorted.
func (b *Binding) Situation(r int) logic.Term {
	var t logic.Term
	for i, f := range b.e.Features {
		col := b.cols[i]
		switch {
		case col.Missing(r):
		case col.Numeric:
			x := col.Num[r]
			for j, c := range f.Cuts {
				t = append(t, logic.MkLit(f.cuts[j], !(x <= c)))
			}
			// An equality atom on a numeric column (a theory written by
			// hand) holds when the value is that number.
			for j, v := range f.Values {
				y, err := strconv.ParseFloat(v, 64)
				t = append(t, logic.MkLit(f.values[j], !(err == nil && x == y)))
			}
		default:
			if a, ok := b.value[i][col.Codes[r]]; ok {
				t = append(t, logic.Pos(a))
			} else {
				for _, a := range f.values {
					t = append(t, logic.Neg(a))
				}
			}
		}
	}
	slices.Sort(t)
	return t
}

// Class returns the index in Classes of the class of row r, or -1 when the
// row has none, or one the encoding does not know, or the table has no
// class column.
func (b *Binding) Class(r int) int {
	if b.label == nil {
		return -1
	}
	if i, ok := b.class[b.label.Codes[r]]; ok {
		return i
	}
	return -1
}

// Target returns the class value of row r as written ("" when missing).
func (b *Binding) Target(r int) string {
	if b.label == nil {
		return ""
	}
	return b.label.Value(r)
}

// Examples returns the learner's examples of rows: for every row, the
// default situation |~ class and the non-default situation |~ other, other
// drawn by rng from the other classes, as crowd.Examples does for answers.
// Every row must have a class the encoding knows.
func (b *Binding) Examples(rows []int, rng *rand.Rand) (*learn.Examples, error) {
	ex := &learn.Examples{}
	atoms := b.e.ClassAtoms()
	for _, r := range rows {
		c := b.Class(r)
		if c < 0 {
			if b.Target(r) == "" {
				return nil, logic.Errorf(logic.Position{File: b.t.Name, Line: b.t.Lines[r]}, "row has no class (column %q)", b.e.Label)
			}
			return nil, logic.Errorf(logic.Position{File: b.t.Name, Line: b.t.Lines[r]}, "class %q was not among the training classes", b.Target(r))
		}
		alpha := b.Situation(r)
		ex.Add(alpha, logic.Clause{logic.Pos(atoms[c])}, true, 1)
		other := rng.IntN(len(atoms) - 1)
		if other >= c {
			other++
		}
		ex.Add(alpha, logic.Clause{logic.Pos(atoms[other])}, false, 1)
	}
	return ex, nil
}

// FromTheory recovers the encoding of a theory's vocabulary: the class
// column is label, or when label is empty the column whose equality atoms
// form a hard clause (a weight-1 disjunction of two or more values of one
// column: "exactly one class"); the other comparison atoms are the
// features. Atoms that are not comparisons are left out (nothing in a
// table makes them true or false).
func FromTheory(v *logic.Vocabulary, hard []logic.Clause, label string) (*Encoding, error) {
	if label == "" {
		var err error
		if label, err = classColumnOf(v, hard); err != nil {
			return nil, err
		}
	}
	e := &Encoding{Vocab: v, Label: label}
	byCol := map[string]*Feature{}
	var order []string
	for a := range v.Len() {
		c, ok := logic.ParseComparison(v.Name(logic.Atom(a)))
		if !ok {
			continue
		}
		if c.Column == label {
			if c.Op != logic.OpEq {
				return nil, fmt.Errorf("the class column %q is compared with a threshold (%s)", label, v.Name(logic.Atom(a)))
			}
			e.Classes = append(e.Classes, c.Value)
			continue
		}
		f := byCol[c.Column]
		if f == nil {
			f = &Feature{Column: c.Column}
			byCol[c.Column] = f
			order = append(order, c.Column)
		}
		if c.Op == logic.OpEq {
			f.Values = append(f.Values, c.Value)
		} else {
			f.Cuts = append(f.Cuts, c.Threshold())
		}
	}
	if len(e.Classes) < 2 {
		return nil, fmt.Errorf("the theory has %d atom(s) of the class column %q; need at least two", len(e.Classes), label)
	}
	slices.Sort(e.Classes)
	for _, col := range order {
		f := byCol[col]
		slices.Sort(f.Values)
		slices.Sort(f.Cuts)
		f.Cuts = slices.Compact(f.Cuts)
		e.Features = append(e.Features, *f)
	}
	e.intern()
	return e, nil
}

// classColumnOf finds the column whose equality atoms make up a hard
// clause of two or more positive literals.
func classColumnOf(v *logic.Vocabulary, hard []logic.Clause) (string, error) {
	var found []string
	for _, c := range hard {
		if len(c) < 2 {
			continue
		}
		col := ""
		for _, l := range c {
			k, ok := logic.ParseComparison(v.Name(l.Atom()))
			if l.IsNeg() || !ok || k.Op != logic.OpEq || col != "" && k.Column != col {
				col = ""
				break
			}
			col = k.Column
		}
		if col != "" && !slices.Contains(found, col) {
			found = append(found, col)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no class column: the theory has no hard rule \"exactly one class\" (a weight-1 clause col=a | col=b | ...); name the class column")
	case 1:
		return found[0], nil
	}
	slices.SortFunc(found, cmp.Compare)
	return "", fmt.Errorf("the theory's hard rules name several possible class columns (%s); name the class column", strings.Join(found, ", "))
}
