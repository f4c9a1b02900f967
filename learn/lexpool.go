package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// A lex walk in slowSem starts from one world of the candidate and asks the
// solver, at each level, for a world that reaches the level's lower bound;
// each example then asks it for a counter-world of its β. The candidates of
// one iteration are scored against the same hypothesis, one antecedent after
// another, and their walks meet the same optimal worlds again and again.
// So each antecedent keeps a pool of the worlds of H ∪ α that its walks
// and tests found, with each one's violation vector under the current
// hypothesis: a pool world that meets the walk's assumptions and reaches a
// level's lower bound gives that level's count without a call (no world
// does better than a lower bound), and one that meets the walk's final
// counts and falsifies β refutes β without a call. The same pools hold the
// witnesses of the decisions (the worlds whose vector is them), which
// linear keeps among each example's stored worlds. A commit or a trial
// removal adds or removes one clause, so the vectors under the new hypothesis
// are derived from those under the current one by that clause alone
// (deriveVectors, TestPoolVectorsDerived). The pool only stands in for
// worlds the solver would have found: every count and answer is the same
// (TestDrowningFreeMatchesBruteForce).

// poolSize is the number of worlds kept per antecedent.
const poolSize = 32

// worldPool holds worlds of H ∪ α of one antecedent, words each, and their
// violation vectors under hyp (k counts each, level j at index j).
type worldPool struct {
	ms   []uint64
	n    int
	next int // round-robin victim once full
	hyp  *Hypothesis
	vec  []int32
	// alt are the vectors under altHyp, the hypothesis a commit or a trial
	// removal decided last (lookUnder): committed, it becomes current.
	altHyp *Hypothesis
	alt    []int32
	// wits are the worlds that witness the decisions under witHyp
	// (poolFind); adding a world clears witHyp.
	witHyp *Hypothesis
	wits   []int32
}

// worldPool returns the pool of group gi; each group is decided by one
// worker, so no other worker touches it.
func (e *drowningFree) worldPool(gi int) *worldPool {
	sx := &e.semx
	sx.ponce.Do(func() { sx.pools = make([]worldPool, len(e.groups)) })
	return &sx.pools[gi]
}

// poolAdd adds the worlds ms (words each, worlds of H ∪ α of group gi) to
// its pool, except those it has.
func (w *freeWorker) poolAdd(gi int, ms []uint64) {
	e := w.f
	p := e.worldPool(gi)
	words := e.words
	size := poolSize
	if e.semx.poolCap > 0 {
		size = e.semx.poolCap
	}
	for o := 0; o < len(ms); o += words {
		m := ms[o : o+words]
		if p.has(m, words) {
			continue
		}
		p.witHyp = nil
		var s int
		if p.n < size {
			s = p.n
			p.n++
			p.ms = append(p.ms, m...)
		} else {
			s = p.next
			p.next = (p.next + 1) % size
			copy(p.ms[s*words:], m)
		}
		if p.hyp != nil {
			p.vec = w.setVector(p.vec, p.hyp, m, s, p.n)
		}
		if p.altHyp != nil {
			p.alt = w.setVector(p.alt, p.altHyp, m, s, p.n)
		}
	}
}

// setVector writes into vs, the vectors of n worlds under h, the
// vector of world m at index s.
func (w *freeWorker) setVector(vs []int32, h *Hypothesis, m []uint64, s, n int) []int32 {
	k := len(h.Levels)
	vs = slices.Grow(vs[:min(len(vs), n*k)], n*k)[:n*k]
	w.masksOf(h).vector(m, vs[s*k:(s+1)*k])
	return vs
}

func (p *worldPool) has(m []uint64, words int) bool {
	for o := 0; o < p.n*words; o += words {
		if slices.Equal(p.ms[o:o+words], m) {
			return true
		}
	}
	return false
}

// poolFor returns the pool of group gi with its vectors under the current
// hypothesis.
func (w *freeWorker) poolFor(gi int) *worldPool {
	w.poolCurrent(w.f.worldPool(gi))
	return w.f.worldPool(gi)
}

