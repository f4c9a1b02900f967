package defaults

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults/internal/lp"
	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// bruteMinimalSets returns, by enumeration of the worlds, the
// inclusion-minimal sets (positions in uniq, sorted) of the defaults
// uniq[p], p ∉ skip, falsified by a world satisfying f.
func (br *brute) bruteMinimalSets(uniq []int, skip int, f func(w []bool) bool) [][]int {
	var all [][]int
	for _, w := range br.worlds {
		if !f(w) {
			continue
		}
		var set []int
		for p, ri := range uniq {
			if p != skip && violates(br.ds[ri], w) {
				set = append(set, p)
			}
		}
		all = append(all, set)
	}
	var out [][]int
	for _, s := range all {
		strict := slices.ContainsFunc(all, func(o []int) bool { return len(o) < len(s) && isSubset(o, s) })
		if !strict && !slices.ContainsFunc(out, func(m []int) bool { return slices.Equal(m, s) }) {
			out = append(out, s)
		}
	}
	return out
}

// isSubset reports whether the sorted set a is a subset of the sorted set b.
func isSubset(a, b []int) bool {
	for _, x := range a {
		if _, ok := slices.BinarySearch(b, x); !ok {
			return false
		}
	}
	return true
}

// sameSets reports whether two lists of sets hold the same sets, in any
// order (each set sorted).
func sameSets(a, b [][]int) bool {
	key := func(ss [][]int) []string {
		var ks []string
		for _, s := range ss {
			s = slices.Sorted(slices.Values(s))
			ks = append(ks, fmt.Sprint(s))
		}
		slices.Sort(ks)
		return ks
	}
	return slices.Equal(key(a), key(b))
}

// productCInference decides skeptical c-inference with the constraint
// system written out as the product of the minimal sets (∃T ∈ V_i ∀S ∈ F_i:
// ηi + Σ_S η − Σ_T η ≥ 1, and for the query ∃S ∈ F_q ∀T ∈ V_q: Σ_T η −
// Σ_S η ≥ 0), the sets found by enumerating worlds: no minimum variables,
// no SAT solver, no c-representation at hand.
func (br *brute) productCInference(t *testing.T, uniq []int, alpha, beta *logic.Formula) bool {
	n := len(uniq)
	var fixed []lp.Row
	var groups []lp.Group
	add := func(g lp.Group) {
		if len(g) == 1 {
			fixed = append(fixed, g[0]...)
		} else {
			groups = append(groups, g)
		}
	}
	for k, ri := range uniq {
		d := br.ds[ri]
		fs := br.bruteMinimalSets(uniq, k, func(w []bool) bool { return violates(d, w) })
		if len(fs) == 0 {
			continue
		}
		vs := br.bruteMinimalSets(uniq, k, func(w []bool) bool { return verifies(d, w) })
		var g lp.Group
		for _, tset := range vs {
			var rows []lp.Row
			for _, s := range fs {
				row := lp.Row{A: make([]int64, n), B: 1}
				row.A[k]++
				addSet(row.A, s, 1)
				addSet(row.A, tset, -1)
				rows = append(rows, row)
			}
			g = append(g, rows)
		}
		add(g)
	}
	fq := br.bruteMinimalSets(uniq, -1, func(w []bool) bool { return alpha.Eval(w) && !beta.Eval(w) })
	if len(fq) == 0 {
		return true
	}
	vq := br.bruteMinimalSets(uniq, -1, func(w []bool) bool { return alpha.Eval(w) && beta.Eval(w) })
	var q lp.Group
	for _, s := range fq {
		var rows []lp.Row
		for _, tset := range vq {
			row := lp.Row{A: make([]int64, n)}
			addSet(row.A, tset, 1)
			addSet(row.A, s, -1)
			rows = append(rows, row)
		}
		q = append(q, rows)
	}
	groups = append(groups, q)
	_, ok, err := lp.Feasible(context.Background(), n, fixed, groups)
	if err != nil {
		t.Fatal(err)
	}
	return !ok
}

