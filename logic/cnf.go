package logic

import "slices"

// NNF returns a formula equivalent to f built from literals, true, false, and,
// or, and atleast over negation normal forms: implications and
// biconditionals are expanded and negations pushed down to the atoms. Each
// biconditional writes its operands twice, once per polarity, so that a
// chain a0 <-> a1 <-> … <-> an grows to 2^n: see NNFLinear.
func NNF(f *Formula) *Formula { return nnf(f, false) }

// NNFLinear returns NNF(f) when that is linear in f's size, f holding no
// biconditional, and f itself otherwise: for the callers that only want a
// literal, clause or term that a negation hides (¬(a ∨ b) is ¬a ∧ ¬b), or a
// negation pushed in for display, and must not blow up on a chain of
// biconditionals.
func NNFLinear(f *Formula) *Formula {
	if f.Has(OpIff) {
		return f
	}
	return NNF(f)
}

func nnf(f *Formula, neg bool) *Formula {
	switch f.Op {
	case OpTrue, OpFalse:
		if (f.Op == OpTrue) != neg {
			return True()
		}
		return False()
	case OpAtom:
		if neg {
			return Not(f)
		}
		return f
	case OpNot:
		return nnf(f.Args[0], !neg)
	case OpAnd, OpOr, OpImplies:
		op := junction(f.Op, neg)
		var args []*Formula
		if !collectNNF(f, neg, op, &args) {
			return absorbing(op)
		}
		return nary(op, args)
	case OpIff:
		a, b := f.Args[0], f.Args[1]
		if neg {
			return nnf(Or(And(a, Not(b)), And(Not(a), b)), false)
		}
		return nnf(And(Or(Not(a), b), Or(a, Not(b))), false)
	case OpAtLeast:
		n := len(f.Args)
		k := f.K
		args := make([]*Formula, n)
		for i, g := range f.Args {
			args[i] = nnf(g, neg)
		}
		if neg {
			k = n - k + 1 // ¬atleast_k(x) = atmost_{k-1}(x) = atleast_{n-k+1}(¬x)
		}
		switch {
		case k <= 0:
			return True()
		case k > n:
			return False()
		}
		return &Formula{Op: OpAtLeast, K: k, Args: args}
	}
	panic("logic: unknown connective")
}

// junction returns the connective of the negation normal form of an
// and, or or implication (polarity neg): ¬(a → b) is a ∧ ¬b.
func junction(op Op, neg bool) Op {
	if op == OpImplies {
		op = OpOr
	}
	if neg {
		op = OpAnd + OpOr - op
	}
	return op
}

// absorbing returns false for and, true for or.
func absorbing(op Op) *Formula {
	if op == OpAnd {
		return False()
	}
	return True()
}

// collectNNF appends to args the operands of the negation normal form of f
// (polarity neg) under the connective op, descending through nested
// operands whose form has the same connective, so that a chain
// a1 -> a2 -> … -> an becomes one disjunction in time linear in n (merging
// level by level would copy the operands at every level). Units are left
// out; it returns false when an operand is absorbing, making the whole
// junction absorbing.
func collectNNF(f *Formula, neg bool, op Op, args *[]*Formula) bool {
	switch {
	case (f.Op == OpAnd || f.Op == OpOr) && junction(f.Op, neg) == op:
		for _, g := range f.Args {
			if !collectNNF(g, neg, op, args) {
				return false
			}
		}
		return true
	case f.Op == OpImplies && junction(f.Op, neg) == op:
		return collectNNF(f.Args[0], !neg, op, args) && collectNNF(f.Args[1], neg, op, args)
	}
	g := nnf(f, neg)
	switch {
	case g.Op == OpTrue || g.Op == OpFalse:
		return g.Op != absorbing(op).Op // a unit is left out
	case g.Op == op:
		*args = append(*args, g.Args...)
	default:
		*args = append(*args, g)
	}
	return true
}

// distributeLimit bounds the number of clauses that distributing a
// disjunction over conjunctions may create before auxiliary atoms are used.
const distributeLimit = 8

// CNF returns clauses whose models, restricted to the atoms of f, are exactly
// the models of f. Where distributing or over and would multiply the size,
// it introduces a fresh atom x for a subformula g with the clauses of x → g
// (Plaisted–Greenbaum, the polarity-aware Tseitin encoding), which keeps the
// result linear in the size of f. fresh hands out atoms that occur nowhere
// else; with a nil fresh, CNF distributes everywhere and uses no new atoms
// (exponential in the worst case).
//
// A biconditional puts each operand into the result twice, once per
// polarity, so nested biconditionals (a0 <-> a1 <-> … <-> an) double the
// negation normal form at every level. With fresh, CNF therefore first
// names every operand of a biconditional that itself contains one, by a
// fresh atom x with x ↔ operand; the result then stays linear in f.
func CNF(f *Formula, fresh func() Atom) []Clause {
	if fresh == nil {
		return clausify(NNF(f), nil)
	}
	var defs []*Formula
	g, _ := nameIffs(f, fresh, &defs)
	cs := clausify(NNF(g), fresh)
	for _, d := range defs {
		cs = append(cs, clausify(NNF(d), fresh)...)
	}
	return cs
}

