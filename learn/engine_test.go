package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

func randLit(r *rand.Rand, n int) logic.Lit {
	return logic.MkLit(logic.Atom(r.IntN(n)), r.IntN(2) == 0)
}

func randClause(r *rand.Rand, n, maxLen int) logic.Clause {
	for {
		c := make(logic.Clause, 1+r.IntN(maxLen))
		for i := range c {
			c[i] = randLit(r, n)
		}
		c, taut := logic.Normalize(c)
		if !taut {
			return c
		}
	}
}

func randExamples(r *rand.Rand, n, count int) *Examples {
	ex := &Examples{}
	for range count {
		var alpha logic.Term
		for range r.IntN(4) {
			alpha = append(alpha, randLit(r, n))
		}
		if _, taut := logic.Normalize(append(logic.Clause(nil), alpha...)); taut {
			continue
		}
		ex.Add(alpha, randClause(r, n, 2), r.IntN(2) == 0, 1+r.IntN(2))
	}
	return ex
}

func randModel(r *rand.Rand, n int) *Hypothesis {
	m := &Hypothesis{}
	for range r.IntN(3) {
		m.Hard = append(m.Hard, randClause(r, n, 3))
	}
	for range r.IntN(5) {
		var l []logic.Clause
		for range 1 + r.IntN(3) {
			l = append(l, randClause(r, n, 3))
		}
		m.Levels = append(m.Levels, l)
	}
	return m
}

func vocab(n int) *logic.Vocabulary {
	v := &logic.Vocabulary{}
	for i := range n {
		v.Intern(string(rune('a' + i)))
	}
	return v
}

// fullScore decides every example from scratch with possibilistic.Reasoner:
// an implementation independent of the engine.
func fullScore(m *Hypothesis, ex *Examples, v *logic.Vocabulary) int64 {
	rs := possReasoner(m.Theory(v))
	var s int64
	for _, e := range ex.List {
		if rs.EntailsClause(e.Alpha, e.Beta) {
			if e.Positive {
				s += int64(e.Count)
			} else {
				s -= int64(e.Count)
			}
		}
	}
	return s
}

// TestIncrementalMatchesFullEvaluation checks the engine's invariant: the
// per-position answer profiles of candidate clauses, and trial removals, give
// the same scores as re-deciding every example of the changed hypothesis.
func TestIncrementalMatchesFullEvaluation(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 7))
	for iter := range 300 {
		n := 3 + r.IntN(5)
		v := vocab(n)
		ex := randExamples(r, n, 40)
		m := randModel(r, n)
		e := newEngine(n, ex, m.Hard, 1+iter%3, possibilistic.Poss).(*drowning)
		e.commit(m)
		base := e.score()
		if want := fullScore(m, ex, v); base != want {
			t.Fatalf("#%d: engine score %d, full evaluation %d\n%s", iter, base, want, m.Theory(v))
		}
		var cands []logic.Clause
		for range 4 {
			cands = append(cands, randClause(r, n, 3))
		}
		profiles := e.scoreCandidates(context.Background(), cands)
		for ci, c := range cands {
			for p := range m.Positions() {
				want := fullScore(m.Insert(c, p), ex, v) - base
				if got := profiles[ci][p]; got != want {
					t.Fatalf("#%d: inserting %s at position %d: profile %d, full evaluation %d\n%s",
						iter, c.String(v), p, got, want, m.Theory(v))
				}
			}
		}
		// The bounded choice must be the choice among the full profiles.
		var ref choice
		for ci, c := range cands {
			from := minPosition(m, c, &hardSubsumer{})
			for p := from; from >= 0 && p < m.Positions(); p++ {
				if ch := (choice{clause: c, pos: p, score: base + profiles[ci][p], levels: m.LevelsAfter(p), ok: true}); ch.better(ref) {
					ref = ch
				}
			}
		}
		for _, need := range []int64{math.MinInt64, ref.score - base, ref.score - base + 1} {
			got, _ := bestAbove(context.Background(), e, cands, need)
			switch {
			case need <= ref.score-base && (got.ok != ref.ok || got.ok && (got.pos != ref.pos || got.score != ref.score || !slices.Equal(got.clause, ref.clause))):
				t.Fatalf("#%d: need %d: bounded choice %v at %d (score %d), full profiles %v at %d (score %d)",
					iter, need, got.clause, got.pos, got.score, ref.clause, ref.pos, ref.score)
			case need > ref.score-base && got.ok && got.better(ref):
				t.Fatalf("#%d: need %d: bounded choice %v better than the best of the full profiles", iter, need, got.clause)
			}
		}
		checkScoreAboveExcept(t, iter, e, cands, profiles, r)
		// Scoring must not have disturbed the state.
		if s := e.score(); s != base {
			t.Fatalf("#%d: score moved from %d to %d while scoring candidates", iter, base, s)
		}
		for j, l := range m.Levels {
			for i := range l {
				trial := m.Remove(j, i)
				got := e.scoreRemoval(j, i)
				want := fullScore(trial, ex, v) - base
				if got != want {
					t.Fatalf("#%d: removing clause %d of level %d: trial %d, full evaluation %d", iter, i, j, got, want)
				}
				if h := e.removalHarmless(j, i); h != (want >= 0) {
					t.Fatalf("#%d: removing clause %d of level %d: harmless %v, full evaluation %d", iter, i, j, h, want)
				}
			}
		}
		e.commit(m)
		if s := e.score(); s != base {
			t.Fatalf("#%d: recommit changed score %d -> %d", iter, base, s)
		}
		// Incremental commits must leave the same states as full ones.
		for _, c := range cands {
			p := r.IntN(e.hyp.Positions())
			after := e.hyp.Insert(c, p)
			e.commitInsert(c, p)
			checkStates(t, iter, e, after)
			if r.IntN(2) == 0 {
				e.scoreCandidates(context.Background(), cands) // computes thresholds to be shifted
			}
			j := r.IntN(len(e.hyp.Levels))
			i := r.IntN(len(e.hyp.Levels[j]))
			after = e.hyp.Remove(j, i)
			e.commitRemove(j, i)
			checkStates(t, iter, e, after)
		}
	}
}

