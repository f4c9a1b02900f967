package logic

import (
	"fmt"
	"strconv"
)

// MaxCounterCells bounds the registers that the CNF of one formula may take
// for its atleast operators (CounterCells). Compiling one takes about 500
// bytes at its peak (atleast(500, a1..a2000), a million registers: 2.4 s
// and 480 MB for strata show, 2026-12-01), so that one formula stays within
// half a gigabyte. The parser refuses a formula beyond it, at the atleast
// that passes it.
const MaxCounterCells = 1 << 20

// counterCells returns the registers of the counter that encodes an atleast
// of n operands and threshold k: n·min(k, n−k+1), 0 when it is trivially
// true or false or a single clause (k ≤ 1).
func counterCells(k, n int) int {
	if k <= 1 || k > n {
		return 0
	}
	return n * min(k, n-k+1)
}

// CounterCells returns the registers that CNF with fresh atoms creates for
// the atleast operators of f, counting twice those under a biconditional,
// which CNF writes once per polarity.
func CounterCells(f *Formula) int {
	var walk func(g *Formula, twice bool) int
	walk = func(g *Formula, twice bool) int {
		n := 0
		if g.Op == OpAtLeast {
			n = counterCells(g.K, len(g.Args))
			if twice {
				n *= 2
			}
		}
		for _, a := range g.Args {
			n += walk(a, twice || g.Op == OpIff)
		}
		return n
	}
	return walk(f, false)
}

