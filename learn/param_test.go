package learn

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// orderedPartitions calls fn with every ordered partition of n items, as a
// level index per item (levels 0..m−1 all non-empty, lowest first).
func orderedPartitions(n int, fn func(level []int, m int)) {
	level := make([]int, n)
	// Assign levels as labels 0..m−1 where m grows; every labelling of n
	// items onto m non-empty labels is an ordered partition.
	var all func(i, m int)
	all = func(i, m int) {
		if i == n {
			fn(level, m)
			return
		}
		for l := range n {
			level[i] = l
			all(i+1, max(m, l+1))
		}
	}
	all(0, 0)
}

// theoryOf builds the possibilistic theory of a labelling (levels must be
// non-empty for it to be an ordered partition; empty labels are skipped).
func theoryOf(v *logic.Vocabulary, t []*logic.Formula, level []int, m int, hard []*logic.Formula) *possibilistic.Theory {
	th := possibilistic.New(v)
	for i, f := range t {
		th.Add(f, float64(level[i]+1)/float64(m+1))
	}
	for _, f := range hard {
		th.Add(f, 1)
	}
	return th
}

func separates(th *possibilistic.Theory, pos, neg []logic.Rule) bool {
	rs := possReasoner(th)
	for _, r := range pos {
		if !rs.Entails(r.Antecedent, r.Consequent) {
			return false
		}
	}
	for _, r := range neg {
		if rs.Entails(r.Antecedent, r.Consequent) {
			return false
		}
	}
	return true
}

func bruteSeparable(v *logic.Vocabulary, t []*logic.Formula, pos, neg []logic.Rule, hard []*logic.Formula) bool {
	found := false
	orderedPartitions(len(t), func(level []int, m int) {
		if !found && separates(theoryOf(v, t, level, m, hard), pos, neg) {
			found = true
		}
	})
	return found
}

func levelsTheory(v *logic.Vocabulary, levels [][]*logic.Formula, hard []*logic.Formula) *possibilistic.Theory {
	th := possibilistic.New(v)
	for j, l := range levels {
		for _, f := range l {
			th.Add(f, float64(j+1)/float64(len(levels)+1))
		}
	}
	for _, f := range hard {
		th.Add(f, 1)
	}
	return th
}

func randRule(r *rand.Rand, n int) logic.Rule {
	var alpha logic.Term
	for range r.IntN(3) {
		alpha = append(alpha, randLit(r, n))
	}
	return logic.Rule{Antecedent: logic.TermF(alpha), Consequent: logic.LitF(randLit(r, n))}
}

// TestSeparateAgainstBruteForce compares Stratify-Separable with the
// enumeration of every ordered partition on random small instances.
func TestSeparateAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	var yes, no int
	for iter := range 400 {
		n := 3 + r.IntN(2)
		v := vocab(n)
		var th []*logic.Formula
		for range 2 + r.IntN(3) {
			th = append(th, logic.ClauseF(randClause(r, n, 2)))
		}
		var hard []*logic.Formula
		if r.IntN(3) == 0 {
			hard = append(hard, logic.ClauseF(randClause(r, n, 2)))
		}
		var pos, neg []logic.Rule
		for range 1 + r.IntN(3) {
			pos = append(pos, randRule(r, n))
		}
		for range r.IntN(3) {
			neg = append(neg, randRule(r, n))
		}
		want := bruteSeparable(v, th, pos, neg, hard)
		levels, err := Separate(context.Background(), th, pos, neg, hard, nil)
		if want != (err == nil) {
			t.Fatalf("#%d: Separate says %v (%v), brute force %v", iter, err == nil, err, want)
		}
		if err != nil && !errors.Is(err, ErrNoSeparation) {
			t.Fatal(err)
		}
		if err == nil {
			yes++
			if !separates(levelsTheory(v, levels, hard), pos, neg) {
				t.Fatalf("#%d: returned stratification does not separate", iter)
			}
			count := 0
			for _, l := range levels {
				count += len(l)
			}
			if count != len(th) {
				t.Fatalf("#%d: stratification has %d formulas, theory %d", iter, count, len(th))
			}
		} else {
			no++
		}
	}
	if yes < 30 || no < 30 {
		t.Fatalf("unbalanced: %d separable, %d not", yes, no)
	}
}

