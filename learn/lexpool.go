package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
)

// A lex walk in slowSem starts from one model of the candidate and asks the
// solver, at each level, for a model that reaches the level's lower bound;
// each example then asks it for a counter-model of its β. The candidates of
// one iteration are scored against the same model, one antecedent after
// another, and their walks meet the same optimal models again and again.
// So each antecedent keeps a pool of the models of H ∪ α that its walks
// and tests found, with each one's violation vector under the current
// model: a pool model that meets the walk's assumptions and reaches a
// level's lower bound gives that level's count without a call (no model
// does better than a lower bound), and one that meets the walk's final
// counts and falsifies β refutes β without a call. The pool only stands in
// for models the solver would have found: every count and answer is the
// same (TestDrowningFreeMatchesBruteForce).

// poolSize is the number of models kept per antecedent.
const poolSize = 32

// modelPool holds models of H ∪ α of one antecedent, words each, and their
// violation vectors under model (k counts each, level j at index j).
type modelPool struct {
	ms    []uint64
	n     int
	next  int // round-robin victim once full
	model *Model
	vec   []int32
}

// modelPool returns the pool of group gi; each group is decided by one
// worker, so no other worker touches it.
func (e *engine) modelPool(gi int) *modelPool {
	sx := &e.semx
	sx.ponce.Do(func() { sx.pools = make([]modelPool, len(e.groups)) })
	return &sx.pools[gi]
}

// poolAdd adds the models ms (words each, models of H ∪ α of group gi) to
// its pool, except those it has.
func (e *engine) poolAdd(gi int, ms []uint64) {
	p := e.modelPool(gi)
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
		if p.model != nil {
			k := len(p.model.Levels)
			p.vec = slices.Grow(p.vec, p.n*k)[:p.n*k]
			vectorOf(p.model, m, p.vec[s*k:(s+1)*k])
		}
	}
}

func (p *modelPool) has(m []uint64, words int) bool {
	for o := 0; o < p.n*words; o += words {
		if slices.Equal(p.ms[o:o+words], m) {
			return true
		}
	}
	return false
}

// vectorOf writes into v the violation counts of m under model, per level.
func vectorOf(model *Model, m []uint64, v []int32) {
	for j, l := range model.Levels {
		v[j] = int32(violated(l, m))
	}
}

// poolFor returns the pool of group gi with its vectors under the current
// model.
func (e *engine) poolFor(gi int) *modelPool {
	p := e.modelPool(gi)
	if p.model != e.model {
		p.model = e.model
		k := len(p.model.Levels)
		p.vec = slices.Grow(p.vec[:0], p.n*k)[:p.n*k]
		for s := range p.n {
			vectorOf(p.model, p.ms[s*e.words:(s+1)*e.words], p.vec[s*k:(s+1)*k])
		}
	}
	return p
}

// poolLook is what a lex walk of slowSem may take from a pool: the models
// (indices in) that satisfy the candidate and meet the decisions of the
// levels from g up.
type poolLook struct {
	p   *modelPool
	in  []int32
	k   int
	g   int
	wds int
}

// find returns a model of the look that meets the counts u of the levels
// from l+1 to g−1 and violates at most lb clauses of level l, or nil.
func (lk *poolLook) find(l, lb int, u []int32) []uint64 {
	k := lk.k
	for _, s := range lk.in {
		v := lk.p.vec[int(s)*k : int(s+1)*k]
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
// dec of every level ≥ j (memberFrom for a pool model).
func poolFrom(v, dec []int32) int {
	j := len(dec)
	for j > 0 && v[j-1] <= dec[j-1] {
		j--
	}
	return j
}

// lookFor returns the look of group gi for candidate c (its models that
// satisfy c, with the least level from which each meets the decisions dec
// of the group in w.sx.pfrom), the least such level (k+1 if none) and a
// model from it.
func (w *worker) lookFor(gi int, c logic.Clause, dec []int32) (*poolLook, int, []uint64) {
	e := w.e
	p := e.poolFor(gi)
	k := len(e.model.Levels)
	lk := &w.sx.look
	*lk = poolLook{p: p, in: lk.in[:0], k: k, wds: e.words}
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

// narrow keeps in the look the models that meet the decisions from g up.
func (lk *poolLook) narrow(g int, from []int32) {
	in := lk.in[:0]
	for t, s := range lk.in {
		if int(from[t]) <= g {
			in = append(in, s)
		}
	}
	lk.in, lk.g = in, g
}

// final appends to pool the models of the look that meet the counts u of
// every level below g: models of the walk's assumptions.
func (lk *poolLook) final(pool []uint64, u []int32) []uint64 {
	k := lk.k
	for _, s := range lk.in {
		if countsWithin(lk.p.vec[int(s)*k:int(s+1)*k], u, 0, lk.g) {
			pool = append(pool, lk.p.ms[int(s)*lk.wds:int(s+1)*lk.wds]...)
		}
	}
	return pool
}
