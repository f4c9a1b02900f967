package learn

import (
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// scoreExampleSem adds to w.delta the change of example i's contribution
// when c (activated by act) is inserted at each position; see the invariant
// above.
func (w *worker) scoreExampleSem(i int, c logic.Clause, act logic.Lit) {
	e := w.e
	st := &e.st[i]
	d := &e.ex[i]
	if !d.hardOK {
		return
	}
	k := len(e.model.Levels)
	add := func(p int, ans bool) {
		if ans != st.covered {
			if ans {
				w.delta[p] += d.sign * d.weight
			} else {
				w.delta[p] -= d.sign * d.weight
			}
		}
	}
	skipped := func(p int) bool {
		return e.sem == possibilistic.Linear && p%2 == 1 && e.dec[i][p/2] == 0
	}
	// Is some witness consistent with c?
	cons, counter := false, false
	for s := range int(st.n) {
		if st.lv[s] == 0 && holds(c, e.slot(i, s)) {
			cons = true
			counter = counter || st.bf[s]
		}
	}
	// A model found below satisfies the decision's assumptions, so it is a
	// witness too, and it satisfies c.
	a := w.current(i)
	n := len(a)
	ans := st.covered
	w.extra = append(append(w.extra[:0], act), d.negBeta...)
	found := false
	switch {
	case cons && !ans && !counter:
		found = w.try(a[:n], w.extra...)
		ans = !found
	case cons:
	case !ans && w.try(a[:n], w.extra...):
		// One call settles the common case: a witness of c and ¬β.
		cons, found = true, true
	default:
		// Covered, or no witness of c and ¬β: a witness of c keeps the
		// answer (a covered example stays covered; an uncovered one with
		// no model of c and ¬β becomes covered).
		cons = w.try(a[:n], act)
		found, ans = cons, ans || cons
	}
	if found {
		w.keep(i, 0)
	}
	if cons {
		if ans != st.covered {
			for p := range 2*k + 1 {
				if !skipped(p) {
					add(p, ans)
				}
			}
		}
		return
	}
	w.slowSem(i, c, act, add, skipped)
}

// slowSem scores c for example i when no witness satisfies c. Let Q(j)
// say that some model of α and of the decisions of the levels ≥ j
// satisfies c (Q(0) is false here; Q(j) implies Q(j+1)), and g the least j
// with Q(j) (k+1 if none). Then
//   - a new level at 2j with j < g is skipped (linear) or violated by every
//     model still optimal (lex): nothing changes;
//   - at 2j and 2j+1 with j ≥ g the levels from g up decide as before with
//     c added (linear: a kept level l ≥ g stays consistent by Q(l), a
//     skipped one stays inconsistent; lex: the models of A_g ∩ c are
//     optimal on the levels from g up, A_j being those optimal on the
//     levels from j up), so every such position has the answer of one walk
//     down from g;
//   - at 2j+1 with j < g, linear skips level j and walks down from it
//     without it; lex compares S, the models of A_{j+1} ∩ c with j's count
//     one above optimal, against the old optimum, level by level below j.
//     S is empty, and nothing changes, unless Q(j+1), that is j = g−1;
//     then S is what the walk from g keeps after level g−1 if its least
//     count there is one above optimal (else S is empty), and the walk's
//     counts below say whether S wins, loses or ties (lexInto).
func (w *worker) slowSem(i int, c logic.Clause, act logic.Lit, add func(int, bool), skipped func(int) bool) {
	e := w.e
	st := &e.st[i]
	k := len(e.model.Levels)
	lo, hi := 1, k+1
	var gm []uint64
	for s := range int(st.n) {
		if m := e.slot(i, s); holds(c, m) {
			if j := w.memberFrom(i, m); j < hi {
				hi, gm = j, slices.Clone(m)
			}
		}
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if w.try(w.prefix(i, mid), act) {
			hi, gm = mid, slices.Clone(w.m)
			w.keep(i, 1)
		} else {
			lo = mid + 1
		}
	}
	g := hi
	ansW, into := st.covered, st.covered // into: lex at 2(g−1)+1
	if g <= k {
		a := append(slices.Clone(w.prefix(i, g)), act)
		if e.sem == possibilistic.Lex {
			u := make([]int32, g)
			ansW = w.lexBelow(i, e.model.Levels, a, gm, g, u)
			into = lexInto(e.dec[i], u, g-1, st.covered, ansW)
		} else {
			copy(w.m, gm)
			ansW = w.linBelow(i, e.model.Levels, a, g, true, nil)
		}
	}
	for p := range 2*k + 1 {
		j := p / 2
		switch {
		case skipped(p):
		case j >= g:
			add(p, ansW)
		case p%2 == 1 && e.sem == possibilistic.Lex:
			if j == g-1 { // below, A_{j+1} ∩ c is empty: nothing changes
				add(p, into)
			}
		case p%2 == 1:
			a := slices.Clone(w.prefix(i, j+1))
			add(p, w.linBelow(i, e.model.Levels, a, j, w.startModel(i, true), nil))
		}
	}
}

// prefix returns α and the decisions of the levels ≥ j, built in w.assume.
func (w *worker) prefix(i, j int) []logic.Lit {
	e := w.e
	a := append(w.assume[:0], e.ex[i].alpha...)
	for l := len(e.model.Levels) - 1; l >= j; l-- {
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, l, int(e.dec[i][l]))
		} else if e.dec[i][l] == 1 {
			a = append(a, w.sel[l])
		}
	}
	w.assume = a
	return a
}

