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