// TestTheorem1Reduction: for ∃X∀Y Φ, T = X ∪ ¬X ∪ {Φ → aux} has a separating
// stratification for S+ = {|~ aux}, S− = ∅ iff the QBF is true.
func TestTheorem1Reduction(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 1))
	var trues, falses int
	for iter := range 150 {
		nx, ny := 1+r.IntN(2), 1+r.IntN(2)
		n := nx + ny
		v := vocab(n + 1)
		aux := logic.Atom(n)
		phi := randPhi(r, n, 3)
		var th []*logic.Formula
		for i := range nx {
			th = append(th, logic.AtomF(logic.Atom(i)), logic.Not(logic.AtomF(logic.Atom(i))))
		}
		th = append(th, logic.Implies(phi, logic.AtomF(aux)))
		pos := []logic.Rule{{Antecedent: logic.True(), Consequent: logic.AtomF(aux)}}
		want := qbf(phi, nx, ny)
		_, err := Separate(context.Background(), th, pos, nil, nil, nil)
		if (err == nil) != want {
			t.Fatalf("#%d: ∃X∀Y %s is %v, but Separate says %v (%v)", iter, phi.String(v), want, err == nil, err)
		}
		if want {
			trues++
		} else {
			falses++
		}
	}
	if trues < 20 || falses < 20 {
		t.Fatalf("unbalanced: %d true, %d false", trues, falses)
	}
}

func randPhi(r *rand.Rand, n, depth int) *logic.Formula {
	if depth == 0 || r.IntN(3) == 0 {
		return logic.LitF(randLit(r, n))
	}
	a, b := randPhi(r, n, depth-1), randPhi(r, n, depth-1)
	if r.IntN(2) == 0 {
		return logic.And(a, b)
	}
	return logic.Or(a, b)
}

// qbf evaluates ∃x1..x_nx ∀y1..y_ny Φ by brute force.
func qbf(phi *logic.Formula, nx, ny int) bool {
	w := make([]bool, nx+ny+1)
	exists := false
	logic.ForEachWorld(nx, func(x []bool) bool {
		copy(w, x)
		all := true
		logic.ForEachWorld(ny, func(y []bool) bool {
			copy(w[nx:], y)
			all = all && phi.Eval(w)
			return all
		})
		exists = exists || all
		return !exists
	})
	return exists
}

// TestLemma3Shattering: for n = 4 the four at-least defaults built from the
// inequalities of Lemma 1 are shattered by stratifications of {x1..x4}.
func TestLemma3Shattering(t *testing.T) {
	v := logic.NewVocabulary("x1", "x2", "x3", "x4")
	x := func(i int) *logic.Formula { return logic.AtomF(logic.Atom(i - 1)) }
	nx := func(i int) *logic.Formula { return logic.Not(x(i)) }
	// kth({y..},k) < kth({z..},k) becomes at-least_{l−k+1}(¬y..) |~ at-least_k(z..).
	d := []logic.Rule{
		{Antecedent: logic.AtLeast(1, nx(1)), Consequent: logic.AtLeast(1, x(2))},
		{Antecedent: logic.AtLeast(1, nx(3)), Consequent: logic.AtLeast(1, x(4))},
		{Antecedent: logic.AtLeast(2, nx(1), nx(2)), Consequent: logic.AtLeast(1, x(3), x(4))},
		{Antecedent: logic.AtLeast(1, nx(1), nx(2)), Consequent: logic.AtLeast(2, x(3), x(4))},
	}
	th := []*logic.Formula{x(1), x(2), x(3), x(4)}
	realised := map[int]bool{}
	orderedPartitions(4, func(level []int, m int) {
		rs := possReasoner(theoryOf(v, th, level, m, nil))
		mask := 0
		for i, r := range d {
			if rs.Entails(r.Antecedent, r.Consequent) {
				mask |= 1 << i
			}
		}
		realised[mask] = true
	})
	for mask := range 16 {
		if !realised[mask] {
			t.Errorf("subset %04b of the defaults is realised by no stratification", mask)
		}
		var pos, neg []logic.Rule
		for i, r := range d {
			if mask&(1<<i) != 0 {
				pos = append(pos, r)
			} else {
				neg = append(neg, r)
			}
		}
		if _, err := Separate(context.Background(), th, pos, neg, nil, nil); err != nil {
			t.Errorf("subset %04b: Separate: %v", mask, err)
		}
	}
}

