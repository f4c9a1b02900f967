package logic

import (
	"slices"
	"strconv"
	"strings"
)

// Op is the connective at the root of a Formula.
type Op uint8

// The connectives. AtLeast is the cardinality connective: it holds when at
// least K of its arguments hold (the paper's at-least_k, Lemma 3).
const (
	OpTrue Op = iota
	OpFalse
	OpAtom
	OpNot
	OpAnd
	OpOr
	OpImplies
	OpIff
	OpAtLeast
)

// Formula is a propositional formula. Formulas are immutable once built;
// build them with the constructors below, which keep conjunctions and
// disjunctions flat so that printing and parsing round-trip exactly.
type Formula struct {
	Op   Op
	Atom Atom       // for OpAtom
	K    int        // for OpAtLeast
	Args []*Formula // operands; OpImplies and OpIff have exactly two
}

var (
	trueF  = &Formula{Op: OpTrue}
	falseF = &Formula{Op: OpFalse}
)

// True returns the formula true.
func True() *Formula { return trueF }

// False returns the formula false.
func False() *Formula { return falseF }

// AtomF returns the formula consisting of the atom a.
func AtomF(a Atom) *Formula { return &Formula{Op: OpAtom, Atom: a} }

// LitF returns the formula of the literal l.
func LitF(l Lit) *Formula {
	if l.IsNeg() {
		return Not(AtomF(l.Atom()))
	}
	return AtomF(l.Atom())
}

// Not returns ¬f.
func Not(f *Formula) *Formula { return &Formula{Op: OpNot, Args: []*Formula{f}} }

// And returns the conjunction of fs (true when fs is empty).
func And(fs ...*Formula) *Formula { return nary(OpAnd, fs) }

// Or returns the disjunction of fs (false when fs is empty).
func Or(fs ...*Formula) *Formula { return nary(OpOr, fs) }

func nary(op Op, fs []*Formula) *Formula {
	var args []*Formula
	for _, f := range fs {
		if f.Op == op {
			args = append(args, f.Args...)
		} else {
			args = append(args, f)
		}
	}
	switch len(args) {
	case 0:
		if op == OpAnd {
			return True()
		}
		return False()
	case 1:
		return args[0]
	}
	return &Formula{Op: op, Args: args}
}

// Implies returns a → b.
func Implies(a, b *Formula) *Formula { return &Formula{Op: OpImplies, Args: []*Formula{a, b}} }

// Iff returns a ↔ b.
func Iff(a, b *Formula) *Formula { return &Formula{Op: OpIff, Args: []*Formula{a, b}} }

// AtLeast returns the formula that holds when at least k of fs hold.
func AtLeast(k int, fs ...*Formula) *Formula {
	return &Formula{Op: OpAtLeast, K: k, Args: slices.Clone(fs)}
}

// ClauseF returns the disjunction of the literals of c.
func ClauseF(c Clause) *Formula {
	fs := make([]*Formula, len(c))
	for i, l := range c {
		fs[i] = LitF(l)
	}
	return Or(fs...)
}

// TermF returns the conjunction of the literals of t.
func TermF(t Term) *Formula {
	fs := make([]*Formula, len(t))
	for i, l := range t {
		fs[i] = LitF(l)
	}
	return And(fs...)
}

// Eval reports whether f is true in world w (one truth value per atom).
func (f *Formula) Eval(w []bool) bool {
	switch f.Op {
	case OpTrue:
		return true
	case OpFalse:
		return false
	case OpAtom:
		return w[f.Atom]
	case OpNot:
		return !f.Args[0].Eval(w)
	case OpAnd:
		for _, g := range f.Args {
			if !g.Eval(w) {
				return false
			}
		}
		return true
	case OpOr:
		for _, g := range f.Args {
			if g.Eval(w) {
				return true
			}
		}
		return false
	case OpImplies:
		return !f.Args[0].Eval(w) || f.Args[1].Eval(w)
	case OpIff:
		return f.Args[0].Eval(w) == f.Args[1].Eval(w)
	case OpAtLeast:
		n := 0
		for _, g := range f.Args {
			if g.Eval(w) {
				n++
			}
		}
		return n >= f.K
	}
	panic("logic: unknown connective")
}

// MaxAtom returns the largest atom occurring in f, or -1 if there is none.
func (f *Formula) MaxAtom() Atom {
	m := Atom(-1)
	f.walk(func(g *Formula) {
		if g.Op == OpAtom && g.Atom > m {
			m = g.Atom
		}
	})
	return m
}

