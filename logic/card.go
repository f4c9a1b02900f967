package logic

// atLeastClauses encodes "at least k of lits are true" in CNF. With a fresh
// atom source it uses Sinz's sequential counter on the complements (at most
// n−k of them are false), O(n·k) clauses; with a nil fresh it lists one
// clause per (n−k+1)-subset, which needs no new atoms.
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
	return AtMostClauses(n-k, neg, fresh)
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