func mustRules(t *testing.T, v *logic.Vocabulary, srcs ...string) []logic.Rule {
	var rs []logic.Rule
	for _, s := range srcs {
		r, err := logic.ParseRule(v, s)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

func mustClauses(t *testing.T, v *logic.Vocabulary, srcs ...string) []logic.Clause {
	var cs []logic.Clause
	for _, s := range srcs {
		c, err := logic.ParseClause(v, s)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func formulas(cs []logic.Clause) []*logic.Formula {
	fs := make([]*logic.Formula, len(cs))
	for i, c := range cs {
		fs[i] = logic.ClauseF(c)
	}
	return fs
}

// TestPaperExample2Parameters: no stratification of T separates S; the best
// misclassifies one example (T* of the paper), and the greedy stratifier
// finds such a stratification.
func TestPaperExample2Parameters(t *testing.T) {
	v := &logic.Vocabulary{}
	cs := mustClauses(t, v, "bird", "flies", "penguin", "!penguin | !flies")
	pos := mustRules(t, v, "penguin -> bird", "bird -> flies", "penguin -> !flies")
	neg := mustRules(t, v, " -> bird", "bird -> penguin")
	if _, err := Separate(context.Background(), formulas(cs), pos, neg, nil, nil); !errors.Is(err, ErrNoSeparation) {
		t.Fatalf("Separate: %v, want no separation", err)
	}
	ex := &Examples{}
	ex.AddRules(pos, true, v, "S+")
	ex.AddRules(neg, false, v, "S-")
	best := 0
	orderedPartitions(len(cs), func(level []int, m int) {
		th := theoryOf(v, formulas(cs), level, m, nil)
		mm, _ := FromTheory(th)
		c, _ := Score(mm, ex, 1, possibilistic.Poss)
		best = max(best, c)
	})
	if best != 4 {
		t.Fatalf("best stratification classifies %d of 5, the paper says 4", best)
	}
	m := StratifyGreedy(context.Background(), cs, ex, nil, 2, possibilistic.Poss)
	if c, total := Score(m, ex, 1, possibilistic.Poss); c != 4 || total != 5 {
		t.Fatalf("greedy stratification classifies %d of %d:\n%s", c, total, m.Theory(v))
	}
}

// TestPaperExample3: h is a separating stratification of T; the Z-ranking
// h_z of S+ covers the negative x ∧ y |~ a while h does not; Separate finds a
// separating stratification.
func TestPaperExample3(t *testing.T) {
	v := &logic.Vocabulary{}
	pos := mustRules(t, v, " -> !x", " -> !y", "x -> a", "y -> b")
	neg := mustRules(t, v, "x, y -> a")
	mk := func(src string) *possibilistic.Theory {
		th, err := possibilistic.ReadText(context.Background(), strings.NewReader(src), "h", v)
		if err != nil {
			t.Fatal(err)
		}
		return th
	}
	h := mk("0.25: !x\n0.5: !x | a\n0.75: !y\n1: !y | b")
	hz := mk("0.5: !x\n0.5: !y\n1: !x | a\n1: !y | b")
	if !separates(h, pos, neg) {
		t.Fatal("h is not a separating stratification")
	}
	if !possReasoner(hz).Entails(neg[0].Antecedent, neg[0].Consequent) {
		t.Fatal("h_z does not cover x ∧ y |~ a")
	}
	cs := mustClauses(t, v, "!x", "!y", "!x | a", "!y | b")
	levels, err := Separate(context.Background(), formulas(cs), pos, neg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !separates(levelsTheory(v, levels, nil), pos, neg) {
		t.Fatal("Separate's stratification does not separate")
	}
}

// TestGreedyNeverBeatsOptimum checks the greedy stratifier against the best
// ordered partition on random small instances: it cannot beat it, it must
// reach it on most instances, and its result is a local optimum (moving
// one clause to any other position where it is not implied does not score
// better), which its re-insertion passes promise.
func TestGreedyNeverBeatsOptimum(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 5))
	hits := 0
	for iter := range 150 {
		n := 4
		v := vocab(n)
		var cs []logic.Clause
		for range 2 + r.IntN(3) {
			cs = append(cs, randClause(r, n, 2))
		}
		ex := randExamples(r, n, 12)
		best := 0
		orderedPartitions(len(cs), func(level []int, m int) {
			mm, _ := FromTheory(theoryOf(v, formulas(cs), level, m, nil))
			c, _ := Score(mm, ex, 1, possibilistic.Poss)
			best = max(best, c)
		})
		g := StratifyGreedy(context.Background(), cs, ex, nil, 1, possibilistic.Poss)
		c, _ := Score(g, ex, 1, possibilistic.Poss)
		if c > best {
			t.Fatalf("#%d: greedy %d beats the optimum %d", iter, c, best)
		}
		if g.NumClauses() != len(cs) {
			t.Fatalf("#%d: greedy placed %d of %d clauses", iter, g.NumClauses(), len(cs))
		}
		if c == best {
			hits++
		}
		for j, l := range g.Levels {
			for i := range l {
				rest := g.Remove(j, i)
				// Below minPosition the clause would be implied, which is
				// deleting it: re-insertion moves clauses, it does not drop them.
				for p := max(minPosition(rest, l[i], &hardSubsumer{}), 0); p < rest.Positions(); p++ {
					if d, _ := Score(rest.Insert(l[i], p), ex, 1, possibilistic.Poss); d > c {
						t.Fatalf("#%d: moving clause %d of level %d to position %d scores %d > %d", iter, i, j, p, d, c)
					}
				}
			}
		}
	}
	if hits < 130 {
		t.Errorf("greedy reached the optimum on %d of 150 instances, want at least 130", hits)
	}
}

// TestReinsertNeverWorsens: a re-insertion pass moves a clause only to a
// position that beats leaving it where it is, also when the clause is
// implied where it sits (a clause of its level subsumes it), so the score
// never drops.
func TestReinsertNeverWorsens(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 7))
	for iter := range 300 {
		n := 4
		m := &Hypothesis{}
		for range 1 + r.IntN(3) {
			var level []logic.Clause
			for range 1 + r.IntN(3) {
				level = append(level, randClause(r, n, 2))
			}
			m.Levels = append(m.Levels, level)
		}
		ex := randExamples(r, n, 12)
		e := newEngine(8, ex, nil, 1, possibilistic.Poss).(*drowning)
		e.commit(m)
		reinsert(context.Background(), e)
		before, _ := Score(m, ex, 1, possibilistic.Poss)
		if after, _ := Score(e.hyp, ex, 1, possibilistic.Poss); after < before {
			t.Fatalf("#%d: re-insertion lowered the correct examples from %d to %d: %v -> %v", iter, before, after, m.Levels, e.hyp.Levels)
		}
	}
}