// poolCurrent makes p.vec the vectors under the current hypothesis: the
// alternative ones if they are, derived from those of the hypothesis the last
// commit left (semExtra.move) if p has them, computed otherwise.
func (w *freeWorker) poolCurrent(p *worldPool) {
	e := w.f
	cur := e.hyp
	if p.hyp == cur {
		return
	}
	if p.altHyp == cur {
		p.hyp, p.altHyp = p.altHyp, p.hyp
		p.vec, p.alt = p.alt, p.vec
		return
	}
	mv := &e.semx.move
	if mv.to == cur && p.altHyp == mv.from && mv.from != nil {
		p.hyp, p.altHyp = p.altHyp, p.hyp
		p.vec, p.alt = p.alt, p.vec
	}
	p.altHyp, p.alt = w.vectorsUnder(p, cur, mv.ch, mv.to == cur && p.hyp == mv.from && mv.from != nil)
	p.hyp, p.altHyp = p.altHyp, p.hyp
	p.vec, p.alt = p.alt, p.vec
}

// vectorsUnder returns m and the vectors of p's worlds under m, in the
// memory of p.alt: derived from p.vec when m is p.hyp changed by ch
// (derive true), computed otherwise.
func (w *freeWorker) vectorsUnder(p *worldPool, m *Hypothesis, ch change, derive bool) (*Hypothesis, []int32) {
	k := len(m.Levels)
	out := slices.Grow(p.alt[:0], p.n*k)[:p.n*k]
	if !derive || !deriveVectors(p, p.hyp, m, ch, out, w.f.words) {
		lm := w.masksOf(m)
		for s := range p.n {
			lm.vector(p.ms[s*w.f.words:(s+1)*w.f.words], out[s*k:(s+1)*k])
		}
	}
	return m, out
}

// poolLook is what a lex walk may take from a pool: the worlds (indices
// in) that meet what the walk assumes above g (slowSem: they satisfy the
// candidate and meet the decisions from g up), with their vectors vec.
// A look for a walk of another hypothesis than the current one is lazy: its
// vectors are computed when the walk first needs a world (ensure).
type poolLook struct {
	p     *worldPool
	in    []int32
	vec   []int32
	k     int
	g     int
	wds   int
	under *Hypothesis // lazy: the hypothesis the vectors are for, until ensured
	ch    change      // lazy: how under differs from the current hypothesis
	w     *freeWorker // lazy: whose masks compute them
	// u are the counts of the walk's levels below g, once it is over;
	// done says that final has given its worlds.
	u    []int32
	done bool
}

// find returns a world of the look that meets the counts u of the levels
// from l+1 to g−1 and violates at most lb clauses of level l, or nil.
func (lk *poolLook) find(l, lb int, u []int32) []uint64 {
	lk.ensure()
	k := lk.k
	for _, s := range lk.in {
		v := lk.vec[int(s)*k : int(s+1)*k]
		if int(v[l]) > lb || !countsWithin(v, u, l+1, lk.g) {
			continue
		}
		return lk.p.ms[int(s)*lk.wds : int(s+1)*lk.wds]
	}
	return nil
}

// countsWithin reports whether v[j] ≤ u[j] for every j in [lo, hi).
func countsWithin(v, u []int32, lo, hi int) bool {
	for j := lo; j < hi; j++ {
		if v[j] > u[j] {
			return false
		}
	}
	return true
}

// poolFrom returns the least j such that the vector v meets the decisions
// dec of every level ≥ j (memberFrom for a pool world).
func poolFrom(v, dec []int32) int {
	j := len(dec)
	for j > 0 && v[j-1] <= dec[j-1] {
		j--
	}
	return j
}

