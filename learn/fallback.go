package learn

import "slices"

// withFallbacks returns h with p.Fallback's answers below its levels: the
// first alone at a new lowest level (Hypothesis.WithFallback), and each
// next one, c, alone at a level below the last one kept, when it makes the
// hypothesis cover a positive training example α |~ c it did not cover.
// It also returns which training examples the result covers, when it had
// to score them (nil otherwise).
//
// A level below every other takes no answer away (WithFallback), so the
// levels below the first can only answer situations that the levels above
// leave with no class, as when a rule rules out the most frequent class
// and leaves two others open: a table's classes in order of frequency are
// the prior that breaks the tie. A level that answers no training
// situation right is left out, so that a theory states only the answers
// its training data needed (TestFallbackLadder).
//
// covers decides which of p.Train's examples a hypothesis covers.
func withFallbacks(h *Hypothesis, p Problem, s config, covers func(*Hypothesis) []bool) (*Hypothesis, []bool) {
	if len(p.Fallback) == 0 {
		return h, nil
	}
	h = h.WithFallback(p.Fallback[0])
	var covered []bool
	for _, c := range p.Fallback[1:] {
		next := h.WithFallback(c)
		if next == h {
			continue
		}
		if covered == nil {
			covered = covers(h)
		}
		// Only the examples α |~ c that h misses are scored again: on a
		// table of ten classes, scoring all the training rows once per
		// class took longer than a pendigits run of eight iterations.
		missed := &Examples{}
		for i, e := range p.Train.List {
			if e.Positive && !covered[i] && slices.Equal(e.Beta, c) {
				missed.Add(e.Alpha, e.Beta, true, e.Count)
			}
		}
		if len(missed.List) == 0 || !slices.Contains(Covers(next, missed, threadsOf(s), s.Semantics), true) {
			continue
		}
		h = next
		covered = covers(h)
	}
	return h, covered
}