// nameIffs returns f with every operand of a biconditional that contains a
// biconditional replaced by a fresh atom, appending the definitions
// x ↔ operand to defs, and whether the result contains a biconditional.
// Subformulas are renamed bottom-up, so every definition holds only
// biconditionals whose operands contain none.
func nameIffs(f *Formula, fresh func() Atom, defs *[]*Formula) (*Formula, bool) {
	if len(f.Args) == 0 {
		return f, false
	}
	var args []*Formula // nil while no operand changed
	has := f.Op == OpIff
	for i, a := range f.Args {
		b, hb := nameIffs(a, fresh, defs)
		if f.Op == OpIff && hb {
			x := AtomF(fresh())
			*defs = append(*defs, Iff(x, b))
			b, hb = x, false
		}
		if b != a && args == nil {
			args = slices.Clone(f.Args)
		}
		if args != nil {
			args[i] = b
		}
		has = has || hb
	}
	if args == nil {
		return f, has
	}
	return &Formula{Op: f.Op, K: f.K, Args: args}, has
}

func clausify(f *Formula, fresh func() Atom) []Clause {
	if l, ok := f.AsLit(); ok {
		return []Clause{{l}}
	}
	switch f.Op {
	case OpTrue:
		return nil
	case OpFalse:
		return []Clause{{}}
	case OpAnd:
		var cs []Clause
		for _, g := range f.Args {
			cs = append(cs, clausify(g, fresh)...)
		}
		return cs
	case OpOr:
		return clausifyOr(f.Args, fresh)
	case OpAtLeast:
		lits := make([]Lit, len(f.Args))
		var cs []Clause
		for i, g := range f.Args {
			if l, ok := g.AsLit(); ok {
				lits[i] = l
				continue
			}
			if fresh == nil {
				return clausify(expandAtLeast(f), nil)
			}
			x := fresh()
			lits[i] = Pos(x)
			cs = append(cs, guard(Neg(x), clausify(g, fresh))...)
		}
		return append(cs, atLeastClauses(f.K, lits, fresh)...)
	}
	panic("logic: CNF of a formula that is not in negation normal form")
}

// clausifyOr converts a disjunction: the product of its operands' clause
// sets, except that operands which would make the product large are named by
// fresh atoms.
func clausifyOr(args []*Formula, fresh func() Atom) []Clause {
	parts := make([][]Clause, len(args))
	size := 1
	for i, g := range args {
		parts[i] = clausify(g, fresh)
		size *= max(len(parts[i]), 1)
		if size > 1<<20 {
			size = 1 << 20
		}
	}
	var extra []Clause
	if size > distributeLimit && fresh != nil {
		for i, p := range parts {
			if len(p) > 1 {
				x := fresh()
				extra = append(extra, guard(Neg(x), p)...)
				parts[i] = []Clause{{Pos(x)}}
			}
		}
	}
	prod := []Clause{{}}
	for _, p := range parts {
		if len(p) == 0 {
			return extra // an operand is true
		}
		next := make([]Clause, 0, len(prod)*len(p))
		for _, c := range prod {
			for _, d := range p {
				e := append(append(Clause(nil), c...), d...)
				if e, taut := Normalize(e); !taut {
					next = append(next, e)
				}
			}
		}
		prod = next
	}
	return append(prod, extra...)
}

// guard returns the clauses g ∨ c for every c in cs.
func guard(g Lit, cs []Clause) []Clause {
	out := make([]Clause, len(cs))
	for i, c := range cs {
		out[i] = append(Clause{g}, c...)
	}
	return out
}

// expandAtLeast writes atleast_k(f1..fn) as a disjunction over the k-subsets
// of its operands, for callers who want no auxiliary atoms.
func expandAtLeast(f *Formula) *Formula {
	var terms []*Formula
	var pick []*Formula
	var rec func(i int)
	rec = func(i int) {
		if len(pick) == f.K {
			terms = append(terms, And(pick...))
			return
		}
		if len(f.Args)-i < f.K-len(pick) {
			return
		}
		pick = append(pick, f.Args[i])
		rec(i + 1)
		pick = pick[:len(pick)-1]
		rec(i + 1)
	}
	rec(0)
	return NNF(Or(terms...))
}

// ClausesNamed returns the clauses of fs, naming the subformulas whose
// distribution would blow up by auxiliary atoms of purpose interned in v
// (Fresh: _PURPOSE1, _PURPOSE2, …, skipping names already in use); named
// reports whether any was needed. The clauses are satisfiable together
// with a formula exactly when fs is, and their models restricted to the
// atoms of fs are the models of fs.
func ClausesNamed(v *Vocabulary, fs []*Formula, purpose string) (cs []Clause, named bool) {
	next := Fresh(v, purpose)
	fresh := func() Atom {
		named = true
		return next()
	}
	for _, f := range fs {
		cs = append(cs, CNF(f, fresh)...)
	}
	return cs, named
}