// lookFor returns the look of group gi for candidate c (its worlds that
// satisfy c, with the least level from which each meets the decisions dec
// of the group in w.sx.pfrom), the least such level (k+1 if none) and a
// world from it.
func (w *freeWorker) lookFor(gi int, c logic.Clause, dec []int32) (*poolLook, int, []uint64) {
	e := w.f
	p := w.poolFor(gi)
	k := len(e.hyp.Levels)
	lk := &w.sx.look
	*lk = poolLook{p: p, in: lk.in[:0], vec: p.vec, k: k, wds: e.words}
	from := w.sx.pfrom[:0]
	best := k + 1
	var bm []uint64
	for s := range p.n {
		m := p.ms[s*e.words : (s+1)*e.words]
		if !holds(c, m) {
			continue
		}
		j := poolFrom(p.vec[s*k:(s+1)*k], dec)
		lk.in = append(lk.in, int32(s))
		from = append(from, int32(j))
		if j < best {
			best, bm = j, m
		}
	}
	w.sx.pfrom = from
	return lk, best, bm
}

// narrow keeps in the look the worlds that meet the decisions from g up.
func (lk *poolLook) narrow(g int, from []int32) {
	in := lk.in[:0]
	for t, s := range lk.in {
		if int(from[t]) <= g {
			in = append(in, s)
		}
	}
	lk.in, lk.g = in, g
}

// final appends to pool, once, the worlds of the look that meet the
// counts lk.u of every level below g: worlds of the walk's assumptions.
func (lk *poolLook) final(pool []uint64) []uint64 {
	if lk.done {
		return pool
	}
	lk.done = true
	if lk.p.n == 0 {
		return pool
	}
	lk.ensure()
	k := lk.k
	for _, s := range lk.in {
		if countsWithin(lk.vec[int(s)*k:int(s+1)*k], lk.u, 0, lk.g) {
			pool = append(pool, lk.p.ms[int(s)*lk.wds:int(s+1)*lk.wds]...)
		}
	}
	return pool
}

// lookUnder returns a lazy look of group gi for a walk of hypothesis m (compiled
// in w, the current hypothesis changed as ch says) from its top levels: every
// pool world, vectors under m, to be met at every level the walk fixes
// (g = k; the walk's counts go to u, its dec).
func (w *freeWorker) lookUnder(gi int, m *Hypothesis, ch change, u []int32) *poolLook {
	p := w.f.worldPool(gi)
	lk := &w.sx.look
	*lk = poolLook{p: p, in: lk.in[:0], k: len(m.Levels), g: len(m.Levels), wds: w.f.words, under: m, ch: ch, w: w, u: u}
	return lk
}

// ensure computes a lazy look's vectors: the pool keeps them as its
// alternative vectors, so that the commit of m finds them. When m is the
// current hypothesis with one clause more or less, each vector changes from
// the current hypothesis's by that clause alone.
func (lk *poolLook) ensure() {
	m := lk.under
	if m == nil {
		return
	}
	lk.under = nil
	p := lk.p
	switch m {
	case p.hyp:
		lk.vec = p.vec
	case p.altHyp:
		lk.vec = p.alt
	default:
		w := lk.w
		known := lk.ch.kind != 0
		if known {
			w.poolCurrent(p) // trial removals follow one another on one hypothesis
		}
		p.altHyp, p.alt = w.vectorsUnder(p, m, lk.ch, known && p.hyp == w.e.hyp)
		lk.vec = p.alt
	}
	for s := range p.n {
		lk.in = append(lk.in, int32(s))
	}
}

