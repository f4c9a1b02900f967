package learn

// withFallbacks returns h with p.Fallback's answers below its levels: the
// first alone at a new lowest level (Hypothesis.WithFallback), and each
// next one alone at a level below the last one kept, when it makes the
// hypothesis cover a positive training example it did not cover.
//
// A level below every other takes no answer away (WithFallback), so the
// levels below the first can only answer situations that the levels above
// leave with no class, as when a rule rules out the most frequent class
// and leaves two others open: a table's classes in order of frequency are
// the prior that breaks the tie. A level that answers no training
// situation right is left out, so that a theory states only the answers
// its training data needed (TestFallbackLadder).
func withFallbacks(h *Hypothesis, p Problem, s Settings) *Hypothesis {
	if len(p.Fallback) == 0 {
		return h
	}
	h = h.WithFallback(p.Fallback[0])
	var covered []bool
	for _, c := range p.Fallback[1:] {
		next := h.WithFallback(c)
		if next == h {
			continue
		}
		if covered == nil {
			covered = Covers(h, p.Train, threadsOf(s), s.Semantics)
		}
		now := Covers(next, p.Train, threadsOf(s), s.Semantics)
		if gainsPositive(p.Train, covered, now) {
			h, covered = next, now
		}
	}
	return h
}

// gainsPositive reports whether now covers a positive example of ex that
// was does not.
func gainsPositive(ex *Examples, was, now []bool) bool {
	for i, e := range ex.List {
		if e.Positive && now[i] && !was[i] {
			return true
		}
	}
	return false
}
