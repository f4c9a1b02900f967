package learn

import (
	"math/bits"

	"github.com/strata-logic/strata/possibilistic"
)

// groupStates is the complete engine's decision of every group under the
// current hypothesis (see complete): under poss, per world the id of the
// highest level it violates (−1: none); under linear and lex the chain of
// narrowing levels and, under linear, the skipped levels.
type groupStates struct {
	top   []int32 // poss, at the group's world offset
	chain arena[link]
	skip  arena[int32]
}

// link is a level at which the walk from the top narrows a group's worlds:
// its id, the worlds kept after it, under linear the worlds the walk ends
// with when the level is skipped instead (fskip), under lex the least
// count of its violated clauses among the worlds kept above it (d).
type link struct {
	lvl   int32
	d     int32
	set   uint64
	fskip uint64
}

func (s *groupStates) init(e *complete) {
	if e.sem == possibilistic.Poss {
		s.top = make([]int32, e.wOff[e.ng])
		for i := range s.top {
			s.top[i] = -1
		}
		return
	}
	s.chain.init(e.ng)
	s.skip.init(e.ng)
}

// view is one group's decision, stored or derived without a clause: the
// worlds' top levels (poss) or the chain and skipped levels.
type view struct {
	top   []int32
	chain []link
	skip  []int32
}

// stored returns group g's stored decision.
func (e *complete) stored(g int) view {
	if e.sem == possibilistic.Poss {
		return view{top: e.state.top[e.wOff[g]:e.wOff[g+1]]}
	}
	return view{chain: e.state.chain.get(g), skip: e.state.skip.get(g)}
}

// final returns the worlds a view decides with: under poss those of the
// lowest consistent cut (every world of the least top level), otherwise
// the worlds the walk keeps.
func (e *complete) final(g int, v view) uint64 {
	all := e.shapes[e.shape[g]].all
	if e.sem == possibilistic.Poss {
		b, set := int32(1<<30), uint64(0)
		for w, t := range v.top {
			lv := e.lvl(t)
			switch {
			case lv < b:
				b, set = lv, 1<<w
			case lv == b:
				set |= 1 << w
			}
		}
		return set
	}
	if len(v.chain) == 0 {
		return all
	}
	return v.chain[len(v.chain)-1].set
}

// lvl returns the number of levels up to and including the level of id t
// (−1: none), i.e. one more than its index: the lowest cut a world whose
// highest violated level is t satisfies.
func (e *complete) lvl(t int32) int32 {
	if t < 0 {
		return 0
	}
	return e.levelIdx[t] + 1
}

// scratch is what deriving a group's decision needs.
type scratch struct {
	top   []int32
	chain []link
	skip  []int32
	cnt   [maxWorlds]int32
}

// derive computes group g's decision from its clauses, leaving out clause
// id except (−1: none), into s, and returns it as a view.
func (e *complete) derive(g int, except int32, s *scratch) view {
	list := e.lists.get(g)
	all := e.shapes[e.shape[g]].all
	sh := e.shape[g]
	switch e.sem {
	case possibilistic.Poss:
		k := int(e.wOff[g+1] - e.wOff[g])
		s.top = s.top[:0]
		for range k {
			s.top = append(s.top, -1)
		}
		left := all
		for _, id := range list {
			if id == except {
				continue
			}
			c := &e.clauses[id]
			v := left &^ c.ev.m[sh]
			for v != 0 {
				w := bits.TrailingZeros64(v)
				v &= v - 1
				s.top[w] = c.lvl
			}
			if left &= c.ev.m[sh]; left == 0 {
				break
			}
		}
		return view{top: s.top}
	case possibilistic.Linear:
		s.chain, s.skip = s.chain[:0], s.skip[:0]
		set := all
		for i := 0; i < len(list); {
			lvl, viol, next := e.levelViolations(list, i, except, sh)
			i = next
			switch x := set &^ viol; {
			case viol == 0:
			case x == 0:
				s.skip = append(s.skip, lvl)
			case x != set:
				s.chain = append(s.chain, link{lvl: lvl, set: x, fskip: e.walkLinear(list, next, except, sh, set)})
				set = x
			}
		}
		return view{chain: s.chain, skip: s.skip}
	}
	s.chain = s.chain[:0]
	set := all
	for i := 0; i < len(list) && bits.OnesCount64(set) > 1; {
		lvl, d, x, next := e.levelOptimum(list, i, except, sh, set, &s.cnt)
		i = next
		if x != set {
			s.chain = append(s.chain, link{lvl: lvl, d: d, set: x})
			set = x
		}
	}
	return view{chain: s.chain}
}

