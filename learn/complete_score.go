package learn

import (
	"cmp"
	"context"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Scoring a candidate clause c on one group: its mask m (the group's worlds
// that satisfy c) and the group's decision give the answer of every
// example at every position p = 0..2k, as a few ranges of positions, so
// that a group costs a few operations whatever k is. With j = p/2 the
// level c goes into (p odd) or under (p even):
//
// poss: let lv(w) be one more than the index of the highest level world w
// violates (0: none), b the least lv (the boundary), q the least lv of a
// world of m, r0 the least lv of a world outside β and r of one of m
// outside β. The cuts with c are those of the levels up to j, narrowed to
// m; the lowest consistent one is at q when j ≥ q, where the answer is
// r > q, and otherwise the old cut at max(⌈p/2⌉, b), entailing β iff that
// is below r0. (This is the drowning engine's invariant, with the stored
// worlds replaced by all of them.)
//
// linear: if the walk's final worlds S₀ meet m, c is kept wherever the
// walk reaches it and narrows every set below to m (the drowning-free
// engine's invariant), so every position answers S₀ ∩ m but those inside
// skipped levels, which change nothing. Otherwise let g be one more than
// the level at which the walk's worlds first miss m: from position 2g up,
// the walk from the worlds kept above g narrowed to m gives one answer
// (those inside skipped levels excepted); below it, c put in a narrowing
// level makes the walk skip that level (the stored fskip), and elsewhere
// changes nothing.
//
// lex: if S₀ meets m, every position answers S₀ ∩ m. Otherwise, with g as
// above, every position from 2g up answers the walk from the worlds kept
// above g narrowed to m; c put into level g−1 raises by one the count of
// the worlds kept there, so the worlds of m that had one more join them;
// everywhere else every world kept gains the same count and nothing
// changes.
//
// TestCompleteMatchesGeneral checks every profile against the general
// engines.

// levelIndex maps a level id to its index in the hypothesis a profile is
// of: the current one, or the current one without the level of index
// gone (≥ 0) that a removal empties.
type levelIndex struct {
	idx  []int32
	gone int32
}

func (x levelIndex) of(id int32) int32 {
	i := x.idx[id]
	if x.gone >= 0 && i > x.gone {
		i--
	}
	return i
}

// add adds v to the positions lo..hi−1 of the difference array d.
func add(d []int64, lo, hi int, v int64) {
	if lo < hi {
		d[lo] += v
		d[hi] -= v
	}
}

// slotChange returns a slot's change of score from was to now, w its
// weight.
func slotChange(sign, w int64, was, now bool) int64 {
	switch {
	case now == was:
		return 0
	case now:
		return sign * w
	}
	return -sign * w
}

// profile adds to the difference array d over the np positions the change
// of the slots of a class (pattern pat, summed weights w) when a clause with
// mask m (the worlds satisfying it) is inserted at each position, the
// class deciding as v says under the violation counts viol of a shape of k
// worlds (all their mask), in the hypothesis whose levels ix indexes.
func (e *complete) profile(pat *pattern, w []int64, v view, viol []int32, k int, all, m uint64, np int, ix levelIndex, d []int64) {
	switch e.sem {
	case possibilistic.Poss:
		profilePoss(pat, w, v, m, np, ix, d)
	case possibilistic.Linear:
		profileLinear(pat, w, v, viol, k, all, m, np, ix, d)
	default:
		profileLex(pat, w, v, viol, k, all, m, np, ix, d)
	}
}

func profilePoss(pat *pattern, w []int64, v view, m uint64, np int, ix levelIndex, d []int64) {
	const inf = 1 << 30
	var lvs [maxWorlds]int
	b, q := inf, inf
	for x, t := range v.top {
		lv := ix.lvl(t)
		lvs[x] = lv
		b = min(b, lv)
		if m>>x&1 == 1 {
			q = min(q, lv)
		}
	}
	k := (np - 1) / 2
	q = min(q, k+1)
	for i, bm := range pat.bm {
		if w[i] == 0 {
			continue
		}
		r0, r := inf, inf
		for x, lv := range lvs[:len(v.top)] {
			if bm>>x&1 == 0 {
				r0 = min(r0, lv)
				if m>>x&1 == 1 {
					r = min(r, lv)
				}
			}
		}
		was := b < r0
		sw := pat.sign[i] * w[i]
		if hi := min(2*q, np); was && 2*r0-1 < hi {
			add(d, 2*r0-1, hi, -sw)
		}
		if q <= k {
			if c := slotChange(pat.sign[i], w[i], was, r > q); c != 0 {
				add(d, 2*q, np, c)
			}
		}
	}
}

func profileLinear(pat *pattern, w []int64, v view, viol []int32, k int, all, m uint64, np int, ix levelIndex, d []int64) {
	s0 := all
	if n := len(v.chain); n > 0 {
		s0 = v.chain[n-1].set
	}
	if x0 := s0 & m; x0 != 0 {
		for i, bm := range pat.bm {
			if c := slotChange(pat.sign[i], w[i], s0&^bm == 0, x0&^bm == 0); c != 0 {
				add(d, 0, np, c)
				for _, sk := range v.skip {
					p := 2*int(ix.of(sk)) + 1
					add(d, p, p+1, -c)
				}
			}
		}
		return
	}
	// The first link of the chain whose worlds miss m: from there down, c
	// is kept nowhere.
	i := 0
	if all&m != 0 {
		for i = 1; v.chain[i-1].set&m != 0; i++ {
		}
	}
	from := 0 // the links whose level is below g
	if i > 0 {
		l := v.chain[i-1]
		L := int(ix.of(l.lvl))
		prev := all
		if i >= 2 {
			prev = v.chain[i-2].set
		}
		f2 := walkLinear(viol[levelAt(viol, k, l.lvl, ix):], k, prev&m)
		for si, bm := range pat.bm {
			if c := slotChange(pat.sign[si], w[si], s0&^bm == 0, f2&^bm == 0); c != 0 {
				add(d, 2*(L+1), np, c)
				for _, sk := range v.skip {
					if j := int(ix.of(sk)); j > L {
						add(d, 2*j+1, 2*j+2, -c)
					}
				}
			}
		}
		from = i - 1
	}
	for _, l := range v.chain[from:] {
		p := 2*int(ix.of(l.lvl)) + 1
		for si, bm := range pat.bm {
			if c := slotChange(pat.sign[si], w[si], s0&^bm == 0, l.fskip&^bm == 0); c != 0 {
				add(d, p, p+1, c)
			}
		}
	}
}

func profileLex(pat *pattern, w []int64, v view, viol []int32, k int, all, m uint64, np int, ix levelIndex, d []int64) {
	s0 := all
	if n := len(v.chain); n > 0 {
		s0 = v.chain[n-1].set
	}
	if x0 := s0 & m; x0 != 0 {
		for i, bm := range pat.bm {
			if c := slotChange(pat.sign[i], w[i], s0&^bm == 0, x0&^bm == 0); c != 0 {
				add(d, 0, np, c)
			}
		}
		return
	}
	if all&m == 0 {
		return // every world kept violates c wherever it goes
	}
	i := 1
	for v.chain[i-1].set&m != 0 {
		i++
	}
	l := v.chain[i-1]
	L := int(ix.of(l.lvl))
	prev := all
	if i >= 2 {
		prev = v.chain[i-2].set
	}
	at := levelAt(viol, k, l.lvl, ix) // level L's counts: it narrows, so it has some
	x := prev & m
	f2 := walkLex(viol[at:], k, x)
	// Into level L: the worlds of m that had one more violation there tie
	// the worlds kept.
	joined := l.set
	for y := x; y != 0; y &= y - 1 {
		if wd := bits.TrailingZeros64(y); viol[at+1+wd] == l.d+1 {
			joined |= 1 << wd
		}
	}
	f3 := walkLex(viol[at+1+k:], k, joined)
	for si, bm := range pat.bm {
		was := s0&^bm == 0
		if c := slotChange(pat.sign[si], w[si], was, f2&^bm == 0); c != 0 {
			add(d, 2*(L+1), np, c)
		}
		if c := slotChange(pat.sign[si], w[si], was, f3&^bm == 0); c != 0 {
			add(d, 2*L+1, 2*L+2, c)
		}
	}
}

// candidateProfile returns the change of score when the clause evaluated
// as ev is inserted at each position of the current hypothesis, split over
// the workers (sharded) when shard is set.
func (e *complete) candidateProfile(ev *evaluation, s *scratch, shard bool) []int64 {
	np := e.hyp.Positions()
	ix := e.levelOrder()
	if !shard {
		d := make([]int64, np+1)
		e.shardProfile(ev, 0, e.ng, np, ix, s, d)
		return prefixSums(d)
	}
	return prefixSums(e.sharded(ev, np+1, s, func(lo, hi int, s *scratch, d []int64) {
		e.shardProfile(ev, lo, hi, np, ix, s, d)
	}))
}

// Scoring is a pure function from a shard of the groups (a range of them)
// to a vector of counts, the changes of score at each position, and the
// vectors of disjoint shards add up: sharded runs the shards on the
// engine's workers when a clause applies to enough groups to be worth it,
// and the same functions would run as the map and the combine of a
// distributed pipeline (docs/performance.md).

// shardProfile adds to d, a difference array over the np positions, the
// changes of the groups lo..hi−1 when the clause evaluated as ev is
// inserted at each position: each group's weights go to its class's, and
// each class is profiled once.
func (e *complete) shardProfile(ev *evaluation, lo, hi, np int, ix levelIndex, s *scratch, d []int64) {
	s.begin(len(e.classes))
	e.eachActiveIn(ev, lo, hi, func(g int) { e.gather(g, s) })
	for t, c := range s.touched {
		cl := &e.classes[c]
		sh := &e.shapes[cl.shape]
		pat := &e.patterns[cl.pattern]
		e.profile(pat, s.acc[s.accOff[t]:int(s.accOff[t])+len(pat.bm)], cl.view, cl.viol, sh.k, sh.all, ev.m[cl.shape], np, ix, d)
	}
}

// shardGroups is the number of groups a clause must apply to for sharded to
// split its work: below it, a worker's start costs more than it saves.
const shardGroups = 1 << 14

// sharded returns the sum of fn's vectors (of n counts) over the shards of
// the groups, one per worker when ev applies to shardGroups groups or more,
// else one shard on s.
func (e *complete) sharded(ev *evaluation, n int, s *scratch, fn func(lo, hi int, s *scratch, d []int64)) []int64 {
	d := make([]int64, n)
	if e.threads == 1 || ev.count < e.shardMin {
		fn(0, e.ng, s, d)
		return d
	}
	span := (e.gw + e.threads - 1) / e.threads * 64 // whole words a shard
	parts := make([][]int64, e.threads)
	var wg sync.WaitGroup
	for w := range e.threads {
		lo, hi := w*span, min((w+1)*span, e.ng)
		if lo >= hi {
			continue
		}
		parts[w] = make([]int64, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi, e.workerScratch(w), parts[w])
		}()
	}
	wg.Wait()
	for _, p := range parts {
		for i, x := range p {
			d[i] += x
		}
	}
	return d
}

// workerScratch returns the scratch of worker w of sharded.
func (e *complete) workerScratch(w int) *scratch {
	e.scrOnce.Do(func() { e.scrs = make([]scratch, e.threads) })
	return &e.scrs[w]
}

// prefixSums turns the difference array d (one longer than the positions)
// into the values at each position.
func prefixSums(d []int64) []int64 {
	var run int64
	for p := range d[:len(d)-1] {
		run += d[p]
		d[p] = run
	}
	return d[:len(d)-1]
}

// scoreCandidates returns every candidate's profile, the workers taking the
// candidates in turn.
func (e *complete) scoreCandidates(ctx context.Context, cands []logic.Clause) [][]int64 {
	out := e.scoreBounded(ctx, cands, make([]int, len(cands)), math.MinInt64, false)
	for ci := range out {
		if out[ci] == nil { // cancelled: meaningless, as the general engines'
			out[ci] = make([]int64, e.hyp.Positions())
		}
	}
	return out
}

// scoreAbove returns the exact profile of the candidates with from[ci] ≥ 0
// that may change the score by need or more, and nil for the others. A
// candidate can gain at most the weight of the misclassified examples of
// the groups it applies to (its bound): the candidates are scored from
// the highest bound down, need rising to the best gain found, and those
// whose bound is below need are left out, as the general engines do
// (bestAbove picks the same choice from either).
func (e *complete) scoreAbove(ctx context.Context, cands []logic.Clause, from []int, need int64, _ int) [][]int64 {
	return e.scoreBounded(ctx, cands, from, need, true)
}

// scoreBounded is scoreAbove, with need raised to the best gain found only
// when raise is set.
func (e *complete) scoreBounded(ctx context.Context, cands []logic.Clause, from []int, need int64, raise bool) [][]int64 {
	out := make([][]int64, len(cands))
	// The evaluations' memory is kept from call to call: their bitsets
	// are a word per 64 groups each.
	for len(e.evs) < len(cands) {
		e.evs = append(e.evs, evaluation{})
	}
	evs := e.evs[:len(cands)]
	bound := make([]int64, len(cands))
	order := make([]int, 0, len(cands))
	subs := e.evaluateSubs(cands, evs)
	for ci, c := range cands {
		if from[ci] < 0 {
			continue
		}
		if !subs {
			e.evaluate(c, &evs[ci])
		}
		bound[ci] = e.bound(&evs[ci])
		order = append(order, ci)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(bound[b], bound[a]) })
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	// Several candidates take a worker each; one alone is split over them
	// (sharded).
	workers := min(e.threads, len(order))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := e.workerScratch(w)
			for ctx.Err() == nil {
				mu.Lock()
				if next == len(order) || bound[order[next]] < need {
					mu.Unlock()
					return
				}
				ci := order[next]
				next++
				mu.Unlock()
				prof := e.candidateProfile(&evs[ci], s, workers == 1)
				mu.Lock()
				out[ci] = prof
				for _, d := range prof[from[ci]:] {
					if raise {
						need = max(need, d)
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

// bound returns the weight of the misclassified examples of the groups the
// evaluation applies to: no insertion of its clause gains more.
func (e *complete) bound(ev *evaluation) int64 {
	var b int64
	for w, x := range ev.act {
		for x &= e.wrong[w]; x != 0; x &= x - 1 {
			b += e.miss[w<<6|bits.TrailingZeros64(x)]
		}
	}
	return b
}

// scoreRemoval returns the change of score if clause i of level j were
// removed: only the groups it applies to can change, and each class of
// them changes alike.
func (e *complete) scoreRemoval(j, i int) int64 {
	id := e.levels[j][i]
	ev := e.clauses[id].ev
	lvl := e.levelID[j]
	ix := e.levelOrder()
	return e.sharded(ev, 1, &e.scr, func(lo, hi int, s *scratch, d []int64) {
		s.begin(len(e.classes))
		e.eachActiveIn(ev, lo, hi, func(g int) { e.gather(g, s) })
		for t, c := range s.touched {
			cl := &e.classes[c]
			sh := &e.shapes[cl.shape]
			s.viol = withClause(s.viol, cl.viol, sh.k, lvl, sh.all&^ev.m[cl.shape], -1, ix)
			f := e.finalOf(e.derive(sh.k, sh.all, s.viol, s), sh.all, ix)
			pat := &e.patterns[cl.pattern]
			for si, bm := range pat.bm {
				d[0] += slotChange(pat.sign[si], s.acc[int(s.accOff[t])+si], cl.final&^bm == 0, f&^bm == 0)
			}
		}
	})[0]
}

// removalHarmless reports whether removing clause i of level j keeps the
// score.
func (e *complete) removalHarmless(j, i int) bool { return e.scoreRemoval(j, i) >= 0 }

// scoreMove returns, for clause i of level j, the score of the hypothesis
// without it and the change of that score when the clause is inserted at
// each position of that hypothesis: re-insertion's question, answered
// without committing the removal.
func (e *complete) scoreMove(j, i int) (base int64, prof []int64) {
	id := e.levels[j][i]
	ix := e.levelOrder()
	np := e.hyp.Positions()
	if len(e.levels[j]) == 1 {
		ix.gone = int32(j)
		np -= 2
	}
	ev := e.clauses[id].ev
	lvl := e.levelID[j]
	// d[0] is the base's change; the profile's difference array follows.
	d := e.sharded(ev, np+2, &e.scr, func(lo, hi int, s *scratch, d []int64) {
		s.begin(len(e.classes))
		e.eachActiveIn(ev, lo, hi, func(g int) { e.gather(g, s) })
		for t, c := range s.touched {
			cl := &e.classes[c]
			sh := &e.shapes[cl.shape]
			s.viol = withClause(s.viol, cl.viol, sh.k, lvl, sh.all&^ev.m[cl.shape], -1, ix)
			v := e.derive(sh.k, sh.all, s.viol, s)
			f := e.finalOf(v, sh.all, ix)
			pat := &e.patterns[cl.pattern]
			w := s.acc[s.accOff[t] : int(s.accOff[t])+len(pat.bm)]
			for si, bm := range pat.bm {
				d[0] += slotChange(pat.sign[si], w[si], cl.final&^bm == 0, f&^bm == 0)
			}
			e.profile(pat, w, v, s.viol, sh.k, sh.all, ev.m[cl.shape], np, ix, d[1:])
		}
	})
	return e.sc + d[0], prefixSums(d[1:])
}

// scoreLowest returns the score of the hypothesis with level as a new
// level below every other, which it does not commit: a new lowest level
// decides among the worlds a group's walk keeps (under linear, it narrows
// them to those that satisfy it, if any does; under lex, to those that
// violate fewest of its clauses; under poss, as linear where every level
// is consistent with α), so only the groups its clauses apply to change,
// and each needs its worlds' counts of violated clauses.
func (e *complete) scoreLowest(level []logic.Clause) int64 {
	s := &e.scr
	if len(s.wcnt) < int(e.wOff[e.ng]) {
		s.wcnt = make([]int32, e.wOff[e.ng])
	}
	var ev evaluation
	s.groups = s.groups[:0]
	for _, c := range level {
		e.evaluate(c, &ev)
		e.eachActive(&ev, func(g int) {
			sh := e.shape[g]
			cnt := s.wcnt[e.wOff[g]:e.wOff[g+1]]
			if !slices.ContainsFunc(cnt, func(x int32) bool { return x != 0 }) {
				s.groups = append(s.groups, int32(g))
			}
			for v := e.shapes[sh].all &^ ev.m[sh]; v != 0; v &= v - 1 {
				cnt[bits.TrailingZeros64(v)]++
			}
		})
	}
	score := e.sc
	for _, g := range s.groups {
		cnt := s.wcnt[e.wOff[g]:e.wOff[g+1]]
		f := e.classes[e.gclass[g]].final
		switch e.sem {
		case possibilistic.Linear:
			if x := f &^ violatedWorlds(cnt); x != 0 {
				f = x
			}
		case possibilistic.Lex:
			_, f = optimum(cnt, f)
		default:
			// Under poss the new level joins the cut of every level when
			// that is consistent: when no world violates a level and one
			// of them satisfies the new one too.
			if v := e.classes[e.gclass[g]].view; v.top[bits.TrailingZeros64(f)] < 0 {
				if x := f &^ violatedWorlds(cnt); x != 0 {
					f = x
				}
			}
		}
		for _, x := range e.groups[g] {
			score += slotChange(e.data(int(x)).sign, e.data(int(x)).weight, e.cov[x], f&^e.bmask[x] == 0)
		}
		clear(cnt)
	}
	return score
}

// evaluateSubs evaluates cands into evs when they are the sub-clauses that
// minimise tries, a clause p without each of its literals in turn
// (cands[i] = p without p[i]), and reports whether they were: a group is
// one where no literal of p but p[i] is true, those where no literal is
// true (count 0) and those where p[i] alone is (count 1), so that one pass
// of bit-sliced counting over p's literals gives every sub-clause's groups,
// instead of a pass over the others' literals for each.
func (e *complete) evaluateSubs(cands []logic.Clause, evs []evaluation) bool {
	n := len(cands)
	if n < 4 || len(cands[1]) == 0 {
		return false
	}
	p := append(logic.Clause{cands[1][0]}, cands[0]...)
	for i, c := range cands {
		if len(c) != n-1 {
			return false
		}
		for j, k := 0, 0; j < n; j++ {
			if j == i {
				continue
			}
			if c[k] != p[j] {
				return false
			}
			k++
		}
	}
	if !e.admits(p) {
		return false // evaluate reports it
	}
	// ones: the groups where some literal of p is true; twos: two or more.
	ones, twos := make([]uint64, e.gw), make([]uint64, e.gw)
	for _, l := range p {
		if b := e.fixed[l]; b != nil {
			for w, x := range b {
				twos[w] |= ones[w] & x
				ones[w] |= x
			}
		}
	}
	// Per shape, each sub-clause's worlds: the union of the others'.
	prefix := make([]uint64, n+1)
	for i := range evs {
		evs[i].m = slices.Grow(evs[i].m[:0], len(e.shapes))[:len(e.shapes)]
	}
	for s := range e.shapes {
		sh := &e.shapes[s]
		for j, l := range p {
			prefix[j+1] = prefix[j] | sh.lit(l)
		}
		suffix := uint64(0)
		for i := n - 1; i >= 0; i-- {
			evs[i].m[s] = prefix[i] | suffix
			suffix |= sh.lit(p[i])
		}
	}
	for i := range cands {
		ev := &evs[i]
		ev.act = slices.Grow(ev.act[:0], e.gw)[:e.gw]
		b := e.fixed[p[i]]
		for w := range ev.act {
			x := e.valid[w] &^ ones[w]
			if b != nil {
				x |= e.valid[w] & ones[w] &^ twos[w] & b[w]
			}
			ev.act[w] = x
		}
		e.dropCovering(ev)
	}
	return true
}