// counterLimitError says that an atleast of n operands and threshold k, or
// the formula it is in (total cells), needs more registers than
// MaxCounterCells, and what to change.
func counterLimitError(k, n, total int) error {
	return fmt.Errorf("atleast(%d, …) of %d operands needs a counter of %s registers in CNF (%d × min(%d, %d)), and the formula %s in all, more than the %s a formula may take: use fewer operands, or a threshold nearer 1 or %d",
		k, n, thousands(counterCells(k, n)), n, k, n-k+1, thousands(total), thousands(MaxCounterCells), n)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// atLeastClauses encodes "at least k of lits are true" in CNF. With a fresh
// atom source it uses Sinz's sequential counter, counting the true literals
// up to k or, when that is cheaper, the false ones up to n−k (at most n−k of
// them are false): n·min(k, n−k+1) registers (CounterCells), so that
// atleast(2, a1..a5000) takes 10,000 and not 25 million; with a nil fresh
// it lists one clause per (n−k+1)-subset, which needs no new atoms.
func atLeastClauses(k int, lits []Lit, fresh func() Atom) []Clause {
	n := len(lits)
	switch {
	case k <= 0:
		return nil
	case k > n:
		return []Clause{{}}
	case k == 1:
		return []Clause{append(Clause(nil), lits...)}
	}
	neg := make([]Lit, n)
	for i, l := range lits {
		neg[i] = l.Not()
	}
	if fresh == nil {
		return subsetsClauses(lits, n-k+1)
	}
	if k <= n-k {
		return atLeastCounter(k, lits, fresh)
	}
	return AtMostClauses(n-k, neg, fresh)
}

// atLeastCounter encodes "at least k of xs are true", 2 ≤ k ≤ n, with a
// sequential counter whose registers only imply counts: s[i][j] true means
// at least j+1 of x1..x(i+1) are true, and the last register of the last
// row is asserted. A world with k true literals sets every register to the
// count it states; a model of the clauses has at least k true by induction
// on the rows.
func atLeastCounter(k int, xs []Lit, fresh func() Atom) []Clause {
	n := len(xs)
	s := make([][]Lit, n)
	for i := range s {
		s[i] = make([]Lit, min(k, i+1)) // at most i+1 of the first i+1
		for j := range s[i] {
			s[i][j] = Pos(fresh())
		}
	}
	out := []Clause{{s[0][0].Not(), xs[0]}}
	for i := 1; i < n; i++ {
		for j := range s[i] {
			// s[i][j] → s[i-1][j] ∨ (x_i ∧ s[i-1][j-1])
			above := Clause{s[i][j].Not(), xs[i]}
			rest := Clause{s[i][j].Not()}
			if j < len(s[i-1]) {
				above = append(above, s[i-1][j])
				rest = append(rest, s[i-1][j])
			}
			out = append(out, above)
			if j > 0 {
				out = append(out, append(rest, s[i-1][j-1]))
			}
		}
	}
	return append(out, Clause{s[n-1][k-1]})
}

// subsetsClauses returns one clause per m-subset of lits: every m of them
// contain a true one.
func subsetsClauses(lits []Lit, m int) []Clause {
	var out []Clause
	var pick Clause
	var rec func(i int)
	rec = func(i int) {
		if len(pick) == m {
			out = append(out, append(Clause(nil), pick...))
			return
		}
		if len(lits)-i < m-len(pick) {
			return
		}
		pick = append(pick, lits[i])
		rec(i + 1)
		pick = pick[:len(pick)-1]
		rec(i + 1)
	}
	rec(0)
	return out
}

// AtMostClauses encodes "at most m of xs are true" with Sinz's sequential
// counter: register s[i][j] means at least j+1 of x1..x(i+1) are true.
func AtMostClauses(m int, xs []Lit, fresh func() Atom) []Clause {
	n := len(xs)
	if m >= n {
		return nil
	}
	if m <= 0 {
		out := make([]Clause, n)
		for i, x := range xs {
			out[i] = Clause{x.Not()}
		}
		return out
	}
	s := make([][]Lit, n-1)
	for i := range s {
		s[i] = make([]Lit, m)
		for j := range s[i] {
			s[i][j] = Pos(fresh())
		}
	}
	var out []Clause
	out = append(out, Clause{xs[0].Not(), s[0][0]})
	for j := 1; j < m; j++ {
		out = append(out, Clause{s[0][j].Not()})
	}
	for i := 1; i < n-1; i++ {
		out = append(out,
			Clause{xs[i].Not(), s[i][0]},
			Clause{s[i-1][0].Not(), s[i][0]})
		for j := 1; j < m; j++ {
			out = append(out,
				Clause{xs[i].Not(), s[i-1][j-1].Not(), s[i][j]},
				Clause{s[i-1][j].Not(), s[i][j]})
		}
		out = append(out, Clause{xs[i].Not(), s[i-1][m-1].Not()})
	}
	out = append(out, Clause{xs[n-1].Not(), s[n-2][m-1].Not()})
	return out
}

// Totalizer encodes Bailleux and Boufkhad's totalizer of in, making atoms
// with newVar and clauses with add, and returns its outputs o: o[r] is
// true whenever at least r+1 of in are; with full, o[r] is also false
// whenever fewer are, so that the outputs follow from the inputs, and the
// inputs' bounds from the outputs, by unit propagation alone. Without full
// a solver may set an output without cause, which only makes an "at most"
// assumption ¬o[r] stricter for that world: what a core-guided MaxSAT
// solver and a count of violated clauses need. A single input is its own
// output.
func Totalizer(in []Lit, newVar func() Atom, add func(...Lit), full bool) []Lit {
	if len(in) == 1 {
		return in
	}
	a := Totalizer(in[:len(in)/2], newVar, add, full)
	b := Totalizer(in[len(in)/2:], newVar, add, full)
	out := make([]Lit, len(a)+len(b))
	for r := range out {
		out[r] = Pos(newVar())
	}
	if !full {
		for i, x := range a {
			add(x.Not(), out[i])
			for j, y := range b {
				add(x.Not(), y.Not(), out[i+j+1])
			}
		}
		for j, y := range b {
			add(y.Not(), out[j])
		}
		return out
	}
	// p of a and q of b true: at least p+q, and at most p+q when the next
	// ones are false. a[i-1] is "at least i of a", true for i = 0.
	for p := 0; p <= len(a); p++ {
		for q := 0; q <= len(b); q++ {
			if p+q > 0 {
				c := []Lit{out[p+q-1]}
				if p > 0 {
					c = append(c, a[p-1].Not())
				}
				if q > 0 {
					c = append(c, b[q-1].Not())
				}
				add(c...)
			}
			if p+q < len(out) {
				c := []Lit{out[p+q].Not()}
				if p < len(a) {
					c = append(c, a[p])
				}
				if q < len(b) {
					c = append(c, b[q])
				}
				add(c...)
			}
		}
	}
	return out
}
