package learn

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/strata-logic/strata/internal/benchgen"
	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// scaleExamples draws total defaults over distinct antecedents from the
// hidden theory of benchgen.ScaleTheory and labels each distinct default
// once by possibilistic entailment.
func scaleExamples(distinct, total int) (*logic.Vocabulary, *Examples) {
	v := logic.NewVocabulary()
	for i := range benchgen.ScaleAtoms {
		v.Intern(fmt.Sprintf("a%d", i+1))
	}
	r := rand.New(rand.NewPCG(16, 3))
	th := possibilistic.New(v)
	for _, c := range benchgen.ScaleTheory(r) {
		th.AddClause(c.Clause, c.Weight)
	}
	rs := possReasoner(th)
	labels := make([][4]int8, distinct) // 0 unknown, 1 positive, -1 negative
	ex := &Examples{}
	benchgen.Scale(r, distinct, total, func(d benchgen.Draw) {
		lab := &labels[d.Antecedent][d.Conclusion]
		if *lab == 0 {
			*lab = -1
			if rs.EntailsClause(d.Alpha, logic.Clause{d.Beta}) {
				*lab = 1
			}
		}
		ex.Add(d.Alpha, logic.Clause{d.Beta}, *lab > 0, 1)
	})
	return v, ex
}

var (
	millionOnce sync.Once
	millionV    *logic.Vocabulary
	millionEx   *Examples
	millionHeap uint64
)

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkLearnMillion learns 20 iterations from 1,000,000 synthetic
// examples over 100,000 distinct antecedents (the learner at scale);
// one op is the whole 20-iteration run. MB-examples is the heap the example
// set takes, which grows with the distinct examples, not with their
// multiplicity.
func BenchmarkLearnMillion(b *testing.B) {
	millionOnce.Do(func() {
		before := heapInUse()
		millionV, millionEx = scaleExamples(100_000, 1_000_000)
		millionHeap = heapInUse() - before
	})
	if millionEx.Total() != 1_000_000 {
		b.Fatalf("%d examples", millionEx.Total())
	}
	cpu := cputime.Process()
	for b.Loop() {
		l, err := NewLearner(Problem{Vocab: millionV, Train: millionEx}, Config{Iterations: 20, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := l.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		if len(l.History()) != 20 {
			b.Fatalf("%d iterations", len(l.History()))
		}
	}
	b.ReportMetric(float64(len(millionEx.List)), "distinct-examples")
	b.ReportMetric(float64(millionHeap)/(1<<20), "MB-examples")
	// CPU time, which the load of a shared machine inflates less than wall
	// time.
	b.ReportMetric((cputime.Process()-cpu).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkScaleExamples draws and labels the synthetic example sets (one
// op = one set) over 100,000 distinct antecedents: the heap per distinct
// example is the same for 100,000 draws (1.2 per distinct example) and a
// million (3.2), since a recurring example only raises a count.
func BenchmarkScaleExamples(b *testing.B) {
	for _, total := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("draws=%d", total), func(b *testing.B) {
			var heap uint64
			var ex *Examples
			for b.Loop() {
				before := heapInUse()
				_, ex = scaleExamples(100_000, total)
				heap = heapInUse() - before
			}
			b.ReportMetric(float64(len(ex.List)), "distinct-examples")
			b.ReportMetric(float64(heap)/(1<<20), "MB-examples")
			b.ReportMetric(float64(heap)/float64(len(ex.List)), "B/distinct-example")
		})
	}
}

// The example set keeps one entry per distinct default: ten times the
// draws of the same defaults take the same entries, with ten times the
// counts.
func TestScaleExamplesDistinct(t *testing.T) {
	_, once := scaleExamples(2000, 20_000)
	_, ten := scaleExamples(2000, 200_000)
	if once.Total() != 20_000 || ten.Total() != 200_000 {
		t.Fatalf("totals %d and %d", once.Total(), ten.Total())
	}
	if len(ten.List) > 4*2000 || len(once.List) > len(ten.List) || len(ten.List) < 2000 {
		t.Fatalf("distinct examples: %d from 20,000 draws, %d from 200,000 (at most 8,000 distinct defaults)", len(once.List), len(ten.List))
	}
	pos, neg := ten.Size()
	if pos == 0 || neg == 0 {
		t.Fatalf("labels one-sided: %d positive, %d negative", pos, neg)
	}
}
