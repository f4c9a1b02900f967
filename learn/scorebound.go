package learn

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/strata-logic/strata/logic"
)

// Bounded scoring: candidates are scored from the highest upper bound on
// their gain down, and one stops being scored once it is proved unable to
// reach the best gain found (score.go scores one group).

// scoreAbove scores the candidates that may still change the score by at
// least need at some position from[ci] on (from[ci] < 0: none) other than
// except (-1: none), and leaves the others out (nil profile). Each
// candidate first gets an upper bound on what it can gain (gainBound, no
// solver call); candidates are then scored from the highest bound down, and
// need rises to the best gain found, so that a candidate whose bound is
// below it, which cannot even tie the best, is never scored (scoreBounded).
func (e *drowning) scoreAbove(ctx context.Context, cands []logic.Clause, from []int, need int64, except int) [][]int64 {
	e.entailedFor(e.hyp)
	bound, groupBounds := e.gainBounds(cands)
	return scoreBounded(ctx, &e.store, e.workers, cands, from, need, except, bound, func(w *possWorker, ci int, delta []int64, ab *abortShare) {
		w.scoreShareBounded(cands[ci], delta, ab, groupBounds[w.id][ci])
	})
}

// scoreAbove is drowning.scoreAbove under linear and lex, where the bound
// is the weight of the misclassified examples, the same for every
// candidate, and a candidate stops being scored once its changes so far
// plus the misclassified weight of the groups left are below need
// (scoreShareBoundedSem).
func (e *drowningFree) scoreAbove(ctx context.Context, cands []logic.Clause, from []int, need int64, except int) [][]int64 {
	e.entailedFor(e.hyp)
	bound := make([]int64, len(cands))
	miss := make([]int64, len(e.groups))
	for gi, g := range e.groups {
		miss[gi] = e.missWeight(g)
	}
	var fa, act []uint64
	for ci, c := range cands {
		// Only the groups for which c is active (entailed.go) and not
		// free (free.go) can gain.
		fa = e.freeAtoms(e.hyp, c, fa)
		act = e.active(c, act)
		for gi, v := range miss {
			if v > 0 && (act == nil || act[gi>>6]>>(gi&63)&1 == 1) && !e.isFree(gi, fa) {
				bound[ci] += v
			}
		}
	}
	return scoreBounded(ctx, &e.store, e.workers, cands, from, need, except, bound, func(w *freeWorker, ci int, delta []int64, ab *abortShare) {
		w.scoreShareBoundedSem(cands[ci], delta, ab)
	})
}

// scoreBounded scores the candidates from the highest bound down, each
// with score on the share of every worker of ws (which gives up, setting ab.stop, once
// the candidate is proved unable to reach need), raising need to the best
// gain found, and stops at the first bound below need. The change at
// position except does not count: a candidate that can reach need only
// there is left out.
func scoreBounded[W engineWorker](ctx context.Context, e *store, ws []W, cands []logic.Clause, from []int, need int64, except int, bound []int64,
	score func(w W, ci int, delta []int64, ab *abortShare)) [][]int64 {
	res := make([][]int64, len(cands))
	order := make([]int, 0, len(cands))
	for ci := range cands {
		if from[ci] >= 0 {
			order = append(order, ci)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bound[b], bound[a]) })
	np := e.hyp.Positions()
	parts := make([][]int64, len(ws))
	for _, ci := range order {
		if ctx.Err() != nil || bound[ci] < need {
			break // the order is by bound: no later candidate can reach need
		}
		ab := &abortShare{need: need, from: from[ci], except: except, vec: make([][]int64, len(ws))}
		parallel(ws, func(w W) {
			id := w.common().id
			parts[id] = make([]int64, np)
			score(w, ci, parts[id], ab)
		})
		if ab.stop.Load() {
			continue // it cannot reach need
		}
		prof := parts[0]
		for _, p := range parts[1:] {
			for k := range prof {
				prof[k] += p[k]
			}
		}
		res[ci] = prof
		for _, d := range prof[from[ci]:] {
			need = max(need, d)
		}
	}
	return res
}

// abortShare is what the workers scoring one candidate share to stop
// early: each publishes, per position, its exact change so far plus an
// upper bound on what its remaining groups can gain there; once the sum
// over workers is below need at every position from from on but except,
// the candidate cannot reach need and stop is set.
type abortShare struct {
	need   int64
	from   int
	except int
	mu     sync.Mutex
	vec    [][]int64
	stop   atomic.Bool
}

