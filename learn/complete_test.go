package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// bruteAnswer decides α |~ β under m and sem by enumerating the worlds ws:
// under poss the lowest cut consistent with α, else as bruteCovered.
func bruteAnswer(m *Hypothesis, sem possibilistic.Semantics, alpha logic.Term, beta logic.Clause, ws [][]bool) bool {
	if sem != possibilistic.Poss {
		return bruteCovered(m, sem, alpha, beta, ws)
	}
	var base [][]bool
	for _, w := range ws {
		ok := true
		for _, l := range alpha {
			ok = ok && l.Holds(w)
		}
		for _, c := range m.Hard {
			ok = ok && worldHolds(c, w)
		}
		if ok {
			base = append(base, w)
		}
	}
	if len(base) == 0 {
		return false
	}
	satisfies := func(w []bool, j int) bool {
		for _, lv := range m.Levels[j:] {
			for _, c := range lv {
				if !worldHolds(c, w) {
					return false
				}
			}
		}
		return true
	}
	for j := 0; j <= len(m.Levels); j++ {
		var cut [][]bool
		for _, w := range base {
			if satisfies(w, j) {
				cut = append(cut, w)
			}
		}
		if len(cut) == 0 {
			continue
		}
		for _, w := range cut {
			if !worldHolds(beta, w) {
				return false
			}
		}
		return true
	}
	return false
}

func bruteTotal(m *Hypothesis, sem possibilistic.Semantics, ex *Examples, ws [][]bool) int64 {
	var s int64
	for _, e := range ex.List {
		if bruteAnswer(m, sem, e.Alpha, e.Beta, ws) {
			if e.Positive {
				s += int64(e.Count)
			} else {
				s -= int64(e.Count)
			}
		}
	}
	return s
}

// completeDraw is a random problem for the complete engine: n atoms, of
// which the last may be auxiliary (only the hard rules mention it) and the
// one before a descriptor (positive in antecedents, negative in clauses,
// in no β), so that projection and closed atoms are both exercised.
type completeDraw struct {
	r        *rand.Rand
	n        int
	aux      int // −1: none
	desc     int // −1: none
	classes  []logic.Atom
	exactly1 bool
}

func (d *completeDraw) lit(inClause bool) logic.Lit {
	for {
		a := d.r.IntN(d.n)
		if a == d.aux {
			continue
		}
		if a == d.desc {
			if inClause {
				return logic.Neg(logic.Atom(a))
			}
			return logic.Pos(logic.Atom(a))
		}
		return logic.MkLit(logic.Atom(a), d.r.IntN(2) == 0)
	}
}

func (d *completeDraw) clause(maxLen int) logic.Clause {
	for {
		c := make(logic.Clause, 1+d.r.IntN(maxLen))
		for i := range c {
			c[i] = d.lit(true)
		}
		if c, taut := logic.Normalize(c); !taut {
			return c
		}
	}
}

func (d *completeDraw) examples(count int) *Examples {
	ex := &Examples{}
	for range count {
		var alpha logic.Term
		for range d.r.IntN(d.n) {
			alpha = append(alpha, d.lit(false))
		}
		if _, taut := logic.Normalize(append(logic.Clause(nil), alpha...)); taut {
			continue
		}
		var beta logic.Clause
		if len(d.classes) > 0 && d.r.IntN(3) > 0 {
			beta = logic.Clause{logic.MkLit(d.classes[d.r.IntN(len(d.classes))], d.r.IntN(4) == 0)}
		} else {
			for {
				beta = logic.Clause{d.lit(false)}
				if beta[0].Atom() != logic.Atom(d.desc) {
					break
				}
			}
		}
		ex.Add(alpha, beta, d.r.IntN(2) == 0, 1+d.r.IntN(2))
	}
	return ex
}

func (d *completeDraw) hard() []logic.Clause {
	var hard []logic.Clause
	if d.exactly1 {
		all := logic.Clause{}
		for i, a := range d.classes {
			all = append(all, logic.Pos(a))
			for _, b := range d.classes[i+1:] {
				hard = append(hard, logic.Clause{logic.Neg(a), logic.Neg(b)})
			}
		}
		hard = append(hard, all)
	}
	for range d.r.IntN(3) {
		c := make(logic.Clause, 1+d.r.IntN(3))
		for i := range c {
			a := d.r.IntN(d.n)
			c[i] = logic.MkLit(logic.Atom(a), d.r.IntN(2) == 0)
			if a == d.desc {
				c[i] = logic.Neg(logic.Atom(a))
			}
		}
		if c, taut := logic.Normalize(c); !taut {
			hard = append(hard, c)
		}
	}
	return hard
}