// checkStates compares the engine's per-example states with those of a fresh
// engine that decides every example of m from scratch.
func checkStates(t *testing.T, iter int, e *drowning, m *Hypothesis) {
	t.Helper()
	f := newEngine(e.n, examplesOf(&e.store), m.Hard, 1, possibilistic.Poss).(*drowning)
	f.commit(m)
	for i := range e.st {
		a, b := &e.st[i], &f.st[i]
		if a.b != b.b || a.covered != b.covered {
			t.Fatalf("#%d: example %d: incremental b=%d covered=%v, full b=%d covered=%v", iter, i, a.b, a.covered, b.b, b.covered)
		}
		if a.tValid && e.workers[0] != nil {
			if ft := f.workers[0].threshold(i); ft != int(a.t) {
				t.Fatalf("#%d: example %d: incremental t=%d, full t=%d", iter, i, a.t, ft)
			}
		}
		for s := range int(a.n) {
			if lv := lowestSatisfied(m.Levels, e.slot(i, s), len(m.Levels)); lv > int(a.lv[s]) {
				t.Fatalf("#%d: example %d: stored world claims level %d, satisfies only from %d", iter, i, a.lv[s], lv)
			}
		}
		d := &e.ex[i]
		if d.hardOK && a.b > 0 && a.coreBOK && coreSatisfiable(e.n, m, a.coreB, d.alpha, nil) {
			t.Fatalf("#%d: example %d: core %b of the cut under b=%d is satisfiable", iter, i, a.coreB, a.b)
		}
		if d.hardOK && a.covered && a.coreTOK && coreSatisfiable(e.n, m, a.coreT, d.alpha, d.negBeta) {
			t.Fatalf("#%d: example %d: core %b of the cut at b=%d with ¬β is satisfiable", iter, i, a.coreT, a.b)
		}
	}
}

// coreSatisfiable reports whether the clauses of m's levels in core (bit j:
// level j), the hard rules, alpha and negBeta have a world.
func coreSatisfiable(n int, m *Hypothesis, core uint64, alpha, negBeta []logic.Lit) bool {
	s := sat.New()
	for range n {
		s.NewVar()
	}
	for _, c := range m.Hard {
		s.AddClause(c...)
	}
	for j, lv := range m.Levels {
		if j < 64 && core>>j&1 == 1 {
			for _, c := range lv {
				s.AddClause(c...)
			}
		}
	}
	ok, _ := s.Solve(context.Background(), append(slices.Clone(alpha), negBeta...)...)
	return ok
}

func examplesOf(e *store) *Examples {
	ex := &Examples{}
	for _, d := range e.ex {
		ex.List = append(ex.List, Example{Alpha: d.alpha, Beta: d.beta, Positive: d.sign > 0, Count: int(d.weight)})
	}
	return ex
}