// memberFrom returns the least j such that m (a model of H ∪ α) satisfies
// the decisions of every level ≥ j.
func (w *worker) memberFrom(i int, m []uint64) int {
	e := w.e
	j := len(e.model.Levels)
	for ; j > 0; j-- {
		l := e.model.Levels[j-1]
		if e.sem == possibilistic.Lex {
			if violated(l, m) > int(e.dec[i][j-1]) {
				break
			}
		} else if e.dec[i][j-1] == 1 && !satisfiesAll(l, m) {
			break
		}
	}
	return j
}

// lexInto answers for c inserted into level j = g−1 under lex, given the
// old optimal counts v, the counts u of the walk over A_g ∩ c below g, and
// the answers before (covered) and of that walk (ansW).
func lexInto(v, u []int32, j int, covered, ansW bool) bool {
	if u[j] != v[j]+1 {
		return covered // S is empty
	}
	for l := j - 1; l >= 0; l-- {
		switch {
		case u[l] < v[l]:
			return ansW // S wins
		case u[l] > v[l]:
			return covered // S loses
		}
	}
	return covered && ansW // a tie: both optima stay
}

// current returns the assumptions that define the current decision of
// example i: α and the kept levels (linear) or the optimal counts (lex).
func (w *worker) current(i int) []logic.Lit {
	e := w.e
	a := append(w.assume[:0], e.ex[i].alpha...)
	for j := range e.model.Levels {
		if e.sem == possibilistic.Lex {
			a = w.atMost(a, j, int(e.dec[i][j]))
		} else if e.dec[i][j] == 1 {
			a = append(a, w.sel[j])
		}
	}
	w.assume = a
	return a
}

// scoreRemovalSem re-decides every example under the current model without
// clause i of level j.
func (e *engine) scoreRemovalSem(j, i int) int64 {
	m := e.model.Remove(j, i)
	same := sameTop(e.model, m)
	parts := make([]int64, len(e.workers))
	e.parallel(func(w *worker) {
		w.compile(m)
		var delta int64
		for x := w.id; x < len(e.ex); x += len(e.workers) {
			d := &e.ex[x]
			if !d.hardOK {
				continue
			}
			if now := w.decideSem(x, m, same, nil); now != e.st[x].covered {
				if now {
					delta += d.sign * d.weight
				} else {
					delta -= d.sign * d.weight
				}
			}
		}
		parts[w.id] = delta
	})
	var s int64
	for _, p := range parts {
		s += p
	}
	return s
}