// denseBase draws a base of 6 to 14 defaults over 3 to 5 atoms, with
// antecedents of one or two literals and literal consequents, so that the
// defaults share atoms and have several minimal falsified sets each.
func denseBase(r *rand.Rand) *Base {
	n := 3 + r.IntN(3)
	b := &Base{Vocab: letters(n)}
	for range 6 + r.IntN(9) {
		t := make(logic.Term, 1+r.IntN(2))
		for i := range t {
			t[i] = logictest.Lit(r, n)
		}
		b.Defaults = append(b.Defaults, NewDefault(logic.TermF(t), logic.LitF(logictest.Lit(r, n))))
	}
	return b
}

// TestCRSystemAgainstProduct checks CR(Δ) with its minimum variables
// against the product form built from minimal sets found by enumerating
// worlds: the engine's minimal sets of every default are the enumerated
// ones, and c-inference (minimum variables, the layered and earlier
// c-representations, the SAT solver's sets) answers every query as the
// product system does, with the c-representations at hand and without, and
// from scratch (compiling what the query needs, the relaxations of
// entailedEarly), on 300 consistent bases of up to 14 defaults.
func TestCRSystemAgainstProduct(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 94))
	ctx := context.Background()
	want := 300
	if testing.Short() {
		want = 60
	}
	var consistent, queries, yes, proved, early, minima, decided int
	for bi := 0; consistent < want; bi++ {
		b := denseBase(r)
		br := newBrute(b)
		if _, _, ok := br.zRanks(); !ok {
			continue
		}
		consistent++
		rs := mustReasoner(t, b)
		c, err := rs.cSystem(ctx)
		if err != nil {
			t.Fatalf("base %d %v: %v", bi, rules(b), err)
		}
		for k, ri := range c.conds {
			d := b.Defaults[ri]
			fs := br.bruteMinimalSets(c.conds, k, func(w []bool) bool { return violates(d, w) })
			if !sameSets(c.sets[k].f, fs) {
				t.Fatalf("base %d %v: F of %s: %v, enumeration %v", bi, rules(b), rules(b)[ri], c.sets[k].f, fs)
			}
			if len(fs) == 0 {
				continue
			}
			vs := br.bruteMinimalSets(c.conds, k, func(w []bool) bool { return verifies(d, w) })
			if !sameSets(c.sets[k].v, vs) {
				t.Fatalf("base %d %v: V of %s: %v, enumeration %v", bi, rules(b), rules(b)[ri], c.sets[k].v, vs)
			}
			if len(fs) > 1 && len(vs) > 1 {
				minima++
			}
		}
		for range 8 {
			queries++
			alpha, beta := randQuery(r, b)
			w := br.productCInference(t, c.conds, alpha, beta)
			if got := entails(t, rs, CInference, alpha, beta); got != w {
				t.Fatalf("base %d %v: %s |~ %s under c: got %v, product system %v", bi, rules(b),
					alpha.String(b.Vocab), beta.String(b.Vocab), got, w)
			}
			// Once more with no c-representation at hand, so that the
			// linear programs decide every query System P does not.
			reps := c.reps
			c.reps = nil
			got := entails(t, rs, CInference, alpha, beta)
			if len(c.reps) > 0 {
				decided++
			}
			c.reps = reps
			if got != w {
				t.Fatalf("base %d %v: %s |~ %s under c without c-representations at hand: got %v, product system %v", bi, rules(b),
					alpha.String(b.Vocab), beta.String(b.Vocab), got, w)
			}
			// And on a reasoner that has compiled nothing yet, so that
			// the query compiles what it needs and tries the relaxations.
			fresh := mustReasoner(t, b)
			fresh.cState().reps = nil
			if got := entails(t, fresh, CInference, alpha, beta); got != w {
				t.Fatalf("base %d %v: %s |~ %s under c from scratch: got %v, product system %v", bi, rules(b),
					alpha.String(b.Vocab), beta.String(b.Vocab), got, w)
			}
			if w && !fresh.c.built && fresh.c.compiled > 0 {
				early++ // proved by a relaxation
			}
			if got {
				yes++
				if !entails(t, rs, SystemP, alpha, beta) {
					proved++ // by the linear programs' infeasibility
				}
			}
		}
	}
	t.Logf("%d bases, %d defaults with minimum variables, %d queries, %d entailed (%d beyond System P, %d by a part of CR(Δ)), %d rejected by the linear programs",
		consistent, minima, queries, yes, proved, early, decided)
	if minima < want/2 || yes < queries/10 || yes > queries*9/10 || proved < queries/50 || early < queries/100 || decided < queries/4 {
		t.Errorf("the bases do not exercise the minimum variables or the linear programs: %d defaults with minima, %d of %d entailed (%d beyond P), %d rejected by the programs",
			minima, yes, queries, proved, decided)
	}
}

