package defaults

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// The benchmark setting: n random defaults over 100 atoms, with
// antecedents of 1 to 4 literals and literal consequents on an atom the
// antecedent does not mention.
//
// Uniformly drawn, such bases are inconsistent: 10,000 materials over 100
// atoms are jointly unsatisfiable, so no default is tolerated and the
// Z-ordering stops at Δ1 (even 1,000 need about 65 of them dropped). The
// consistent bases of the benchmark are therefore planted: hidden worlds
// w0, …, w(L−1) are drawn, and a default of planted level j is a random
// default verified by wj whose antecedent w0, …, w(j−1) falsify. Then each
// planted level is tolerated by the planted levels from it up (wj verifies
// its members and violates none of theirs), so the base is consistent and
// its Z-ranks are at most the planted levels.

const benchAtoms = 100

func benchVocab() *logic.Vocabulary {
	v := &logic.Vocabulary{}
	for i := range benchAtoms {
		v.Intern(fmt.Sprintf("x%d", i))
	}
	return v
}

// randBenchDefault draws a default whose antecedent holds in w (all of it
// when w is nil, a random polarity per literal) and whose consequent is
// true in w.
func randBenchDefault(r *rand.Rand, w []bool) Default {
	k := 1 + r.IntN(4)
	perm := r.Perm(benchAtoms)[:k+1]
	lit := func(a int) logic.Lit {
		if w == nil {
			return logic.MkLit(logic.Atom(a), r.IntN(2) == 0)
		}
		return logic.MkLit(logic.Atom(a), !w[a])
	}
	t := make(logic.Term, k)
	for i := range t {
		t[i] = lit(perm[i])
	}
	return NewDefault(logic.TermF(t), logic.LitF(lit(perm[k])))
}

// plantedBase returns n consistent defaults and the planted level of each,
// over levels planted levels (level j drawn with probability ∝ 2^−j).
func plantedBase(n, levels int, seed uint64) (*Base, []int) {
	r := rand.New(rand.NewPCG(seed, 2016))
	worlds := make([][]bool, levels)
	for j := range worlds {
		worlds[j] = make([]bool, benchAtoms)
		for a := range worlds[j] {
			worlds[j][a] = r.IntN(2) == 0
		}
	}
	b := &Base{Vocab: benchVocab()}
	var planted []int
	for len(b.Defaults) < n {
		j := 0
		for j < levels-1 && r.IntN(2) == 0 {
			j++
		}
		d := randBenchDefault(r, worlds[j])
		ok := true
		for _, w := range worlds[:j] {
			ok = ok && !d.Antecedent.Eval(w)
		}
		if ok {
			b.Defaults = append(b.Defaults, d)
			planted = append(planted, j)
		}
	}
	return b, planted
}

// randomBase returns n uniformly drawn defaults (inconsistent at these sizes).
func randomBase(n int, seed uint64) *Base {
	r := rand.New(rand.NewPCG(seed, 1))
	b := &Base{Vocab: benchVocab()}
	for range n {
		b.Defaults = append(b.Defaults, randBenchDefault(r, nil))
	}
	return b
}

var benchBases sync.Map // n → *Base

func benchBase(n int) *Base {
	if b, ok := benchBases.Load(n); ok {
		return b.(*Base)
	}
	b, _ := plantedBase(n, 6, uint64(n))
	benchBases.Store(n, b)
	return b
}

func TestPlantedBase(t *testing.T) {
	b, planted := plantedBase(2000, 6, 1)
	o, err := ZOrdering(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range planted {
		if o.Rank(i) > j {
			t.Fatalf("default %d has Z-rank %d above its planted level %d", i, o.Rank(i), j)
		}
	}
	if len(o.Levels) < 3 || o.Calls > int64(len(o.Levels)*len(b.Defaults)) {
		t.Errorf("%d levels, %d solver calls for %d defaults", len(o.Levels), o.Calls, len(b.Defaults))
	}
	t.Logf("%d levels, %d solver calls", len(o.Levels), o.Calls)
}

// BenchmarkZOrdering computes the Z-ordering of 1,000 and 10,000 random
// consistent defaults over 100 atoms, compiling the solver included. It
// reports the number of levels and of solver calls, which the algorithm
// bounds by levels × defaults.
func BenchmarkZOrdering(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base := benchBase(n)
			var o *Ordering
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				var err error
				if o, err = ZOrdering(bgctx, base); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(o.Levels)), "levels")
			b.ReportMetric(float64(o.Calls), "calls")
			b.ReportMetric(float64(o.Calls)/float64(n), "calls/default")
		})
	}
}

// BenchmarkEntails measures one random query (antecedent of 1 to 4
// literals, literal consequent) under each semantics on a planted base of
// 500 defaults, the Reasoner built once. Lexicographic closure solves a
// MaxSAT problem per level; at 1,000 such dense defaults some queries have
// optima of 15 to 30 violated defaults and take seconds to minutes.
func BenchmarkEntails(b *testing.B) {
	base := benchBase(500)
	rs, err := NewReasoner(bgctx, base)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 9))
	qs := make([]Default, 256)
	for i := range qs {
		qs[i] = randBenchDefault(r, nil)
	}
	for _, s := range []Semantics{SystemP, Rational, Lexicographic} {
		b.Run(s.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				q := qs[i%len(qs)]
				entails(b, rs, s, q.Antecedent, q.Consequent)
			}
		})
	}
}

// BenchmarkZOrderingInconsistent runs the Z-ordering on uniformly random
// defaults, which are inconsistent: it stops at the first stuck remainder
// and minimises a conflict there.
func BenchmarkZOrderingInconsistent(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			base := randomBase(n, uint64(n))
			var ie *InconsistentError
			for i := 0; i < b.N; i++ {
				_, err := ZOrdering(bgctx, base)
				if !errors.As(err, &ie) {
					b.Fatalf("random base not inconsistent: %v", err)
				}
			}
			b.ReportMetric(float64(ie.Level), "stuck-level")
			b.ReportMetric(float64(len(ie.Conflict)), "conflict")
		})
	}
}
