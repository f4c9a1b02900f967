package logic

// ForEachWorld calls fn with every assignment of n atoms, in binary counting
// order (atom 0 varies fastest), until fn returns false. The slice is reused
// between calls. It is the brute-force oracle of the tests and of small exact
// computations; n must be small.
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
