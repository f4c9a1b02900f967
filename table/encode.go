package table

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// NoClass is the prediction for a row of which the theory entails no
// single class (none, or several when the row contradicts the hard rules).
const NoClass = eval.None

// Encoding turns the rows of a table into literals: the atoms of the
// features and of the class over one vocabulary. Fit chooses it on training
// rows; FromTheory recovers it from the atoms of a theory.
type Encoding struct {
	Vocab    *logic.Vocabulary
	Label    string   // the class column
	Classes  []string // the class values, one atom Label=value each
	Features []Feature

	learnerHard []logic.Clause      // LearnerHard, made once
	aux         map[logic.Atom]bool // the auxiliary atoms LearnerHard made
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

// ClassNames returns the names of the class atoms.
func (e *Encoding) ClassNames() []string {
	out := make([]string, len(e.Classes))
	for i, c := range e.Classes {
		out[i] = logic.EqualityName(e.Label, c)
	}
	return out
}

// MaxClasses and MaxValues bound the values of the class column and of a
// categorical feature: a theory states "exactly one class" and "at most
// one value" by a clause for every two of them, so that their hard rules
// grow with the square (10,000 classes: 50 million clauses; a column of
// 3,000 values: 4.5 million, 3 GB and 75 MB of theory), and the learner
// draws an example for every row and class. Fit refuses a table beyond
// them, saying what to change, before anything is learned.
const (
	MaxClasses = 100
	MaxValues  = 500
)

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Fit chooses the encoding of a table on the training rows: the class
// values and categorical values seen in them, and the cuts of each numeric
// feature (Cuts) on their values and classes. The class column must be
// categorical with a value in every training row.
func Fit(t *Table, label string, features []string, rows []int) (*Encoding, error) {
	return fit(t, label, features, rows, 0, &logic.Vocabulary{})
}

// fit is Fit with at least minCuts cuts of a numeric column where it has
// that many boundary points (cutsAtLeast), and the atoms interned in v,
// which other encodings may share (the folds of a cross-validation, each
// fit on its own training rows).
func fit(t *Table, label string, features []string, rows []int, minCuts int, v *logic.Vocabulary) (*Encoding, error) {
	lc, err := labelColumn(t, label)
	if err != nil {
		return nil, err
	}
	y, classes, err := classesOf(t, lc, rows)
	if err != nil {
		return nil, err
	}
	e := &Encoding{Vocab: v, Label: label, Classes: classes}
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
			f.Cuts = cutsAtLeast(x, y, len(classes), minCuts)
		} else {
			seen := make([]bool, len(col.Values))
			for _, r := range rows {
				if c := col.Codes[r]; c >= 0 && !seen[c] {
					seen[c] = true
					f.Values = append(f.Values, col.Values[c])
				}
			}
			slices.Sort(f.Values)
			if n := len(f.Values); n > MaxValues {
				return nil, fmt.Errorf("%s: column %q has %s values in the training rows, more than the %d a categorical feature may have: a theory says that at most one holds by a clause for every two (%s of them here); leave the column out of the features, give it among the numeric columns if its values are numbers, or merge its rare values",
					t.Name, name, thousands(n), MaxValues, thousands(n*(n-1)/2))
			}
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
		return nil, logic.Errorf(t.at(lc), "class column %q was read as numeric; read it as categorical", label)
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
	if len(classes) > MaxClasses {
		return nil, nil, fmt.Errorf("%s: the class column %q has %s values in the training rows, more than the %d a table may have: a theory says that one class holds by a clause for every two (%s of them here), and the learner draws an example for every row and class; merge the rare classes, or learn on the rows of fewer",
			t.Name, lc.Name, thousands(len(classes)), MaxClasses, thousands(len(classes)*(len(classes)-1)/2))
	}
	for _, r := range rows {
		if c := lc.Codes[r]; lc.Values[c] == NoClass {
			return nil, nil, logic.Errorf(logic.Position{File: t.Name, Line: t.Lines[r]}, "class value %q (column %q) is reserved for rows without a predicted class "+
				"(crowd table writes it for situations without a typical action): leave those rows out or give the value another name", NoClass, lc.Name)
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

// Hard returns the hard rules of the encoding as a theory states them:
// exactly one class; at most one value of a categorical feature, as a
// clause !a | !b for every two values; a threshold implies the next higher
// one of its column (col<=3 -> col<=5).
func (e *Encoding) Hard() []logic.Clause { return e.hard(false) }

// LearnerHard returns the hard rules the learner reasons with: those of
// Hard, but that a feature of more than pairwiseMax values has at most one
// of them is said by the sequential ("ladder") encoding of Sinz (CP 2005):
// auxiliary atoms s1..s(n-1), si meaning "one of the first i values
// holds", and 3n-4 clauses instead of n(n-1)/2. Every world of Hard
// extends to worlds of LearnerHard and every world of LearnerHard
// restricted to the encoding's atoms is one of Hard, so both give every
// entailment the same answer (TestLadderSameAnswers). The auxiliary atoms
// are interned in e.Vocab by logic.Fresh's rule (_m1, _m2, …: names no
// comparison has), the first call only; no example mentions them, so no
// learned rule does, and Theory writes the hard rules of Hard instead.
func (e *Encoding) LearnerHard() []logic.Clause {
	if e.learnerHard == nil {
		e.aux = map[logic.Atom]bool{}
		e.learnerHard = e.hard(true)
	}
	return e.learnerHard
}

// IsAuxiliary reports whether a is one of the auxiliary atoms of
// LearnerHard.
func (e *Encoding) IsAuxiliary(a logic.Atom) bool { return e.aux[a] }

// pairwiseMax is the most values a feature has for its "at most one"
// to be said pairwise to the learner: up to it the ladder has no fewer
// clauses.
const pairwiseMax = 5

func (e *Encoding) hard(ladder bool) []logic.Clause {
	cs := eval.ClassRules(e.Vocab, e.ClassNames(), true)
	fresh := logic.Fresh(e.Vocab, "m")
	for _, f := range e.Features {
		if ladder && len(f.values) > pairwiseMax {
			cs = append(cs, atMostOneLadder(f.values, func() logic.Atom { a := fresh(); e.aux[a] = true; return a })...)
		} else {
			for i, a := range f.values {
				for _, b := range f.values[i+1:] {
					cs = append(cs, logic.Clause{logic.Neg(a), logic.Neg(b)})
				}
			}
		}
		for i := 1; i < len(f.cuts); i++ {
			cs = append(cs, logic.Clause{logic.Neg(f.cuts[i-1]), logic.Pos(f.cuts[i])})
		}
	}
	return cs
}

// atMostOneLadder returns the sequential encoding of "at most one of xs"
// (at least two atoms), its auxiliary atoms made by fresh: Sinz's counter
// of logic.AtMostClauses, xi -> si, s(i-1) -> si, xi -> !s(i-1).
func atMostOneLadder(xs []logic.Atom, fresh func() logic.Atom) []logic.Clause {
	lits := make([]logic.Lit, len(xs))
	for i, x := range xs {
		lits[i] = logic.Pos(x)
	}
	return logic.AtMostClauses(1, lits, fresh)
}

// Theory returns a hypothesis learned on the encoding's problem as a theory
// a person reads and strata reads back: its learned levels, each rule
// written as a rule (RuleForm), and the hard rules of Hard in place of the
// learner's (LearnerHard), which have the same worlds over the encoding's
// atoms.
func (e *Encoding) Theory(h *learn.Hypothesis) *possibilistic.Theory {
	// The theory's vocabulary is e's without the auxiliary atoms, which
	// LearnerHard interns after the others: an atom keeps its number.
	v := &logic.Vocabulary{}
	to := make([]logic.Atom, e.Vocab.Len())
	for a := range to {
		if !e.IsAuxiliary(logic.Atom(a)) {
			to[a] = v.Intern(e.Vocab.Name(logic.Atom(a)))
		} else {
			to[a] = -1
		}
	}
	remap := func(cs []logic.Clause) []logic.Clause {
		out := make([]logic.Clause, len(cs))
		for i, c := range cs {
			out[i] = make(logic.Clause, len(c))
			for j, l := range c {
				out[i][j] = logic.MkLit(to[l.Atom()], l.IsNeg()) // learned rules have no auxiliary atom
			}
		}
		return out
	}
	m := &learn.Hypothesis{Hard: remap(e.Hard())}
	for _, l := range h.Levels {
		m.Levels = append(m.Levels, remap(l))
	}
	return RuleForm(m.Theory(v), e.Label)
}

// union returns an encoding over the atoms of all of es (which share one
// vocabulary): every class, value and cut of any of them, so that its hard
// rules (Hard, LearnerHard) hold in each encoding's worlds restricted to
// that encoding's atoms. The folds of a cross-validation share it.
func union(es []*Encoding) *Encoding {
	u := &Encoding{Vocab: es[0].Vocab, Label: es[0].Label}
	byCol := map[string]int{}
	for _, e := range es {
		u.Classes = append(u.Classes, e.Classes...)
		for _, f := range e.Features {
			i, ok := byCol[f.Column]
			if !ok {
				i = len(u.Features)
				byCol[f.Column] = i
				u.Features = append(u.Features, Feature{Column: f.Column})
			}
			u.Features[i].Values = append(u.Features[i].Values, f.Values...)
			u.Features[i].Cuts = append(u.Features[i].Cuts, f.Cuts...)
		}
	}
	slices.Sort(u.Classes)
	u.Classes = slices.Compact(u.Classes)
	for i := range u.Features {
		f := &u.Features[i]
		slices.Sort(f.Values)
		f.Values = slices.Compact(f.Values)
		slices.Sort(f.Cuts)
		f.Cuts = slices.Compact(f.Cuts)
	}
	u.intern()
	return u
}

// Binding is an encoding bound to the columns of a table.
type Binding struct {
	e *Encoding
	t *Table
	// Literals says which literals of a row's values Situation states.
	Literals Literals
	cols     []*Column
	value    []map[int32]logic.Atom // per categorical feature: the table's code -> atom
	label    *Column                // nil when the table has no class column
	class    map[int32]int          // the table's code of a class -> its index in Classes
}

// Literals says which literals of a row's values its situation states.
// Every choice gives the reasoner the same answers, as the hard rules give
// the literals left out (the other values of a column are false, the
// thresholds above a true one are true and those below a false one
// false); but the learner draws the conditions of its candidate rules from
// the literals of situations, so the choice shapes the rules it finds and
// the time it takes. The zero value states, of a numeric value, every
// threshold's literal and, of a categorical one, its value's atom.
type Literals struct {
	// Nearest states of a numeric value only the nearest threshold on
	// each side (x > 3, x <= 5): shorter situations, and candidate
	// conditions that are the tightest bounds of the rows they come from.
	Nearest bool
	// Unequal also states the negation of every other value of a
	// categorical column (colour!=red), so that a rule can say that a
	// column does not have a value.
	Unequal bool
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
			return nil, logic.Errorf(t.at(col), "column %q is not numeric, and the theory compares it with thresholds (read it as numeric)", f.Column)
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
func (b *Binding) Situation(r int) logic.Term { return b.situation(r, nil) }

// situation appends the literals of row r to t and sorts them.
func (b *Binding) situation(r int, t logic.Term) logic.Term {
	for i, f := range b.e.Features {
		col := b.cols[i]
		switch {
		case col.Missing(r):
		case col.Numeric:
			x := col.Num[r]
			if b.Literals.Nearest {
				// The first threshold at or above x, and the one below it.
				j, _ := slices.BinarySearch(f.Cuts, x)
				if j > 0 {
					t = append(t, logic.Neg(f.cuts[j-1]))
				}
				if j < len(f.Cuts) {
					t = append(t, logic.Pos(f.cuts[j]))
				}
			} else {
				for j, c := range f.Cuts {
					t = append(t, logic.MkLit(f.cuts[j], !(x <= c)))
				}
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
				if b.Literals.Unequal {
					for _, o := range f.values {
						if o != a {
							t = append(t, logic.Neg(o))
						}
					}
				}
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
// drawn by rng from the other classes, as the crowd package draws them for answers.
// Identical examples are one with a multiplicity (learn.Examples), in the
// order of their first row, as Examples.Add merges them. Every row must
// have a class the encoding knows.
//
// The examples are built for size, as a table may have millions of rows:
// the examples of one situation share its literals, the situations lie in
// a few large blocks, the examples of a class share their β, and
// duplicates are found by a hash of the literals instead of learn's index
// of keys (which Examples builds if it is asked to add more).
func (b *Binding) Examples(rows []int, rng *rand.Rand) (*learn.Examples, error) {
	// At most two examples per row: sized once, not grown by doubling
	// (a copy of the whole list at every growth), and trimmed at the end
	// when duplicates left much of it unused.
	ex := &learn.Examples{List: make([]learn.Example, 0, 2*len(rows))}
	atoms := b.e.ClassAtoms()
	betas := make([]logic.Clause, len(atoms))
	for i, a := range atoms {
		betas[i] = logic.Clause{logic.Pos(a)}
	}
	seen := map[uint64]int32{} // hash of α, β and sign -> the last such example in ex.List
	var prev []int32           // per example, the one before it of the same hash, or -1
	var block []logic.Lit      // where the situations are stored
	var buf logic.Term
	// add adds the example α |~ β, merging it into an equal one, and
	// returns α as stored; stored says α is already in a block.
	add := func(alpha logic.Term, beta logic.Clause, positive, stored bool) logic.Term {
		h := hashExample(alpha, beta[0], positive)
		last, ok := seen[h]
		for i := last; ok && i >= 0; i = prev[i] {
			if e := &ex.List[i]; e.Positive == positive && e.Beta[0] == beta[0] && slices.Equal(e.Alpha, alpha) {
				e.Count++
				return e.Alpha
			}
		}
		if !stored {
			if len(alpha) > cap(block)-len(block) {
				block = make([]logic.Lit, 0, max(1<<16, len(alpha)))
			}
			start := len(block)
			block = append(block, alpha...)
			alpha = block[start:len(block):len(block)]
		}
		if ok {
			prev = append(prev, last)
		} else {
			prev = append(prev, -1)
		}
		seen[h] = int32(len(ex.List))
		ex.List = append(ex.List, learn.Example{Alpha: alpha, Beta: beta, Positive: positive, Count: 1})
		return alpha
	}
	for _, r := range rows {
		c := b.Class(r)
		if c < 0 {
			if b.Target(r) == "" {
				return nil, logic.Errorf(logic.Position{File: b.t.Name, Line: b.t.Lines[r]}, "row has no class (column %q)", b.e.Label)
			}
			return nil, logic.Errorf(logic.Position{File: b.t.Name, Line: b.t.Lines[r]}, "class %q was not among the training classes", b.Target(r))
		}
		buf = b.situation(r, buf[:0])
		alpha := add(buf, betas[c], true, false)
		other := rng.IntN(len(atoms) - 1)
		if other >= c {
			other++
		}
		add(alpha, betas[other], false, true)
	}
	if len(ex.List) < cap(ex.List)/2 {
		ex.List = slices.Clone(ex.List)
	}
	return ex, nil
}

// hashExample is exampleHash, or a weaker hash in a test of collisions.
var hashExample = exampleHash

// exampleHash hashes an example α |~ β (β one literal) with its sign
// (FNV-1a over the literals).
func exampleHash(alpha logic.Term, beta logic.Lit, positive bool) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	mix := func(x uint32) {
		for range 4 {
			h ^= uint64(x & 0xff)
			h *= prime
			x >>= 8
		}
	}
	for _, l := range alpha {
		mix(uint32(l))
	}
	mix(uint32(beta))
	if positive {
		mix(1)
	}
	return h
}

// ErrClassColumn is what FromTheory's errors are (errors.Is) when the
// theory has no usable class column: none named and none its hard rules
// name, or one with fewer than two classes or compared with a threshold.
// Naming the class column is the remedy.
var ErrClassColumn = errors.New("table: no usable class column")

// classColumnError is an error of FromTheory's class column: its message,
// and ErrClassColumn to errors.Is.
type classColumnError struct{ error }

func (e classColumnError) Unwrap() error        { return e.error }
func (e classColumnError) Is(target error) bool { return target == ErrClassColumn }

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
		name := v.Name(logic.Atom(a))
		c, ok := logic.ParseComparison(name)
		if !ok { // not a comparison: no atom of the table
			continue
		}
		if c.Column == label {
			if c.Op != logic.OpEq {
				return nil, classColumnError{fmt.Errorf("the class column %q is compared with a threshold (%s)", label, v.Name(logic.Atom(a)))}
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
		return nil, classColumnError{fmt.Errorf("the theory has %d atom(s) of the class column %q; need at least two", len(e.Classes), label)}
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
		return "", classColumnError{fmt.Errorf("no class column: the theory has no hard rule \"exactly one class\" (a weight-1 clause col=a | col=b | ...); name the class column")}
	case 1:
		return found[0], nil
	}
	slices.SortFunc(found, cmp.Compare)
	return "", classColumnError{fmt.Errorf("the theory's hard rules name several possible class columns (%s); name the class column", strings.Join(found, ", "))}
}

// feature returns the feature of column col, or nil.
func (e *Encoding) feature(col string) *Feature {
	for i := range e.Features {
		if e.Features[i].Column == col {
			return &e.Features[i]
		}
	}
	return nil
}