// checkScoreAboveExcept checks scoreAbove with a position left out, as
// reinsert asks it (its clause's place): a candidate's profile, when not
// left out, is the full one, and it is never left out when a position from
// its least on but except reaches need.
func checkScoreAboveExcept(t *testing.T, iter int, e coverage, cands []logic.Clause, profiles [][]int64, r *rand.Rand) {
	t.Helper()
	h := e.hypothesis()
	for ci, c := range cands {
		from := e.minPosition(h, c)
		if from < 0 {
			continue
		}
		except := r.IntN(h.Positions())
		others := false // a position from from on other than except
		best := profiles[ci][except]
		for p := from; p < h.Positions(); p++ {
			if p != except {
				if !others || profiles[ci][p] > best {
					best = profiles[ci][p]
				}
				others = true
			}
		}
		for _, need := range []int64{best, best + 1, profiles[ci][except]} {
			got := e.scoreAbove(context.Background(), []logic.Clause{c}, []int{from}, need, except)[0]
			switch reach := others && best >= need; {
			case got != nil && !slices.Equal(got, profiles[ci]):
				t.Fatalf("#%d: %v, need %d, except %d: profile %v, full %v", iter, c, need, except, got, profiles[ci])
			case reach && got == nil:
				t.Fatalf("#%d: %v, need %d, except %d: left out, but a position reaches need (full %v)", iter, c, need, except, profiles[ci])
			}
		}
	}
}

// TestCoversInExampleOrder checks that Covers answers in the order of the
// examples it is given, although the engine numbers them by antecedent.
func TestCoversInExampleOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 16))
	for iter := range 100 {
		n := 3 + r.IntN(4)
		v := vocab(n)
		ex := randExamples(r, n, 30)
		m := randModel(r, n)
		rs := possReasoner(m.Theory(v))
		got := Covers(m, ex, 1+iter%2, possibilistic.Poss)
		for i, x := range ex.List {
			if want := rs.EntailsClause(x.Alpha, x.Beta); got[i] != want {
				t.Fatalf("#%d: example %d: Covers %v, reasoner %v", iter, i, got[i], want)
			}
		}
	}
}

// TestRestoreAfterTrial checks that restore returns every state and stored
// hypothesis of a trial removal, scored candidates and insertion (which store
// new worlds over old ones) to what they were at save.
func TestRestoreAfterTrial(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 16))
	for iter := range 200 {
		n := 3 + r.IntN(5)
		ex := randExamples(r, n, 40)
		m := randModel(r, n)
		if len(m.Levels) == 0 {
			continue
		}
		e := newEngine(n, ex, m.Hard, 1+iter%2, possibilistic.Poss).(*drowning)
		e.commit(m)
		st := slices.Clone(e.st)
		models := slices.Clone(e.worlds)
		snap := e.save()
		j := r.IntN(len(m.Levels))
		e.commitRemove(j, r.IntN(len(m.Levels[j])))
		var cands []logic.Clause
		for range 3 {
			cands = append(cands, randClause(r, n, 3))
		}
		e.scoreCandidates(context.Background(), cands)
		e.commitInsert(cands[0], r.IntN(e.hyp.Positions()))
		e.scoreCandidates(context.Background(), cands)
		e.restore(m, snap)
		if !slices.Equal(e.st, st) || !slices.Equal(e.worlds, models) {
			t.Fatalf("#%d: states or stored models differ after restore", iter)
		}
		checkStates(t, iter, e, m)
	}
}

// TestGroupByAlpha checks that examples whose antecedents are one set of
// literals, stored in any order or with a literal twice, form one group,
// in the order of their first example, whether the antecedent is stored
// sorted (read as it is) or not (sorted first).
func TestGroupByAlpha(t *testing.T) {
	a, b, c := logic.Pos(0), logic.Neg(1), logic.Pos(2)
	ex := []Example{
		{Alpha: logic.Term{a, b}},
		{Alpha: logic.Term{c}},
		{Alpha: logic.Term{b, a}},
		{Alpha: logic.Term{a, b, b}},
		{Alpha: logic.Term{a, b, c}},
		{Alpha: logic.Term{c, c}},
		{Alpha: nil},
	}
	got := groupByAlpha(ex)
	want := [][]int32{{0, 2, 3}, {1, 5}, {4}, {6}}
	if !slices.EqualFunc(got, want, slices.Equal[[]int32]) {
		t.Errorf("groups %v, want %v", got, want)
	}
}