func (d *completeDraw) hypothesis(hard []logic.Clause) *Hypothesis {
	m := &Hypothesis{Hard: hard}
	for range d.r.IntN(5) {
		var l []logic.Clause
		for range 1 + d.r.IntN(3) {
			c := d.clause(3)
			if _, _, in := locate(m, c); !in && !slices.ContainsFunc(l, func(x logic.Clause) bool { return slices.Equal(x, c) }) {
				l = append(l, c)
			}
		}
		if len(l) > 0 {
			m.Levels = append(m.Levels, l)
		}
	}
	return m
}

func newCompleteDraw(r *rand.Rand) *completeDraw {
	d := &completeDraw{r: r, n: 3 + r.IntN(4), aux: -1, desc: -1}
	if r.IntN(2) == 0 {
		d.aux = d.n - 1
	}
	if r.IntN(2) == 0 {
		d.desc = d.n - 2
	}
	if r.IntN(2) == 0 {
		k := 2 + r.IntN(2)
		for a := range k {
			d.classes = append(d.classes, logic.Atom(a))
		}
		d.exactly1 = r.IntN(3) > 0
	}
	return d
}

// TestCompleteMatchesBruteForce checks the complete engine under every
// semantics against enumerating worlds on random small problems, with
// auxiliary and closed atoms, exactly-one classes and arbitrary hard
// rules: the score and answers of committed hypotheses, every candidate's
// profile at every position, trial removals, re-insertion's moves, and the
// states after insertions, removals, saves and restores.
func TestCompleteMatchesBruteForce(t *testing.T) {
	n := 800
	if testing.Short() || raceOn {
		n = 120
	}
	for _, sem := range possibilistic.AllSemantics {
		r := rand.New(rand.NewPCG(uint64(sem), 48))
		for iter := range n {
			checkComplete(t, sem, iter, newCompleteDraw(r))
		}
	}
}