// TestCRSystemResumes checks that compiling CR(Δ) under a budget counted in
// solver calls, cut short again and again, ends with the sets of an
// uninterrupted compilation, each cut returning an error that wraps the
// context's and says how far it came; and that a query whose context is
// already done says what it had done, after which the reasoner answers as
// before.
func TestCRSystemResumes(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 52))
	ctx := context.Background()
	for bases := 0; bases < 20; {
		b := denseBase(r)
		if _, _, ok := newBrute(b).zRanks(); !ok {
			continue
		}
		bases++
		whole := mustReasoner(t, b)
		if err := whole.Prepare(ctx, CInference); err != nil {
			t.Fatal(err)
		}
		cut := mustReasoner(t, b)
		budget := len(cut.distinct()) + 3 // enough for one minimal set or the end of an enumeration
		var cuts int
		var progress []int
		cut.SetProgress(func(stage string, done, total int) {
			if stage != stageCR || total != len(cut.distinct()) {
				t.Errorf("progress %q %d of %d", stage, done, total)
			}
			progress = append(progress, done)
		})
		for {
			bctx, cancel := context.WithCancel(ctx)
			calls := 0
			cut.e.onSolve = func() {
				if calls++; calls == budget {
					cancel()
				}
			}
			err := cut.Prepare(bctx, CInference)
			cancel()
			if err == nil {
				break
			}
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), fmt.Sprintf("of %d defaults found", len(cut.distinct()))) {
				t.Fatalf("base %v: a cut compilation: %v", rules(b), err)
			}
			if cuts++; cuts > 10000 {
				t.Fatalf("base %v: no end after %d cuts", rules(b), cuts)
			}
		}
		cut.e.onSolve = nil
		if cuts == 0 {
			t.Errorf("base %v: the budget of %d calls never cut the compilation", rules(b), budget)
		}
		if !slices.Equal(progress, seq(1, len(cut.distinct()))) {
			t.Errorf("base %v: progress %v", rules(b), progress)
		}
		for k := range whole.c.sets {
			w, c := whole.c.sets[k], cut.c.sets[k]
			if !sameSets(w.f, c.f) || !sameSets(w.v, c.v) {
				t.Fatalf("base %v: default %d: cut %d times F %v V %v, whole F %v V %v", rules(b), k, cuts, c.f, c.v, w.f, w.v)
			}
		}
		done, cancel := context.WithCancel(ctx)
		cancel()
		for range 4 {
			alpha, beta := randQuery(r, b)
			if _, err := cut.Entails(done, CInference, alpha, beta); !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "c-inference stopped") && err != context.Canceled {
				t.Fatalf("a query with a done context: %v", err)
			}
			got := entails(t, cut, CInference, alpha, beta)
			if want := entails(t, whole, CInference, alpha, beta); got != want {
				t.Fatalf("base %v: %s |~ %s: %v after cut compilations, %v without", rules(b), alpha.String(b.Vocab), beta.String(b.Vocab), got, want)
			}
		}
	}
}

// seq returns lo, lo+1, …, hi.
func seq(lo, hi int) []int {
	var out []int
	for i := lo; i <= hi; i++ {
		out = append(out, i)
	}
	return out
}