// deriveVectors writes into out the vectors of p's worlds under m, the
// hypothesis cur (whose vectors are p.vec) changed by ch, and reports false
// when the change is not known.
func deriveVectors(p *worldPool, cur, m *Hypothesis, ch change, out []int32, words int) bool {
	var cl logic.Clause
	j := ch.j
	switch ch.kind {
	case insertion:
		j = ch.pos / 2
		if ch.pos%2 == 1 {
			cl = m.Levels[j][len(m.Levels[j])-1] // Insert appends
		} else {
			cl = m.Levels[j][0]
		}
	case removal:
		if ch.emptied {
			cl = cur.Levels[j][0]
		} else {
			old, now := cur.Levels[j], m.Levels[j]
			i := 0
			for i < len(now) && slices.Equal(old[i], now[i]) {
				i++
			}
			cl = old[i]
		}
	default:
		return false
	}
	kc, k := len(cur.Levels), len(m.Levels)
	for s := range p.n {
		v := p.vec[s*kc : (s+1)*kc]
		o := out[s*k : (s+1)*k]
		var viol int32
		if !holds(cl, p.ms[s*words:(s+1)*words]) {
			viol = 1
		}
		switch {
		case ch.kind == insertion && ch.pos%2 == 1:
			copy(o, v)
			o[j] += viol
		case ch.kind == insertion:
			copy(o, v[:j])
			o[j] = viol
			copy(o[j+1:], v[j:])
		case ch.emptied:
			copy(o, v[:j])
			copy(o[j:], v[j+1:])
		default:
			copy(o, v)
			o[j] -= viol
		}
	}
	return true
}

// walkLook returns, under lex, the look of the last walkGroup with its
// counts (nil under linear): entails takes from it worlds of the walk's
// assumptions.
func (w *freeWorker) walkLook() *poolLook {
	if w.f.sem != possibilistic.Lex {
		return nil
	}
	return &w.sx.look
}

// poolKeep adds, under lex, the worlds of pool to group gi's pool.
func (w *freeWorker) poolKeep(gi int, pool []uint64) {
	if w.f.sem == possibilistic.Lex {
		w.poolAdd(gi, pool)
	}
}

// poolWitness reports whether a world in the pool of group gi witnesses
// the group's current decisions (violates as many clauses of each level of
// the current hypothesis as they say), satisfies c and falsifies beta (each if
// not nil). Under lex the pools hold the witnesses that the stored worlds
// of each example hold under linear: markWitnesses adds each decision's
// witness to its pool.
func (w *freeWorker) poolWitness(gi int, c, beta *clauseMask) bool {
	return w.poolFind(gi, true, c, beta) != nil
}

// poolWorld puts into w.m a world from the pool of group gi, a witness of
// its current decisions if witness, and reports false if there is none.
func (w *freeWorker) poolWorld(gi int, witness bool) bool {
	m := w.poolFind(gi, witness, nil, nil)
	copy(w.m, m)
	return m != nil
}

// poolFind returns a world in the pool of group gi, a witness if witness,
// that satisfies c and falsifies beta (each if not nil), or nil. It only
// reads the pool: a look of a walk may hold its vectors.
func (w *freeWorker) poolFind(gi int, witness bool, c, beta *clauseMask) []uint64 {
	e := w.f
	p := e.worldPool(gi)
	dec := e.dec[e.groups[gi][0]]
	k := len(e.hyp.Levels)
	if witness && p.hyp == e.hyp {
		// The witnesses under the current hypothesis, listed once: the
		// decisions are a function of the hypothesis.
		if p.witHyp != e.hyp {
			p.wits = p.wits[:0]
			for s := range p.n {
				if slices.Equal(p.vec[s*k:(s+1)*k], dec) {
					p.wits = append(p.wits, int32(s))
				}
			}
			p.witHyp = e.hyp
		}
		for _, s := range p.wits {
			m := p.ms[int(s)*e.words : int(s+1)*e.words]
			if (c == nil || c.holds(m)) && (beta == nil || !beta.holds(m)) {
				return m
			}
		}
		return nil
	}
	var lm *levelMasks
	for s := range p.n {
		m := p.ms[s*e.words : (s+1)*e.words]
		if c != nil && !c.holds(m) || beta != nil && beta.holds(m) {
			continue
		}
		if witness {
			switch {
			case p.hyp == e.hyp:
				if !slices.Equal(p.vec[s*k:(s+1)*k], dec) {
					continue
				}
			case p.altHyp == e.hyp:
				if !slices.Equal(p.alt[s*k:(s+1)*k], dec) {
					continue
				}
			default:
				if lm == nil {
					lm = w.masksOf(e.hyp)
				}
				if !lm.meets(m, dec) {
					continue
				}
			}
		}
		return m
	}
	return nil
}