// publish records worker id's bound vector and reports whether the
// candidate is proved unable to reach need.
func (ab *abortShare) publish(id int, v []int64) bool {
	ab.mu.Lock()
	defer ab.mu.Unlock()
	ab.vec[id] = append(ab.vec[id][:0], v...)
	for _, o := range ab.vec {
		if o == nil {
			return false // a worker has not started: its bound is unknown
		}
	}
	for p := ab.from; p < len(v); p++ {
		if p == ab.except {
			continue
		}
		var sum int64
		for _, o := range ab.vec {
			sum += o[p]
		}
		if sum >= ab.need {
			return false
		}
	}
	ab.stop.Store(true)
	return true
}

// boundEvery is how many groups a worker scores between two checks of its
// bound.
const boundEvery = 128

// scoreShareBounded is scoreShare under poss that gives up as soon as the
// candidate is proved unable to change the score by ab.need at a position
// from ab.from on: an example's answer changes only at positions from 2b
// up (the invariant in drowning.go), so the exact changes of the groups
// scored so far plus the gain bounds of the others, summed from 2b up, bound
// the change at every position.
func (w *possWorker) scoreShareBounded(c logic.Clause, delta []int64, ab *abortShare, bounds []groupBound) {
	e := w.d
	np := len(delta)
	// rem[p]: the gain bounds of the unscored groups whose boundary 2b is p.
	rem := make([]int64, np)
	w.cm = e.mask(c)
	for _, gb := range bounds {
		rem[min(int(gb.at), np-1)] += gb.v
	}
	vec := make([]int64, np)
	check := func() bool {
		var acc int64
		for p := range np {
			acc += rem[p]
			vec[p] = delta[p] + acc
		}
		return ab.publish(w.id, vec)
	}
	if check() {
		return
	}
	w.delta = delta
	act := logic.Pos(w.s.NewVar())
	w.s.AddClause(append(append(make([]logic.Lit, 0, len(c)+1), c...), act.Not())...)
	defer w.s.AddClause(act.Not())
	// Only the groups active for c can change (entailed.go), and only
	// they have bounds.
	w.act = e.active(c, w.act)
	block := 0
	w.eachShare(w.act, func(n, g int) bool {
		w.scoreGroup(g, c, act)
		if len(bounds) > 0 && int(bounds[0].n) == n {
			rem[min(int(bounds[0].at), np-1)] -= bounds[0].v
			bounds = bounds[1:]
		}
		if n/boundEvery != block {
			block = n / boundEvery
			return !ab.stop.Load() && !check()
		}
		return true
	})
}

// boundEverySem is boundEvery for linear and lex, whose groups take far
// longer to score than a check of the bound.
const boundEverySem = 8

// scoreShareBoundedSem is scoreShare under linear and lex that gives up as
// soon as the candidate is proved unable to change the score by ab.need at
// a position from ab.from on. Only a misclassified example can gain (a
// correct one can only lose), so the exact changes of the groups scored so
// far plus the misclassified weight of the others bound the change at every
// position.
func (w *freeWorker) scoreShareBoundedSem(c logic.Clause, delta []int64, ab *abortShare) {
	e := w.f
	np := len(delta)
	var rem int64
	w.pot = w.pot[:0]
	w.fa = e.freeAtoms(e.hyp, c, w.fa)
	// Only the groups active for c can change (entailed.go).
	w.act = e.active(c, w.act)
	w.eachShare(w.act, func(_, g int) bool {
		var v int64
		if !e.isFree(g, w.fa) { // a free group cannot gain (free.go)
			v = e.missWeight(e.groups[g])
		}
		w.pot = append(w.pot, v)
		rem += v
		return true
	})
	vec := make([]int64, np)
	check := func() bool {
		for p := range np {
			vec[p] = delta[p] + rem
		}
		return ab.publish(w.id, vec)
	}
	if check() {
		return
	}
	w.delta = delta
	w.cm = e.mask(c)
	act := logic.Pos(w.s.NewVar())
	w.s.AddClause(append(append(make([]logic.Lit, 0, len(c)+1), c...), act.Not())...)
	defer w.s.AddClause(act.Not())
	k := 0 // the active groups scored
	w.eachShare(w.act, func(_, g int) bool {
		w.scoreGroupSem(g, c, act)
		rem -= w.pot[k]
		k++
		return k%boundEverySem != 0 || !ab.stop.Load() && !check()
	})
}

