package logic

import "slices"

// Clause is a disjunction of literals. The empty clause is false.
type Clause []Lit

// Term is a conjunction of literals, as in the antecedent of a default rule.
// The empty term is true.
type Term []Lit

// Normalize sorts c and removes duplicate literals in place. It reports
// whether c is a tautology (contains a literal and its complement).
func Normalize[S ~[]Lit](c S) (out S, tautology bool) {
	slices.Sort(c)
	c = slices.Compact(c)
	for i := 1; i < len(c); i++ {
		if c[i] == c[i-1]^1 {
			return c, true
		}
	}
	return c, false
}

// Holds reports whether the clause is true in world w.
func (c Clause) Holds(w []bool) bool {
	for _, l := range c {
		if l.Holds(w) {
			return true
		}
	}
	return false
}

// Holds reports whether every literal of the term is true in world w.
func (t Term) Holds(w []bool) bool {
	for _, l := range t {
		if !l.Holds(w) {
			return false
		}
	}
	return true
}

// Hash hashes the term's literals in their order (FNV-1a), so that equal
// sorted terms hash alike: a key for grouping equal antecedents.
func (t Term) Hash() uint64 {
	h := uint64(14695981039346656037)
	for _, l := range t {
		h ^= uint64(uint32(l))
		h *= 1099511628211
	}
	return h
}

// Negate returns the clause ¬t (the literals of t, each complemented).
func (t Term) Negate() Clause {
	c := make(Clause, len(t))
	for i, l := range t {
		c[i] = l.Not()
	}
	return c
}

// Negate returns the term ¬c (the literals of c, each complemented).
func (c Clause) Negate() Term {
	t := make(Term, len(c))
	for i, l := range c {
		t[i] = l.Not()
	}
	return t
}

// Contains reports whether l occurs in c.
func (c Clause) Contains(l Lit) bool { return slices.Contains(c, l) }

// Subsumes reports whether every literal of c occurs in d, so that c ⊨ d.
// Both clauses must be sorted (see Normalize).
func (c Clause) Subsumes(d Clause) bool {
	if len(c) > len(d) {
		return false
	}
	j := 0
	for _, l := range c {
		for j < len(d) && d[j] < l {
			j++
		}
		if j == len(d) || d[j] != l {
			return false
		}
		j++
	}
	return true
}

// Without returns a copy of c with l removed.
func (c Clause) Without(l Lit) Clause {
	out := make(Clause, 0, len(c))
	for _, m := range c {
		if m != l {
			out = append(out, m)
		}
	}
	return out
}

// String returns c as a disjunction, "!bird | flies", using v for names; the
// empty clause is "false".
func (c Clause) String(v *Vocabulary) string {
	if len(c) == 0 {
		return "false"
	}
	return v.Join(c, " | ")
}
