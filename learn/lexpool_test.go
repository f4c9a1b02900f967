package learn

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/possibilistic"
)

// TestPoolVectorsDerived checks the vectors a pool derives along an
// insertion or a removal against counting every clause of the changed
// hypothesis, on random hypotheses over up to 70 atoms (two words per world).
func TestPoolVectorsDerived(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	for iter := range 500 {
		n := 3 + r.IntN(68)
		m := randModel(r, n)
		e := newEngine(n, &Examples{}, m.Hard, 1, possibilistic.Lex).(*drowningFree)
		e.hyp = m
		w := e.workers[0]
		p := &worldPool{}
		for range 1 + r.IntN(20) {
			mod := make([]uint64, e.words)
			for a := range n {
				if r.IntN(2) == 0 {
					mod[a>>6] |= 1 << (a & 63)
				}
			}
			p.ms = append(p.ms, mod...)
			p.n++
		}
		p.hyp, p.alt = w.vectorsUnder(p, m, change{}, false)
		p.vec, p.alt = p.alt, nil
		var to *Hypothesis
		var ch change
		if len(m.Levels) == 0 || r.IntN(2) == 0 {
			pos := r.IntN(m.Positions())
			to, ch = m.Insert(randClause(r, n, 3), pos), change{kind: insertion, pos: pos}
		} else {
			j := r.IntN(len(m.Levels))
			to = m.Remove(j, r.IntN(len(m.Levels[j])))
			ch = change{kind: removal, j: j, emptied: len(to.Levels) < len(m.Levels)}
		}
		_, got := w.vectorsUnder(p, to, ch, true)
		got = slices.Clone(got)
		_, want := w.vectorsUnder(p, to, change{}, false)
		if !slices.Equal(got, want) {
			t.Fatalf("#%d: %+v: derived %v, counted %v", iter, ch, got, want)
		}
	}
}
