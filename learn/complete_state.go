package learn

import (
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/strata-logic/strata/possibilistic"
)

// Groups are decided by class. A group's class is its shape, its examples'
// pattern (the distinct pairs of β's worlds and label; their weights are
// the group's own) and, per level, how many of the level's clauses each
// world violates: every decision the complete engine makes about a group,
// under any hypothesis that differs from the current one by a clause, is a
// function of its class and that clause's mask. A million rows under a
// theory of ten rules fall into a few hundred classes, so a candidate
// costs a few operations per group it applies to (adding its weights to
// its class's) and a profile per class.

// class is what the groups in it share, with the decision that follows.
type class struct {
	shape, pattern int32
	// viol lists the levels some clause of which a world violates, highest
	// first: per level its id, then the count of violated clauses of each
	// of the shape's worlds.
	viol   []int32
	view   view
	final  uint64 // the worlds the decision keeps
	groups int    // the groups in the class
}

// pattern is the distinct (β's worlds, label) pairs of a group's examples,
// its slots.
type pattern struct {
	bm   []uint64
	sign []int64
}

// view is a class's decision: per world the id of the highest level it
// violates, −1 none (poss), or the chain of narrowing levels and, under
// linear, the skipped levels.
type view struct {
	top   []int32
	chain []link
	skip  []int32
}

// link is a level at which the walk from the top narrows the worlds: its
// id, the worlds kept after it, under linear the worlds the walk ends with
// when the level is skipped instead (fskip), under lex the least count of
// its violated clauses among the worlds kept above it (d).
type link struct {
	lvl   int32
	d     int32
	set   uint64
	fskip uint64
}

// lvl returns one more than the index of the level of id t (0 for t < 0):
// the lowest cut a world whose highest violated level is t satisfies.
func (x levelIndex) lvl(t int32) int {
	if t < 0 {
		return 0
	}
	return int(x.of(t)) + 1
}

// derive returns the decision of a shape's worlds (k of them, all their
// mask) under the violation counts viol, into s's memory.
func (e *complete) derive(k int, all uint64, viol []int32, s *scratch) view {
	switch e.sem {
	case possibilistic.Poss:
		s.top = s.top[:0]
		for range k {
			s.top = append(s.top, -1)
		}
		left := all
		for i := 0; i < len(viol) && left != 0; i += 1 + k {
			for w := range k {
				if viol[i+1+w] > 0 && left>>w&1 == 1 {
					s.top[w] = viol[i]
					left &^= 1 << w
				}
			}
		}
		return view{top: s.top}
	case possibilistic.Linear:
		s.chain, s.skip = s.chain[:0], s.skip[:0]
		set := all
		for i := 0; i < len(viol); i += 1 + k {
			v := violatedWorlds(viol[i+1 : i+1+k])
			switch x := set &^ v; {
			case v == 0:
			case x == 0:
				s.skip = append(s.skip, viol[i])
			case x != set:
				s.chain = append(s.chain, link{lvl: viol[i], set: x, fskip: walkLinear(viol[i+1+k:], k, set)})
				set = x
			}
		}
		return view{chain: s.chain, skip: s.skip}
	}
	s.chain = s.chain[:0]
	set := all
	for i := 0; i < len(viol) && set&(set-1) != 0; i += 1 + k {
		if d, x := optimum(viol[i+1:i+1+k], set); x != set {
			s.chain = append(s.chain, link{lvl: viol[i], d: d, set: x})
			set = x
		}
	}
	return view{chain: s.chain}
}

// violatedWorlds returns the worlds whose count is not 0.
func violatedWorlds(cnt []int32) uint64 {
	var m uint64
	for w, c := range cnt {
		if c > 0 {
			m |= 1 << w
		}
	}
	return m
}

// optimum returns the least count among the worlds of set and the worlds
// that reach it.
func optimum(cnt []int32, set uint64) (d int32, opt uint64) {
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
	return d, opt
}

// walkLinear returns the worlds linear's walk keeps from set through the
// levels of viol (k counts each).
func walkLinear(viol []int32, k int, set uint64) uint64 {
	for i := 0; i < len(viol) && set&(set-1) != 0; i += 1 + k {
		if x := set &^ violatedWorlds(viol[i+1:i+1+k]); x != 0 {
			set = x
		}
	}
	return set
}

