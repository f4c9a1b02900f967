package defaults

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/strata-logic/strata/logic"
)

// BenchmarkEntailsWC measures one query under rational closure, System W
// and c-inference on planted bases of 20 to 200 defaults over 100 atoms
// (the generator of bench_test.go), the Reasoner built and prepared once.
// Half the queries take the antecedent of a default of the base, with an
// extra literal half the time, and the consequent of another: the queries
// on which the semantics differ; the rest are random.
func BenchmarkEntailsWC(b *testing.B) {
	for _, n := range []int{20, 50, 100, 200} {
		base, _ := plantedBase(n, 4, uint64(n))
		rs, err := NewReasoner(bgctx, base)
		if err != nil {
			b.Fatal(err)
		}
		qs := benchQueries(base, 64, benchAtoms, uint64(n))
		for _, s := range []Semantics{Rational, SystemW, CInference} {
			b.Run(fmt.Sprintf("%d/%v", n, s), func(b *testing.B) {
				if err := rs.Prepare(context.Background(), s); err != nil {
					b.Fatal(err)
				}
				yes := 0
				for i := 0; i < b.N; i++ {
					q := qs[i%len(qs)]
					if entails(b, rs, s, q.Antecedent, q.Consequent) {
						yes++
					}
				}
				b.ReportMetric(float64(yes)/float64(b.N), "yes/op")
			})
		}
	}
}

// BenchmarkPrepareC measures building CR(Δ) and a minimal c-representation.
func BenchmarkPrepareC(b *testing.B) {
	for _, n := range []int{20, 50, 100, 200} {
		base, _ := plantedBase(n, 4, uint64(n))
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rs, err := NewReasoner(bgctx, base)
				if err != nil {
					b.Fatal(err)
				}
				if err := rs.Prepare(context.Background(), CInference); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchQueries draws k queries: a third random, a third the antecedent of
// a default with an extra literal and its own consequent (irrelevance,
// inheritance), a third the antecedents of two defaults together with the
// consequent of one (specificity and conflicts).
func benchQueries(base *Base, k, atoms int, seed uint64) []Default {
	r := rand.New(rand.NewPCG(seed, 15))
	qs := make([]Default, k)
	lit := func() *logic.Formula {
		return logic.LitF(logic.MkLit(logic.Atom(r.IntN(atoms)), r.IntN(2) == 0))
	}
	for i := range qs {
		d := base.Defaults[r.IntN(len(base.Defaults))]
		d2 := base.Defaults[r.IntN(len(base.Defaults))]
		switch i % 3 {
		case 0:
			qs[i] = NewDefault(logic.And(lit(), lit()), lit())
		case 1:
			qs[i] = NewDefault(logic.And(d.Antecedent, lit()), d.Consequent)
		default:
			qs[i] = NewDefault(logic.And(d.Antecedent, d2.Antecedent), d2.Consequent)
		}
	}
	return qs
}

// densePlanted returns n consistent planted defaults over few atoms (as in
// plantedBase, with antecedents of 1 or 2 literals), so that the defaults
// interact: the bases on which W and c have work to do.
func densePlanted(n, atoms, levels int, seed uint64) *Base {
	r := rand.New(rand.NewPCG(seed, 2022))
	v := &logic.Vocabulary{}
	for i := range atoms {
		v.Intern(fmt.Sprintf("x%d", i))
	}
	worlds := make([][]bool, levels)
	for j := range worlds {
		worlds[j] = make([]bool, atoms)
		for a := range worlds[j] {
			worlds[j][a] = r.IntN(2) == 0
		}
	}
	b := &Base{Vocab: v}
	for len(b.Defaults) < n {
		j := 0
		for j < levels-1 && r.IntN(2) == 0 {
			j++
		}
		w := worlds[j]
		perm := r.Perm(atoms)[:3]
		k := 1 + r.IntN(2)
		t := make(logic.Term, k)
		for i := range t {
			t[i] = logic.MkLit(logic.Atom(perm[i]), !w[perm[i]])
		}
		d := NewDefault(logic.TermF(t), logic.LitF(logic.MkLit(logic.Atom(perm[k]), !w[perm[k]])))
		ok := true
		for _, w := range worlds[:j] {
			ok = ok && !d.Antecedent.Eval(w)
		}
		if ok {
			b.Defaults = append(b.Defaults, d)
		}
	}
	return b
}

// BenchmarkEntailsWCDense is BenchmarkEntailsWC on densePlanted bases of
// 20 and 50 defaults over 20 atoms, where defaults interact closely (at
// 100 and more, building CR(Δ) alone takes minutes: the minimal falsified
// sets of the defaults multiply). Each
// query has a budget of one second (Entails's context); the queries that
// overrun it are counted (timeouts/op) and their time is included.
func BenchmarkEntailsWCDense(b *testing.B) {
	for _, n := range []int{20, 50} {
		base := densePlanted(n, 20, 4, uint64(n))
		rs, err := NewReasoner(bgctx, base)
		if err != nil {
			b.Fatal(err)
		}
		qs := benchQueries(base, 64, 20, uint64(n))
		for _, s := range []Semantics{Rational, SystemW, CInference} {
			b.Run(fmt.Sprintf("%d/%v", n, s), func(b *testing.B) {
				if err := rs.Prepare(context.Background(), s); err != nil {
					b.Fatal(err)
				}
				yes, timeouts := 0, 0
				for i := 0; i < b.N; i++ {
					q := qs[i%len(qs)]
					ctx, cancel := context.WithTimeout(context.Background(), time.Second)
					ok, err := rs.Entails(ctx, s, q.Antecedent, q.Consequent)
					cancel()
					switch {
					case err != nil:
						timeouts++
					case ok:
						yes++
					}
				}
				b.ReportMetric(float64(yes)/float64(b.N), "yes/op")
				b.ReportMetric(float64(timeouts)/float64(b.N), "timeouts/op")
			})
		}
	}
}
