package learn

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// The brute-force oracle: decide linear and lex entailment by enumerating
// the worlds over n atoms, with the definitions and nothing else.

func worldHolds(c logic.Clause, w []bool) bool {
	for _, l := range c {
		if l.Holds(w) {
			return true
		}
	}
	return false
}

func worlds(n int) [][]bool {
	var out [][]bool
	for x := range 1 << n {
		w := make([]bool, n)
		for a := range n {
			w[a] = x>>a&1 == 1
		}
		out = append(out, w)
	}
	return out
}

// bruteCovered decides α |~ β under m and sem over the worlds ws (false
// when α is inconsistent with the hard rules, as the engines do).
func bruteCovered(m *Hypothesis, sem possibilistic.Semantics, alpha logic.Term, beta logic.Clause, ws [][]bool) bool {
	var base [][]bool // worlds of H ∪ α
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
	sat := func(w []bool, cs []logic.Clause) bool {
		for _, c := range cs {
			if !worldHolds(c, w) {
				return false
			}
		}
		return true
	}
	var chosen [][]bool
	switch sem {
	case possibilistic.Linear:
		var kept []logic.Clause
		for j := len(m.Levels) - 1; j >= 0; j-- {
			try := append(slices.Clone(kept), m.Levels[j]...)
			for _, w := range base {
				if sat(w, try) {
					kept = try
					break
				}
			}
		}
		for _, w := range base {
			if sat(w, kept) {
				chosen = append(chosen, w)
			}
		}
	case possibilistic.Lex:
		vec := func(w []bool) []int {
			var v []int
			for j := len(m.Levels) - 1; j >= 0; j-- {
				n := 0
				for _, c := range m.Levels[j] {
					if !worldHolds(c, w) {
						n++
					}
				}
				v = append(v, n)
			}
			return v
		}
		var best []int
		for k, w := range base {
			v := vec(w)
			switch c := slices.Compare(v, best); {
			case k == 0 || c < 0:
				best, chosen = v, [][]bool{w}
			case c == 0:
				chosen = append(chosen, w)
			}
		}
	}
	for _, w := range chosen {
		if !worldHolds(beta, w) {
			return false
		}
	}
	return true
}

func bruteScore(m *Hypothesis, sem possibilistic.Semantics, ex *Examples, ws [][]bool) int64 {
	var s int64
	for _, e := range ex.List {
		if bruteCovered(m, sem, e.Alpha, e.Beta, ws) {
			if e.Positive {
				s += int64(e.Count)
			} else {
				s -= int64(e.Count)
			}
		}
	}
	return s
}

// TestDrowningFreeMatchesBruteForce checks the linear and lex engines
// against enumerating worlds: the score of every committed hypothesis, the
// profile of candidate clauses at every position, trial removals, and the
// state after committing insertions and removals.
func TestDrowningFreeMatchesBruteForce(t *testing.T) {
	// Linear draws more problems: a level that propagation does not
	// refute but the solver does is rare in small ones, and its clauses
	// must stay out of what the walk's propagation knows (#1272 of them
	// tells).
	checkAgainstBruteForce(t, possibilistic.Linear, rand.New(rand.NewPCG(uint64(possibilistic.Linear), 11)), 1500, anyProblem)
	checkAgainstBruteForce(t, possibilistic.Lex, rand.New(rand.NewPCG(uint64(possibilistic.Lex), 11)), 150, anyProblem)
}

// problemDraw draws n atoms, examples and a hypothesis for
// checkAgainstBruteForce, and a candidate clause of at most maxLen literals.
type problemDraw func(r *rand.Rand) (n int, ex *Examples, m *Hypothesis, clause func(maxLen int) logic.Clause)

// anyProblem draws random clauses over few atoms.
func anyProblem(r *rand.Rand) (int, *Examples, *Hypothesis, func(int) logic.Clause) {
	n := 3 + r.IntN(4)
	return n, randExamples(r, n, 30), randModel(r, n), func(maxLen int) logic.Clause { return randClause(r, n, maxLen) }
}

