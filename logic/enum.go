package logic

// ForEachWorld calls fn with every assignment of n atoms, in binary counting
// order (atom 0 varies fastest), until fn returns false. The slice is reused
// between calls. It is the brute-force oracle of the tests; n must be small.
func ForEachWorld(n int, fn func(w []bool) bool) {
	w := make([]bool, n)
	for {
		if !fn(w) {
			return
		}
		i := 0
		for i < n && w[i] {
			w[i] = false
			i++
		}
		if i == n {
			return
		}
		w[i] = true
	}
}

// BruteSatisfiable reports, by enumerating all worlds over n atoms, whether
// some world satisfies every clause.
func BruteSatisfiable(n int, cs []Clause) bool {
	found := false
	ForEachWorld(n, func(w []bool) bool {
		for _, c := range cs {
			if !c.Holds(w) {
				return true
			}
		}
		found = true
		return false
	})
	return found
}

// BruteEntails reports, by enumerating all worlds over n atoms, whether every
// world satisfying all of fs satisfies g.
func BruteEntails(n int, fs []*Formula, g *Formula) bool {
	ok := true
	ForEachWorld(n, func(w []bool) bool {
		for _, f := range fs {
			if !f.Eval(w) {
				return true
			}
		}
		if !g.Eval(w) {
			ok = false
		}
		return ok
	})
	return ok
}