// missWeight returns the weight of the examples of group g that the
// current hypothesis misclassifies, the most the group can gain.
func (e *store) missWeight(g []int32) int64 {
	var w int64
	for _, x := range g {
		if d := &e.ex[x]; d.hardOK && e.st[x].covered != (d.sign > 0) {
			w += d.weight
		}
	}
	return w
}

// groupBound is a group's gain bound for one candidate (gainBound): the
// worker's n-th group gains at most v, at positions from at on.
type groupBound struct {
	n, at int32
	v     int64
}

// gainBounds returns for each candidate an upper bound on the change of
// score its insertion can bring at any position (see gainBound), and per
// worker and candidate the groups of the worker's share with a bound
// above 0, in order, for scoreShareBounded.
func (e *drowning) gainBounds(cands []logic.Clause) ([]int64, [][][]groupBound) {
	parts := make([][]int64, len(e.workers))
	groups := make([][][]groupBound, len(e.workers))
	// The groups each candidate may change (entailed.go), and their
	// union: the loop below takes group after group, so that a group's
	// states and worlds are read once for all candidates.
	acts := make([][]uint64, len(cands))
	var union []uint64
	for ci, c := range cands {
		acts[ci] = e.active(c, nil)
		if acts[ci] == nil || ci > 0 && union == nil {
			union = nil // every group
			continue
		}
		union = slices.Grow(union, len(acts[ci]))[:len(acts[ci])]
		for k, v := range acts[ci] {
			union[k] |= v
		}
	}
	parallel(e.workers, func(w *possWorker) {
		out := make([]int64, len(cands))
		gbs := make([][]groupBound, len(cands))
		masks := make([]clauseMask, len(cands))
		for ci, c := range cands {
			masks[ci] = e.mask(c)
		}
		w.eachShare(union, func(n, g int) bool {
			for ci := range cands {
				if acts[ci] != nil && acts[ci][g>>6]>>(g&63)&1 == 0 {
					continue
				}
				if v, at := e.gainBound(g, &masks[ci]); v > 0 {
					out[ci] += v
					gbs[ci] = append(gbs[ci], groupBound{n: int32(n), at: int32(at), v: v})
				}
			}
			return true
		})
		parts[w.id], groups[w.id] = out, gbs
	})
	res := parts[0]
	for _, p := range parts[1:] {
		for ci := range res {
			res[ci] += p[ci]
		}
	}
	return res, groups
}

// gainBound returns an upper bound on the change of score that inserting c
// (cm: its mask) at any position brings to the examples of one antecedent
// (g), and the lowest position at which it can bring any (2b: below,
// nothing changes). An example classified correctly can only lose, and a
// misclassified one gains nothing when a stored world proves its answer
// unchanged. A stored world of H ∪ α
// (any example of the group) that satisfies the cut at the boundary b and c
// keeps the cut at b consistent with c, so the answer at every position
// from 2b up is whether the cut at b with c entails β (scoreExample), and
// below 2b nothing changes: a covered negative stays covered, and an
// uncovered positive stays uncovered if such a world also falsifies β.
func (e *drowning) gainBound(gi int, cm *clauseMask) (ub int64, at int) {
	k := int32(len(e.hyp.Levels))
	at = 2 * int(k)
	g := e.groups[gi]
	for _, x := range g {
		st := &e.st[x]
		d := &e.ex[x]
		if !d.hardOK || st.b > k || st.covered == (d.sign > 0) {
			continue
		}
		cons, kept := false, false
		bm := e.betaMask(int(x))
	scan:
		for _, y := range g {
			o := &e.st[y]
			for s := range int(o.n) {
				if o.lv[s] > st.b {
					continue
				}
				m := e.slot(int(y), s)
				if !cm.holds(m) {
					continue
				}
				cons = true
				if d.sign < 0 || !bm.holds(m) {
					kept = true
					break scan
				}
			}
		}
		if !cons || !kept {
			ub += d.weight
			at = min(at, 2*int(st.b))
		}
	}
	return ub, at
}