// levelViolations returns the level of list[i] (the group's clauses, highest
// level first), the worlds its clauses but except violate, and the index of
// the next level's first clause.
func (e *complete) levelViolations(list []int32, i int, except int32, sh int32) (lvl int32, viol uint64, next int) {
	lvl = e.clauses[list[i]].lvl
	all := e.shapes[sh].all
	for ; i < len(list) && e.clauses[list[i]].lvl == lvl; i++ {
		if list[i] != except {
			viol |= all &^ e.clauses[list[i]].ev.m[sh]
		}
	}
	return lvl, viol, i
}

// walkLinear returns the worlds linear's walk keeps from set, reading the
// levels of list from index i down.
func (e *complete) walkLinear(list []int32, i int, except int32, sh int32, set uint64) uint64 {
	for i < len(list) && set&(set-1) != 0 {
		_, viol, next := e.levelViolations(list, i, except, sh)
		i = next
		if x := set &^ viol; x != 0 {
			set = x
		}
	}
	return set
}

// levelOptimum returns the level of list[i], the least count of its clauses
// (but except) violated by a world of set, the worlds of set that reach it,
// and the index of the next level's first clause.
func (e *complete) levelOptimum(list []int32, i int, except int32, sh int32, set uint64, cnt *[maxWorlds]int32) (lvl, d int32, opt uint64, next int) {
	lvl = e.clauses[list[i]].lvl
	for v := set; v != 0; v &= v - 1 {
		cnt[bits.TrailingZeros64(v)] = 0
	}
	for ; i < len(list) && e.clauses[list[i]].lvl == lvl; i++ {
		if list[i] == except {
			continue
		}
		for v := set &^ e.clauses[list[i]].ev.m[sh]; v != 0; v &= v - 1 {
			cnt[bits.TrailingZeros64(v)]++
		}
	}
	d = 1 << 30
	for v := set; v != 0; v &= v - 1 {
		w := bits.TrailingZeros64(v)
		switch c := cnt[w]; {
		case c < d:
			d, opt = c, 1<<w
		case c == d:
			opt |= 1 << w
		}
	}
	return lvl, d, opt, i
}

// walkLex returns the worlds lex's walk keeps from set, reading the levels
// of list from index i down.
func (e *complete) walkLex(list []int32, i int, except int32, sh int32, set uint64, cnt *[maxWorlds]int32) uint64 {
	for i < len(list) && set&(set-1) != 0 {
		_, _, x, next := e.levelOptimum(list, i, except, sh, set, cnt)
		i, set = next, x
	}
	return set
}

// storeView writes the derived view of group g as its stored decision.
func (e *complete) storeView(g int, v view) {
	if e.sem == possibilistic.Poss {
		copy(e.state.top[e.wOff[g]:e.wOff[g+1]], v.top)
		return
	}
	e.state.chain.set(g, v.chain)
	if e.sem == possibilistic.Linear {
		e.state.skip.set(g, v.skip)
	}
}

// rederive decides group g again from its clauses, stores the decision and
// updates its examples' answers and the score.
func (e *complete) rederive(g int, s *scratch) {
	v := e.derive(g, -1, s)
	e.storeView(g, v)
	f := e.final(g, v)
	var miss int64
	for _, x := range e.groups[g] {
		now := f&^e.bmask[x] == 0
		d := &e.ex[x]
		if now != e.cov[x] {
			e.cov[x] = now
			if now {
				e.sc += d.sign * d.weight
			} else {
				e.sc -= d.sign * d.weight
			}
		}
		if now != (d.sign > 0) {
			miss += d.weight
		}
	}
	e.miss[g] = miss
	if miss > 0 {
		e.wrong[g>>6] |= 1 << (g & 63)
	} else {
		e.wrong[g>>6] &^= 1 << (g & 63)
	}
}

// rederiveAll decides every valid group again.
func (e *complete) rederiveAll() {
	if e.miss == nil {
		e.miss = make([]int64, e.ng)
		e.wrong = make([]uint64, e.gw)
	}
	var s scratch
	for g := range e.ng {
		if e.shape[g] >= 0 {
			e.rederive(g, &s)
		}
	}
}