// checkAgainstBruteForce runs the checks of TestDrowningFreeMatchesBruteForce
// on iters problems drawn by draw.
func checkAgainstBruteForce(t *testing.T, sem possibilistic.Semantics, r *rand.Rand, iters int, draw problemDraw) {
	t.Helper()
	{
		for iter := range iters {
			n, ex, m, randC := draw(r)
			ws := worlds(n)
			v := vocab(n)
			e := newEngine(n, ex, m.Hard, 1+iter%3, sem).(*drowningFree)
			if iter%2 == 1 {
				e.semx.poolCap = 1 + iter%4 // full pools, worlds replaced
			}
			e.commit(m)
			base := e.score()
			if want := bruteScore(m, sem, ex, ws); base != want {
				t.Fatalf("%v #%d: engine score %d, brute force %d\n%s", sem, iter, base, want, m.Theory(v))
			}
			var cands []logic.Clause
			for range 8 {
				cands = append(cands, randC(3))
			}
			profiles := e.scoreCandidates(context.Background(), cands)
			for ci, c := range cands {
				for p := range m.Positions() {
					want := bruteScore(m.Insert(c, p), sem, ex, ws) - base
					if got := profiles[ci][p]; got != want {
						t.Fatalf("%v #%d: inserting %s at position %d: profile %d, brute force %d\n%s",
							sem, iter, c.String(v), p, got, want, m.Theory(v))
					}
				}
			}
			checkScoreAboveExcept(t, iter, e, cands, profiles, r)
			if s := e.score(); s != base {
				t.Fatalf("%v #%d: score moved from %d to %d while scoring candidates", sem, iter, base, s)
			}
			for j, l := range m.Levels {
				for i := range l {
					got := e.scoreRemoval(j, i)
					want := bruteScore(m.Remove(j, i), sem, ex, ws) - base
					if got != want {
						t.Fatalf("%v #%d: removing clause %d of level %d: trial %d, brute force %d", sem, iter, i, j, got, want)
					}
					checkTrialCores(t, e, e.semx.pend[pendKey{m, j, i}], ws)
					if h := e.removalHarmless(j, i); h != (want >= 0) {
						t.Fatalf("%v #%d: removing clause %d of level %d: harmless %v, brute force %d", sem, iter, i, j, h, want)
					}
				}
			}
			if len(m.Levels) > 0 && r.IntN(2) == 0 {
				// Re-insertion's path: commit one of the trial removals
				// (not necessarily the last one scored), then return.
				j := r.IntN(len(m.Levels))
				i := r.IntN(len(m.Levels[j]))
				snap := e.save()
				e.commitRemove(j, i)
				if got, want := e.score(), bruteScore(m.Remove(j, i), sem, ex, ws); got != want {
					t.Fatalf("%v #%d: after a trial removal's commit: score %d, brute force %d", sem, iter, got, want)
				}
				e.restore(m, snap)
			}
			e.recompile()
			// Commits through the learner's paths, then scoring again
			// from the new state.
			for _, c := range cands {
				p := r.IntN(e.hyp.Positions())
				after := e.hyp.Insert(c, p)
				e.commitInsert(c, p)
				if got, want := e.score(), bruteScore(after, sem, ex, ws); got != want {
					t.Fatalf("%v #%d: after inserting: score %d, brute force %d", sem, iter, got, want)
				}
				j := r.IntN(len(e.hyp.Levels))
				i := r.IntN(len(e.hyp.Levels[j]))
				after = e.hyp.Remove(j, i)
				if r.IntN(2) == 0 {
					// The learner's prune: a trial removal, then its
					// commit, which takes the trial's decisions.
					if got, want := e.scoreRemoval(j, i), bruteScore(after, sem, ex, ws)-e.score(); got != want {
						t.Fatalf("%v #%d: trial removal %d, brute force %d", sem, iter, got, want)
					}
				}
				e.commitRemove(j, i)
				if got, want := e.score(), bruteScore(after, sem, ex, ws); got != want {
					t.Fatalf("%v #%d: after removing: score %d, brute force %d", sem, iter, got, want)
				}
			}
			c := randC(2)
			prof := e.scoreCandidates(context.Background(), []logic.Clause{c})
			now := e.score()
			for p := range e.hyp.Positions() {
				if want := bruteScore(e.hyp.Insert(c, p), sem, ex, ws) - now; prof[0][p] != want {
					t.Fatalf("%v #%d: after commits, inserting %s at %d: profile %d, brute force %d", sem, iter, c.String(v), p, prof[0][p], want)
				}
			}
		}
	}
}

// TestSemanticsOnePerLevel checks that linear and lex give the same scores
// when every level holds one clause (the semantics then coincide).
func TestSemanticsOnePerLevel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for iter := range 100 {
		n := 3 + r.IntN(4)
		ex := randExamples(r, n, 30)
		m := &Hypothesis{}
		for range r.IntN(6) {
			m.Levels = append(m.Levels, []logic.Clause{randClause(r, n, 3)})
		}
		var got [2]int64
		for k, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
			e := newEngine(n, ex, nil, 1, sem)
			e.commit(m)
			got[k] = e.score()
		}
		if got[0] != got[1] {
			t.Fatalf("#%d: linear %d, lex %d on one clause per level", iter, got[0], got[1])
		}
	}
}

// checkTrialCores checks by enumerating worlds that every entailment proof
// a trial removal kept (its levels, in the changed hypothesis) is one: with the
// decisions of those levels alone, α and the hard rules entail β.
func checkTrialCores(t *testing.T, e *drowningFree, pr *pendingRemoval, ws [][]bool) {
	t.Helper()
	for gi, g := range e.groups {
		for _, x := range g {
			if !pr.coreOK[x] || !pr.covered[x] {
				continue
			}
			d := &e.ex[x]
			for _, w := range ws {
				ok := !worldHolds(d.beta, w)
				for _, l := range d.alpha {
					ok = ok && l.Holds(w)
				}
				for _, c := range pr.to.Hard {
					ok = ok && worldHolds(c, w)
				}
				for l, cls := range pr.to.Levels {
					if !ok || pr.core[x]>>l&1 == 0 {
						continue
					}
					n := 0
					for _, c := range cls {
						if !worldHolds(c, w) {
							n++
						}
					}
					switch e.sem {
					case possibilistic.Lex:
						ok = n <= int(pr.dec[gi][l])
					default:
						ok = n == 0 && pr.dec[gi][l] == 1
					}
				}
				if ok {
					t.Fatalf("%v: removing clause %d of level %d: example %d's proof, levels %b, has a counter-world %v", e.sem, pr.i, pr.j, x, pr.core[x], w)
				}
			}
		}
	}
}
