package defaults

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/logic"
)

// hardQuery is a row of ../shared/data/infocf-hard/hardest.tsv: one of the
// slowest c-inference queries InfOCF publishes, with its answer and times.
type hardQuery struct {
	set, base, query   string
	queryMS, prepareMS float64
	entailed           bool
	path               string // the base's .cl file
	index              int    // the query's place among its base's, from 1
}

// readHardest reads hardest.tsv, or skips without the shared data.
func readHardest(tb testing.TB) []hardQuery {
	tb.Helper()
	p := shared.Path(tb, "infocf-hard/hardest.tsv")
	f, err := os.Open(p)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var qs []hardQuery
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		cols := strings.Split(sc.Text(), "\t")
		if line == 1 {
			continue // the header
		}
		if len(cols) != 6 {
			tb.Fatalf("%s:%d: %d columns, want 6", p, line, len(cols))
		}
		q := hardQuery{set: cols[0], base: strings.TrimSuffix(filepath.Base(cols[1]), ".cl"), query: cols[2],
			path: filepath.Join(filepath.Dir(p), cols[1])}
		if q.queryMS, err = strconv.ParseFloat(cols[3], 64); err == nil {
			q.prepareMS, err = strconv.ParseFloat(cols[4], 64)
		}
		if err == nil {
			q.entailed, err = strconv.ParseBool(cols[5])
		}
		if err != nil {
			tb.Fatalf("%s:%d: %v", p, line, err)
		}
		seen[q.base]++
		q.index = seen[q.base]
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return qs
}

// load reads the query's base and parses the query in its vocabulary.
func (q hardQuery) load(tb testing.TB) (*Base, Default) {
	tb.Helper()
	f, err := os.Open(q.path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	bases, err := ReadCL(f, q.path, &logic.Vocabulary{})
	if err != nil {
		tb.Fatal(err)
	}
	d, err := ParseQuery(bases[0].Vocab, q.query)
	if err != nil {
		tb.Fatal(err)
	}
	return bases[0], d
}

func (q hardQuery) name() string { return fmt.Sprintf("%s#%d", q.base, q.index) }

// TestHardestAgreesWithInfOCF decides the fifteen hardest queries InfOCF
// publishes, each on a reasoner of its own (the compilation of the base
// included), once as a query does it and (without the race detector) once
// more on a reasoner of the base with the whole of CR(Δ) compiled and no
// c-representation at hand, so that the linear programs decide, and checks
// InfOCF's answer.
func TestHardestAgreesWithInfOCF(t *testing.T) {
	if testing.Short() {
		t.Skip("the hardest bases take seconds each")
	}
	ctx := context.Background()
	type compiledBase struct {
		b  *Base
		rs *Reasoner
	}
	compiled := map[string]compiledBase{} // per base, CR(Δ) compiled once for its queries
	for _, hq := range readHardest(t) {
		t.Run(hq.name(), func(t *testing.T) {
			b, q := hq.load(t)
			rs, err := NewReasoner(ctx, b)
			if err != nil {
				t.Fatal(err)
			}
			if got := entails(t, rs, CInference, q.Antecedent, q.Consequent); got != hq.entailed {
				t.Errorf("%s: c-inference %v, InfOCF %v", hq.query, got, hq.entailed)
			}
			if raceOn {
				return
			}
			cb, ok := compiled[hq.base]
			if !ok {
				cb.b, q = hq.load(t)
				if cb.rs, err = NewReasoner(ctx, cb.b); err == nil {
					err = cb.rs.Prepare(ctx, CInference)
				}
				if err != nil {
					t.Fatal(err)
				}
				compiled[hq.base] = cb
			} else if q, err = ParseQuery(cb.b.Vocab, hq.query); err != nil {
				t.Fatal(err)
			}
			cb.rs.c.reps = nil // no c-representation at hand: the linear programs decide
			if got := entails(t, cb.rs, CInference, q.Antecedent, q.Consequent); got != hq.entailed {
				t.Errorf("%s with CR(Δ) compiled first: c-inference %v, InfOCF %v", hq.query, got, hq.entailed)
			}
		})
	}
}

// BenchmarkHardestCInference times each of the fifteen hardest queries
// InfOCF publishes from scratch, as InfOCF's times count them (its
// preprocessing of the base and the query): a new reasoner, the Z-ordering,
// and what the query needs of CR(Δ). compiled/ times the same with the
// whole of CR(Δ) compiled first (Prepare), the work of a query no
// c-representation at hand rejects. solves/op counts the SAT solver's
// calls (all but the linear programs'), infocf-ms/op is InfOCF's published time
// for the query, preprocessing included (on its authors' machine).
func BenchmarkHardestCInference(b *testing.B) {
	benchHardest(b, CInference)
}

// BenchmarkHardestSystemW is BenchmarkHardestCInference under System W
// (InfOCF publishes no System W times for these queries).
func BenchmarkHardestSystemW(b *testing.B) {
	benchHardest(b, SystemW)
}

func benchHardest(b *testing.B, s Semantics) {
	ctx := context.Background()
	for _, hq := range readHardest(b) {
		base, q := hq.load(b)
		modes := []string{"query"}
		if s == CInference {
			modes = append(modes, "compiled")
		}
		for _, mode := range modes {
			b.Run(mode+"/"+hq.name(), func(b *testing.B) {
				yes, solves := 0, int64(0)
				for i := 0; i < b.N; i++ {
					rs, err := NewReasoner(ctx, base)
					if err != nil {
						b.Fatal(err)
					}
					if mode == "compiled" {
						if err := rs.Prepare(ctx, s); err != nil {
							b.Fatal(err)
						}
					}
					if entails(b, rs, s, q.Antecedent, q.Consequent) {
						yes++
					}
					solves += rs.e.solves()
				}
				b.ReportMetric(float64(yes)/float64(b.N), "yes/op")
				b.ReportMetric(float64(solves)/float64(b.N), "solves/op")
				if s == CInference {
					b.ReportMetric(hq.queryMS+hq.prepareMS, "infocf-ms/op")
				}
			})
		}
	}
}
