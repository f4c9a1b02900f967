package mln_test

import (
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/strata-logic/strata/internal/cputime"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/mln/debd"
)

var (
	benchNetsMu sync.Mutex
	benchNets   = map[string]*mln.Network{}
)

// benchNetwork learns (once per process) the default network of a debd
// dataset.
func benchNetwork(b *testing.B, name string) *mln.Network {
	b.Helper()
	benchNetsMu.Lock()
	defer benchNetsMu.Unlock()
	if n, ok := benchNets[name]; ok {
		return n
	}
	dir := filepath.Dir(shared.Path(b, "debd/"+name))
	n, _, _, err := debd.Learn(dir, name, mln.LearnOptions{})
	if err != nil {
		b.Fatal(err)
	}
	benchNets[name] = n
	return n
}

// benchEvidence draws evidence formulas as the example generator does.
func benchEvidence(atoms, count int) []logic.Term {
	r := rand.New(rand.NewPCG(42, 42))
	out := make([]logic.Term, count)
	for i := range out {
		perm := r.Perm(atoms)
		for _, a := range perm[:1+r.IntN(5)] {
			out[i] = append(out[i], logic.MkLit(logic.Atom(a), r.IntN(2) == 0))
		}
	}
	return out
}

// BenchmarkExactMAP measures exact MAP queries (one op = one query with
// evidence of 1 to 5 literals) on the learned networks.
func BenchmarkExactMAP(b *testing.B) {
	for _, name := range []string{"nltcs", "msnbc", "plants", "dna"} {
		b.Run(name, func(b *testing.B) {
			net := benchNetwork(b, name)
			e, err := mln.NewExact(net)
			if err != nil {
				b.Fatal(err)
			}
			ev := benchEvidence(net.NumAtoms(), 64)
			i := 0
			cpu := cputime.Process()
			for b.Loop() {
				if _, _, _, err := e.MAP(b.Context(), ev[i%len(ev)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "queries/s")
			// CPU time, which the load of a shared machine inflates less
			// than wall time.
			b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(i), "cpu-µs/query")
		})
	}
}

// BenchmarkMaxWalkSAT measures MaxWalkSAT flips on the learned networks (one
// op = one query of 100000 flips).
func BenchmarkMaxWalkSAT(b *testing.B) {
	for _, name := range []string{"nltcs", "plants", "dna"} {
		b.Run(name, func(b *testing.B) {
			net := benchNetwork(b, name)
			a, err := mln.NewApprox(net, mln.WalkOptions{Flips: 100000, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			ev := benchEvidence(net.NumAtoms(), 64)
			i := 0
			start := a.Flips()
			for b.Loop() {
				if _, _, _, err := a.MAP(b.Context(), ev[i%len(ev)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(a.Flips()-start)/b.Elapsed().Seconds(), "flips/s")
		})
	}
}

// BenchmarkLearn measures learning each dataset's network from its table.
func BenchmarkLearn(b *testing.B) {
	for _, name := range []string{"nltcs", "msnbc", "plants", "dna"} {
		b.Run(name, func(b *testing.B) {
			from, _, err := debd.Splits(filepath.Dir(shared.Path(b, "debd/"+name)), name)
			if err != nil {
				b.Fatal(err)
			}
			t, err := mln.ReadTableFile(from)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := mln.Learn(t, mln.LearnOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExamples measures labelling 200 examples with exact MAP.
func BenchmarkExamples(b *testing.B) {
	for _, name := range []string{"nltcs", "plants"} {
		b.Run(name, func(b *testing.B) {
			net := benchNetwork(b, name)
			for b.Loop() {
				if _, err := mln.Generate(b.Context(), mln.EngineFactory(net, false, mln.WalkOptions{}), net.NumAtoms(), 200, mln.ExampleOptions{Seed: 3}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