// Atoms returns the atoms occurring in f, sorted and without repetition.
func (f *Formula) Atoms() []Atom {
	var as []Atom
	f.walk(func(g *Formula) {
		if g.Op == OpAtom {
			as = append(as, g.Atom)
		}
	})
	slices.Sort(as)
	return slices.Compact(as)
}

func (f *Formula) walk(fn func(*Formula)) {
	fn(f)
	for _, g := range f.Args {
		g.walk(fn)
	}
}

// Has reports whether the connective op occurs in f.
func (f *Formula) Has(op Op) bool {
	if f.Op == op {
		return true
	}
	for _, g := range f.Args {
		if g.Has(op) {
			return true
		}
	}
	return false
}

// Size returns the number of atom occurrences in f (its length in literals).
func (f *Formula) Size() int {
	n := 0
	f.walk(func(g *Formula) {
		if g.Op == OpAtom {
			n++
		}
	})
	return n
}

// AsLit reports whether f is a literal and returns it.
func (f *Formula) AsLit() (Lit, bool) {
	switch {
	case f.Op == OpAtom:
		return Pos(f.Atom), true
	case f.Op == OpNot && f.Args[0].Op == OpAtom:
		return Neg(f.Args[0].Atom), true
	}
	return 0, false
}

// AsClause reports whether f is a disjunction of literals (false being the
// empty one) and returns it, normalised. A tautological disjunction is not a
// clause in this sense.
func (f *Formula) AsClause() (Clause, bool) {
	ls, ok := f.lits(OpOr, OpFalse)
	return Clause(ls), ok
}

// IsTautologicalClause reports whether f is a disjunction of literals that
// holds in every world (it holds a literal and its negation, or true),
// which AsClause does not take for a clause.
func (f *Formula) IsTautologicalClause() bool {
	if f.Op == OpTrue {
		return true
	}
	ls, ok := f.rawLits(OpOr, OpFalse)
	if !ok {
		return f.Op == OpOr && slices.ContainsFunc(f.Args, func(g *Formula) bool { return g.Op == OpTrue || g.IsTautologicalClause() })
	}
	_, taut := Normalize(ls)
	return taut
}

// AsTerm reports whether f is a conjunction of literals (true being the empty
// one) and returns it, normalised. A contradictory conjunction is not a term in
// this sense.
func (f *Formula) AsTerm() (Term, bool) {
	ls, ok := f.lits(OpAnd, OpTrue)
	return Term(ls), ok
}

func (f *Formula) lits(op, unit Op) ([]Lit, bool) {
	ls, ok := f.rawLits(op, unit)
	if !ok {
		return nil, false
	}
	ls, taut := Normalize(ls)
	if taut {
		return nil, false
	}
	return ls, true
}

// rawLits returns the literals of a flat op-formula in written order.
func (f *Formula) rawLits(op, unit Op) ([]Lit, bool) {
	if f.Op == unit {
		return []Lit{}, true
	}
	if l, ok := f.AsLit(); ok {
		return []Lit{l}, true
	}
	if f.Op != op {
		return nil, false
	}
	ls := make([]Lit, 0, len(f.Args))
	for _, g := range f.Args {
		l, ok := g.AsLit()
		if !ok {
			return nil, false
		}
		ls = append(ls, l)
	}
	return ls, true
}

// Equal reports whether f and g are the same formula, node for node.
func (f *Formula) Equal(g *Formula) bool {
	if f.Op != g.Op || f.Atom != g.Atom || f.K != g.K || len(f.Args) != len(g.Args) {
		return false
	}
	for i := range f.Args {
		if !f.Args[i].Equal(g.Args[i]) {
			return false
		}
	}
	return true
}

// Rename returns f with every atom a replaced by m(a).
func (f *Formula) Rename(m func(Atom) Atom) *Formula {
	switch f.Op {
	case OpTrue, OpFalse:
		return f
	case OpAtom:
		return AtomF(m(f.Atom))
	}
	g := &Formula{Op: f.Op, K: f.K, Args: make([]*Formula, len(f.Args))}
	for i, a := range f.Args {
		g.Args[i] = a.Rename(m)
	}
	return g
}

// precedence of each connective when printing: a child is parenthesised when
// its precedence is not higher than its parent's.
func (op Op) precedence() int {
	switch op {
	case OpIff:
		return 1
	case OpImplies:
		return 2
	case OpOr:
		return 3
	case OpAnd:
		return 4
	case OpNot:
		return 5
	}
	return 6
}