func checkComplete(t *testing.T, sem possibilistic.Semantics, iter int, d *completeDraw) {
	t.Helper()
	r := d.r
	hard := d.hard()
	ex := d.examples(25)
	if len(ex.List) == 0 {
		return
	}
	m := d.hypothesis(hard)
	var cands []logic.Clause
	for range 6 {
		cands = append(cands, d.clause(3))
	}
	var lits litSet // every literal a clause of the draw may have
	for a := range d.n {
		switch a {
		case d.aux:
		case d.desc:
			lits.add(logic.Neg(logic.Atom(a)))
		default:
			lits.add(logic.Pos(logic.Atom(a)))
			lits.add(logic.Neg(logic.Atom(a)))
		}
	}
	ws := worlds(d.n)
	v := vocab(d.n)
	e, ok := newComplete(d.n, ex, hard, 1+iter%3, sem, lits)
	if !ok {
		t.Fatalf("%v #%d: no complete engine for %d atoms", sem, iter, d.n)
	}
	if iter%2 == 1 {
		e.shardMin = 1 // the workers split every clause's groups
	}
	check := func(what string, h *Hypothesis) {
		t.Helper()
		if e.hypothesis() != h {
			t.Fatalf("%v #%d %s: the engine's hypothesis is another", sem, iter, what)
		}
		if e.count() != len(ex.List) {
			t.Fatalf("%v #%d: %d examples, want %d", sem, iter, e.count(), len(ex.List))
		}
		for i := range e.count() {
			x := e.data(i)
			if got, want := e.covers(i), bruteAnswer(h, sem, x.alpha, x.beta, ws); got != want {
				t.Fatalf("%v #%d %s: example %d (%v |~ %v): covered %v, brute force %v\n%s", sem, iter, what, i, x.alpha, x.beta, got, want, h.Theory(v))
			}
		}
		if got, want := e.score(), bruteTotal(h, sem, ex, ws); got != want {
			t.Fatalf("%v #%d %s: score %d, brute force %d\n%s", sem, iter, what, got, want, h.Theory(v))
		}
	}
	check("fresh", e.hypothesis())
	e.commit(m)
	check("commit", m)
	base := e.score()
	profiles := e.scoreCandidates(context.Background(), cands)
	for ci, c := range cands {
		for p := range m.Positions() {
			if got, want := profiles[ci][p], bruteTotal(m.Insert(c, p), sem, ex, ws)-base; got != want {
				t.Fatalf("%v #%d: inserting %s at position %d: profile %d, brute force %d\n%s", sem, iter, c.String(v), p, got, want, m.Theory(v))
			}
		}
	}
	checkScoreAboveExcept(t, iter, e, cands, profiles, r)
	// The sub-clauses of one clause, as minimise asks for them (evaluated
	// in one pass: evaluateSubs).
	var long logic.Clause
	for try := 0; len(long) < 4 && try < 50; try++ {
		long = d.clause(2 * d.n)
	}
	var subs []logic.Clause
	for _, l := range long {
		subs = append(subs, long.Without(l))
	}
	for si, prof := range e.scoreCandidates(context.Background(), subs) {
		for p := range m.Positions() {
			if want := bruteTotal(m.Insert(subs[si], p), sem, ex, ws) - base; prof[p] != want {
				t.Fatalf("%v #%d: sub-clause %s of %s at position %d: profile %d, brute force %d\n%s", sem, iter, subs[si].String(v), long.String(v), p, prof[p], want, m.Theory(v))
			}
		}
	}
	// A new lowest level, as unitLevel and tallyLevel score it.
	low := slices.Clone(cands[:1+r.IntN(len(cands))])
	lowered := m.Clone()
	lowered.Levels = append([][]logic.Clause{low}, lowered.Levels...)
	if got, want := e.scoreLowest(low), bruteTotal(lowered, sem, ex, ws); got != want {
		t.Fatalf("%v #%d: a new lowest level %v: score %d, brute force %d\n%s", sem, iter, low, got, want, m.Theory(v))
	}
	// Several candidates at once: the best choice above a need is the best
	// of the exact profiles whenever it reaches the need.
	for _, need := range []int64{math.MinInt64, 0, 1, 3} {
		want := choice{}
		for ci, c := range cands {
			for p := max(e.minPosition(m, c), 0); e.minPosition(m, c) >= 0 && p < m.Positions(); p++ {
				if ch := (choice{clause: c, pos: p, score: base + profiles[ci][p], levels: m.LevelsAfter(p), ok: true}); ch.better(want) {
					want = ch
				}
			}
		}
		got, _ := bestAbove(context.Background(), e, cands, need)
		if want.ok && want.score-base >= need && (!got.ok || got.pos != want.pos || !slices.Equal(got.clause, want.clause) || got.score != want.score) {
			t.Fatalf("%v #%d: need %d: best %v at %d (%d), want %v at %d (%d)", sem, iter, need, got.clause, got.pos, got.score, want.clause, want.pos, want.score)
		}
	}
	for j, lv := range m.Levels {
		for i, c := range lv {
			without := m.Remove(j, i)
			want := bruteTotal(without, sem, ex, ws)
			if got := e.scoreRemoval(j, i); got != want-base {
				t.Fatalf("%v #%d: removing clause %d of level %d: %d, brute force %d\n%s", sem, iter, i, j, got, want-base, m.Theory(v))
			}
			if e.removalHarmless(j, i) != (want >= base) {
				t.Fatalf("%v #%d: removing clause %d of level %d: harmless wrong", sem, iter, i, j)
			}
			mb, prof := e.scoreMove(j, i)
			if mb != want || len(prof) != without.Positions() {
				t.Fatalf("%v #%d: move of clause %d of level %d: base %d (%d positions), brute force %d (%d)", sem, iter, i, j, mb, len(prof), want, without.Positions())
			}
			for p := range prof {
				if w := bruteTotal(without.Insert(c, p), sem, ex, ws) - want; prof[p] != w {
					t.Fatalf("%v #%d: move of clause %s of level %d to position %d: %d, brute force %d\n%s", sem, iter, c.String(v), j, p, prof[p], w, m.Theory(v))
				}
			}
		}
	}
	check("after scoring", m)
	// A random walk of changes, with saves and restores.
	h := m
	for step := range 12 {
		switch op := r.IntN(4); {
		case op == 0 && h.NumClauses() > 0:
			j := r.IntN(len(h.Levels))
			i := r.IntN(len(h.Levels[j]))
			e.commitRemove(j, i)
			h = e.hypothesis()
			check("remove", h)
		case op == 1:
			c := cands[r.IntN(len(cands))]
			if _, _, in := locate(h, c); in {
				continue
			}
			e.commitInsert(c, r.IntN(h.Positions()))
			h = e.hypothesis()
			check("insert", h)
		case op == 2:
			snap := e.save()
			orig := h
			for range 1 + r.IntN(3) {
				if h.NumClauses() > 0 && r.IntN(2) == 0 {
					j := r.IntN(len(h.Levels))
					e.commitRemove(j, r.IntN(len(h.Levels[j])))
				} else if c := cands[r.IntN(len(cands))]; !func() bool { _, _, in := locate(h, c); return in }() {
					e.commitInsert(c, r.IntN(h.Positions()))
				} else {
					e.commit(d.hypothesis(hard))
				}
				h = e.hypothesis()
			}
			if r.IntN(2) == 0 {
				e.restore(orig, snap)
				h = orig
				check("restore", h)
			} else {
				e.forget()
				check("forget", h)
			}
		default:
			h = d.hypothesis(hard)
			e.commit(h)
			check("commit "+string(rune('0'+step%10)), h)
		}
	}
}