// walkLex returns the worlds lex's walk keeps from set through the levels
// of viol.
func walkLex(viol []int32, k int, set uint64) uint64 {
	for i := 0; i < len(viol) && set&(set-1) != 0; i += 1 + k {
		_, set = optimum(viol[i+1:i+1+k], set)
	}
	return set
}

// finalOf returns the worlds a decision keeps: under poss those of the
// lowest consistent cut (the worlds of the least top level), otherwise
// the walk's last.
func (e *complete) finalOf(v view, all uint64, ix levelIndex) uint64 {
	if e.sem == possibilistic.Poss {
		b, set := 1<<30, uint64(0)
		for w, t := range v.top {
			switch lv := ix.lvl(t); {
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

// levelAt returns the index in viol (k counts per level) of the entry of
// level id lvl, or of the first level below it when it has none, given
// the order of levels ix.
func levelAt(viol []int32, k int, lvl int32, ix levelIndex) int {
	at := ix.idx[lvl]
	i := 0
	for i < len(viol) && ix.idx[viol[i]] > at {
		i += 1 + k
	}
	return i
}

// withClause returns viol (k counts per level) into out with delta added
// to the count of every world of mask at level lvl, the level's entry
// created or dropped as needed.
func withClause(out, viol []int32, k int, lvl int32, mask uint64, delta int32, ix levelIndex) []int32 {
	out = out[:0]
	i := levelAt(viol, k, lvl, ix)
	out = append(out, viol[:i]...)
	start := len(out)
	out = append(out, lvl)
	if i < len(viol) && viol[i] == lvl {
		out = append(out, viol[i+1:i+1+k]...)
		i += 1 + k
	} else {
		for range k {
			out = append(out, 0)
		}
	}
	empty := true
	for w := range k {
		if mask>>w&1 == 1 {
			out[start+1+w] += delta
		}
		if out[start+1+w] != 0 {
			empty = false
		}
	}
	if empty {
		out = out[:start]
	}
	return append(out, viol[i:]...)
}

// scratch is a worker's memory for deriving and scoring.
type scratch struct {
	top   []int32
	chain []link
	skip  []int32
	viol  []int32
	key   []byte
	// wcnt counts, per world of every group, violated clauses of a level
	// scoreLowest scores; groups lists the groups it touched.
	wcnt   []int32
	groups []int32
	// Per class touched by the operation in hand: its index in touched
	// (mark, valid when its epoch is the operation's), and its slots'
	// summed weights at acc[accOff[i]:].
	mark    []int32
	epoch   []uint32
	now     uint32
	touched []int32
	accOff  []int32
	acc     []int64
}

// begin starts an operation that gathers the groups by class.
func (s *scratch) begin(classes int) {
	if len(s.mark) < classes {
		s.mark = make([]int32, 2*classes)
		s.epoch = make([]uint32, 2*classes)
	}
	s.now++
	if s.now == 0 { // wrapped: no stale epoch may match
		clear(s.epoch)
		s.now = 1
	}
	s.touched, s.accOff, s.acc = s.touched[:0], s.accOff[:0], s.acc[:0]
}

// gather adds group g's weights to its class's.
func (e *complete) gather(g int, s *scratch) {
	c := e.gclass[g]
	var t int32
	if s.epoch[c] == s.now {
		t = s.mark[c]
	} else {
		s.epoch[c], s.mark[c] = s.now, int32(len(s.touched))
		t = int32(len(s.touched))
		s.touched = append(s.touched, c)
		s.accOff = append(s.accOff, int32(len(s.acc)))
		for range len(e.patterns[e.classes[c].pattern].sign) {
			s.acc = append(s.acc, 0)
		}
	}
	o := s.accOff[t]
	for i, w := range e.gweights(g) {
		s.acc[int(o)+i] += w
	}
}

// gweights returns group g's slot weights.
func (e *complete) gweights(g int) []int64 { return e.wts[e.wtOff[g]:e.wtOff[g+1]] }

// intern returns the class of the shape, pattern and violation counts,
// creating it (with its decision) when new.
func (e *complete) intern(shape, pat int32, viol []int32, s *scratch) int32 {
	s.key = classKey(s.key, shape, pat, viol)
	k := s.key
	if c, ok := e.classIdx[string(k)]; ok {
		return c
	}
	sh := &e.shapes[shape]
	v := e.derive(sh.k, sh.all, viol, s)
	cl := class{shape: shape, pattern: pat, viol: slices.Clone(viol),
		view: view{top: slices.Clone(v.top), chain: slices.Clone(v.chain), skip: slices.Clone(v.skip)}}
	cl.final = e.finalOf(cl.view, sh.all, e.levelOrder())
	c := int32(len(e.classes))
	e.classes = append(e.classes, cl)
	e.classIdx[string(k)] = c
	return c
}

// classKey returns the key of a class in the engine's index, in buf's
// memory.
func classKey(buf []byte, shape, pat int32, viol []int32) []byte {
	buf = binary.AppendUvarint(buf[:0], uint64(shape))
	buf = binary.AppendUvarint(buf, uint64(pat))
	for _, x := range viol {
		buf = binary.AppendUvarint(buf, uint64(x))
	}
	return buf
}

// levelOrder returns the current hypothesis's order of levels.
func (e *complete) levelOrder() levelIndex { return levelIndex{idx: e.levelIdx, gone: -1} }

// move puts group g into class c, updating its examples' answers, the
// score and the misclassified weight.
func (e *complete) move(g int, c int32) {
	old := e.gclass[g]
	if old >= 0 {
		e.classes[old].groups--
	}
	e.gclass[g] = c
	e.classes[c].groups++
	cl := &e.classes[c]
	pat := &e.patterns[cl.pattern]
	var miss int64
	for _, x := range e.groups[g] {
		d := e.data(int(x))
		now := cl.final&^pat.bm[e.slot[x]] == 0
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
	for _, x := range e.groups[g] {
		o := e.orig[x]
		if e.cov[x] != (e.data(int(x)).sign > 0) {
			e.wrongEx[o>>6] |= 1 << (o & 63)
		} else {
			e.wrongEx[o>>6] &^= 1 << (o & 63)
		}
	}
	if miss > 0 {
		e.wrong[g>>6] |= 1 << (g & 63)
	} else {
		e.wrong[g>>6] &^= 1 << (g & 63)
	}
}

// initClasses gives every group its pattern and slot weights, and the
// class of no learned level.
func (e *complete) initClasses() {
	e.gclass = make([]int32, e.ng)
	e.gpat = make([]int32, e.ng)
	e.slot = make([]uint8, e.count())
	e.wtOff = make([]int32, e.ng+1)
	e.miss = make([]int64, e.ng)
	e.wrong = make([]uint64, e.gw)
	e.wrongEx = make([]uint64, (e.count()+63)/64)
	e.classIdx = map[string]int32{}
	byKey := map[string]int32{}
	var key []byte
	var pat pattern
	for g, xs := range e.groups {
		e.gclass[g] = -1
		e.wtOff[g+1] = e.wtOff[g]
		if e.shape[g] < 0 {
			continue
		}
		pat.bm, pat.sign = pat.bm[:0], pat.sign[:0]
		for _, x := range xs {
			bm, sign := e.bmask[x], e.data(int(x)).sign
			i := 0
			for i < len(pat.bm) && (pat.bm[i] < bm || pat.bm[i] == bm && pat.sign[i] < sign) {
				i++
			}
			if i == len(pat.bm) || pat.bm[i] != bm || pat.sign[i] != sign {
				pat.bm, pat.sign = slices.Insert(pat.bm, i, bm), slices.Insert(pat.sign, i, sign)
			}
		}
		if len(pat.bm) > 255 {
			panic("learn: internal error: more than 255 distinct examples of one antecedent")
		}
		key = key[:0]
		for i := range pat.bm {
			key = binary.AppendUvarint(key, pat.bm[i])
			key = append(key, byte(pat.sign[i]+1))
		}
		p, ok := byKey[string(key)]
		if !ok {
			p = int32(len(e.patterns))
			e.patterns = append(e.patterns, pattern{bm: slices.Clone(pat.bm), sign: slices.Clone(pat.sign)})
			byKey[string(key)] = p
		}
		e.gpat[g] = p
		e.wtOff[g+1] += int32(len(pat.bm))
	}
	e.wts = make([]int64, e.wtOff[e.ng])
	for g, xs := range e.groups {
		if e.shape[g] < 0 {
			continue
		}
		pat := &e.patterns[e.gpat[g]]
		for _, x := range xs {
			i := 0
			d := e.data(int(x))
			for pat.bm[i] != e.bmask[x] || pat.sign[i] != d.sign {
				i++
			}
			e.slot[x] = uint8(i)
			e.wts[int(e.wtOff[g])+i] += d.weight
		}
	}
}

// reclassAll gives every group the class of its violation counts under the
// current hypothesis, from scratch.
func (e *complete) reclassAll() {
	clear(e.classes)
	e.classes = e.classes[:0]
	clear(e.classIdx)
	s := &e.scr
	for g := range e.ng {
		e.gclass[g] = -1
		sh := e.shape[g]
		if sh < 0 {
			continue
		}
		k := e.shapes[sh].k
		s.viol = s.viol[:0]
		for j := len(e.levels) - 1; j >= 0; j-- {
			start := len(s.viol)
			s.viol = append(s.viol, e.levelID[j])
			for range k {
				s.viol = append(s.viol, 0)
			}
			any := false
			for _, id := range e.levels[j] {
				ev := e.clauses[id].ev
				if ev.act[g>>6]>>(g&63)&1 == 0 {
					continue
				}
				any = true
				for v := e.shapes[sh].all &^ ev.m[sh]; v != 0; v &= v - 1 {
					s.viol[start+1+bits.TrailingZeros64(v)]++
				}
			}
			if !any {
				s.viol = s.viol[:start]
			}
		}
		e.move(g, e.intern(sh, e.gpat[g], s.viol, s))
	}
}

// reclass moves every group the evaluation ev applies to from its class
// to the one with delta added at level lvl to the worlds its clause
// violates, each class's successor found once.
func (e *complete) reclass(ev *evaluation, lvl int32, delta int32) {
	s := &e.scr
	s.begin(len(e.classes))
	next := s.mark // per class touched: its successor
	ix := e.levelOrder()
	e.eachActive(ev, func(g int) {
		c := e.gclass[g]
		if s.epoch[c] != s.now {
			cl := &e.classes[c]
			sh := &e.shapes[cl.shape]
			s.viol = withClause(s.viol, cl.viol, sh.k, lvl, sh.all&^ev.m[cl.shape], delta, ix)
			// The classes intern adds are no group's before this pass, so
			// the marks, sized for the classes before it, suffice.
			s.epoch[c], next[c] = s.now, e.intern(cl.shape, cl.pattern, s.viol, s)
		}
		e.move(g, next[c])
	})
	e.compactClasses()
}

// compactClasses drops the classes no group is in, once they are most of
// them.
func (e *complete) compactClasses() {
	if len(e.classes) < 1<<12 {
		return
	}
	live := 0
	for i := range e.classes {
		if e.classes[i].groups > 0 {
			live++
		}
	}
	if len(e.classes) < 4*live {
		return
	}
	to := make([]int32, len(e.classes))
	kept := e.classes[:0]
	clear(e.classIdx)
	s := &e.scr
	for i, cl := range e.classes {
		to[i] = -1
		if cl.groups == 0 {
			continue
		}
		to[i] = int32(len(kept))
		s.key = classKey(s.key, cl.shape, cl.pattern, cl.viol)
		e.classIdx[string(s.key)] = to[i]
		kept = append(kept, cl)
	}
	clear(e.classes[len(kept):])
	e.classes = kept
	for g, c := range e.gclass {
		if c >= 0 {
			e.gclass[g] = to[c]
		}
	}
}

// eachWrong calls fn on every misclassified example, in the order of the
// examples the engine was built from.
func (e *complete) eachWrong(fn func(x int)) {
	for w, x := range e.wrongEx {
		for ; x != 0; x &= x - 1 {
			fn(int(e.index[w<<6|bits.TrailingZeros64(x)]))
		}
	}
}