// String returns f in the textual syntax read by the parser, with atom names
// from v. Parsing the result with v gives back an Equal formula.
func (f *Formula) String(v *Vocabulary) string {
	var b strings.Builder
	f.write(&b, v)
	return b.String()
}

func (f *Formula) write(b *strings.Builder, v *Vocabulary) {
	switch f.Op {
	case OpTrue:
		b.WriteString("true")
	case OpFalse:
		b.WriteString("false")
	case OpAtom:
		b.WriteString(litText(v.Name(f.Atom), false))
	case OpNot:
		if g := f.Args[0]; g.Op == OpAtom {
			b.WriteString(litText(v.Name(g.Atom), true)) // !bird, or age > 30 (compare.go)
			return
		}
		b.WriteByte('!')
		f.child(b, v, 0)
	case OpAtLeast:
		b.WriteString("atleast(")
		b.WriteString(strconv.Itoa(f.K))
		for _, g := range f.Args {
			b.WriteString(", ")
			g.write(b, v)
		}
		b.WriteByte(')')
	default:
		sep := map[Op]string{OpAnd: " & ", OpOr: " | ", OpImplies: " -> ", OpIff: " <-> "}[f.Op]
		for i := range f.Args {
			if i > 0 {
				b.WriteString(sep)
			}
			f.child(b, v, i)
		}
	}
}

// child writes the i-th operand of f, parenthesised when the parser would
// otherwise group it differently.
func (f *Formula) child(b *strings.Builder, v *Vocabulary, i int) {
	paren := f.parens(i)
	if paren {
		b.WriteByte('(')
	}
	f.Args[i].write(b, v)
	if paren {
		b.WriteByte(')')
	}
}

// parens reports whether the i-th operand of f is printed in parentheses: only
// where the parser would otherwise group the text differently. '->' groups
// to the right and '<->' to the left, so a chain of either prints without
// any: a parenthesis is a nesting level (MaxDepth), and a chain of n
// operands printed as a -> (b -> (…)) would read back twice as deep as it
// was written (TestPrintDepthWithinLimit).
func (f *Formula) parens(i int) bool {
	g := f.Args[i]
	pf, pg := f.Op.precedence(), g.Op.precedence()
	switch f.Op {
	case OpNot:
		return pg < pf
	case OpImplies:
		// implies := or ('->' implies)?: the right operand may be an
		// implication, the left one only a disjunction or tighter.
		if i == 1 && g.Op == OpImplies {
			return false
		}
		return pg <= OpImplies.precedence()
	case OpIff:
		// iff := implies ('<->' implies)*: both operands may be
		// implications, and the left one a biconditional too.
		if g.Op == OpImplies || i == 0 && g.Op == OpIff {
			return false
		}
		return pg <= OpIff.precedence()
	}
	return pg <= pf
}

// Depth returns how deeply the text f.String prints nests, as the parser
// counts it against MaxDepth: each parenthesis, '!', the right operand of
// '->', each further operand of a '<->' chain and the arguments of atleast
// add a level. A formula of Depth above MaxDepth (one built, not parsed)
// prints as text that no reader of strata reads back; writers check it.
func (f *Formula) Depth() int {
	switch f.Op {
	case OpTrue, OpFalse, OpAtom:
		return 0
	case OpNot:
		return 1 + f.operandDepth(0)
	case OpAtLeast:
		d := 0
		for _, g := range f.Args {
			d = max(d, g.Depth())
		}
		return 1 + d
	case OpImplies:
		return max(f.operandDepth(0), 1+f.operandDepth(1))
	case OpIff:
		d, _ := f.iffChain()
		return d
	}
	d := 0
	for i := range f.Args {
		d = max(d, f.operandDepth(i))
	}
	return d
}

// operandDepth is the Depth of the i-th operand of f, counting its
// parentheses.
func (f *Formula) operandDepth(i int) int {
	if f.parens(i) {
		return 1 + f.Args[i].Depth()
	}
	return f.Args[i].Depth()
}

// iffChain returns the Depth of a biconditional and the number of '<->' of
// the chain it prints as: a <-> b <-> c nests to the left, and its k-th
// operand is read k-1 levels down.
func (f *Formula) iffChain() (depth, arrows int) {
	l := f.Args[0]
	if l.Op == OpIff {
		depth, arrows = l.iffChain()
	} else {
		depth = f.operandDepth(0)
	}
	arrows++
	return max(depth, arrows+f.operandDepth(1)), arrows
}
