package server

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/strata-logic/strata/internal/benchgen"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// benchTheory is the theory of possibilistic's BenchmarkEntailsGiven (8
// levels, 40 clauses over 16 atoms) in the text format, with n of its
// queries as text.
func benchTheory(n int) (*possibilistic.Theory, string, []string) {
	r := rand.New(rand.NewPCG(1, 1))
	th := possibilistic.New(nil)
	for i := range benchgen.Atoms {
		th.Vocab.Intern("a" + strconv.Itoa(i+1))
	}
	for _, c := range benchgen.Theory(r) {
		th.AddClause(c.Clause, c.Weight)
	}
	qs := benchgen.Queries(r, n)
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = th.Vocab.Join(q.Alpha, ", ") + " -> " + th.Vocab.Join(q.Beta, " | ")
	}
	return th, th.String(), texts
}

// TestConcurrentClients runs 64 clients at once on one stored theory (run
// it under -race): every answer must equal the library's, whatever the
// interleaving of the pooled reasoners.
func TestConcurrentClients(t *testing.T) {
	const clients, perClient = 64, 8
	th, text, queries := benchTheory(clients * perClient)
	_, ts := newTest(t, Config{})
	var tv theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": text}, &tv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	rs := libReasoner(t, th)
	want := make(map[string]possibilistic.Verdict)
	key := func(sem possibilistic.Semantics, q string) string { return sem.String() + " " + q }
	for _, q := range queries {
		r, err := logic.ParseRule(th.Vocab, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, sem := range possibilistic.AllSemantics {
			want[key(sem, q)] = rs.decide(sem, r.Antecedent, r.Consequent)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, clients*perClient*2)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := queries[c*perClient : (c+1)*perClient]
			for i, q := range mine {
				sem := possibilistic.AllSemantics[(c+i)%3]
				var a answerView
				if st, err := callErr("POST", ts.URL+"/api/query", map[string]string{"theory_id": tv.ID, "query": q, "semantics": sem.String()}, &a); err != nil || st != 200 {
					errs <- fmt.Errorf("%s: status %d %v", q, st, err)
					continue
				}
				w := want[key(sem, q)]
				if a.Entailed != w.Entailed || a.DecidingWeight != w.Necessity || a.Inconsistency != w.Inconsistency {
					errs <- fmt.Errorf("%s %s: %+v, want %+v", sem, q, a, w)
				}
			}
			sem := possibilistic.AllSemantics[c%3]
			var bv batchView
			if st, err := callErr("POST", ts.URL+"/api/batch", map[string]any{"theory_id": tv.ID, "queries": mine, "semantics": sem.String()}, &bv); err != nil || st != 200 {
				errs <- fmt.Errorf("batch: status %d %v", st, err)
				return
			}
			for i, q := range mine {
				if w := want[key(sem, q)]; bv.Answers[i].Entailed != w.Entailed || bv.Answers[i].DecidingWeight != w.Necessity {
					errs <- fmt.Errorf("batch %s %s: %+v, want %+v", sem, q, bv.Answers[i], w)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 10 {
			t.Error(err)
		}
	}
	if n > 10 {
		t.Errorf("and %d more", n-10)
	}
}
