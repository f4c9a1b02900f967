package server

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/possibilistic"
)

// stdQuery decodes body as decode does, with encoding/json.
func stdQuery(body []byte) (queryRequest, bool) {
	var req queryRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() {
		return req, false
	}
	return req, true
}

// checkScan fails when scanQuery accepts a body that encoding/json refuses
// or reads differently.
func checkScan(t *testing.T, body []byte) bool {
	t.Helper()
	var fast queryRequest
	if !scanQuery(body, &fast) {
		return false
	}
	std, ok := stdQuery(body)
	if !ok {
		t.Fatalf("the fast path accepts %q, which encoding/json refuses", body)
	}
	if !reflect.DeepEqual(fast, std) {
		t.Fatalf("%q: fast path %+v, encoding/json %+v", body, fast, std)
	}
	return true
}

// checkScanBatch is checkScan for batch requests.
func checkScanBatch(t *testing.T, body []byte) bool {
	t.Helper()
	var fast batchRequest
	if !scanBatch(body, &fast) {
		return false
	}
	var std batchRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&std); err != nil || dec.More() {
		t.Fatalf("the fast path accepts %q, which encoding/json refuses", body)
	}
	if !reflect.DeepEqual(fast, std) {
		t.Fatalf("%q: fast path %+v, encoding/json %+v", body, fast, std)
	}
	return true
}

var batchSeeds = []string{
	`{"theory_id": "t-0123", "queries": ["a -> b", "b -\u003e c", "("], "semantics": "lex", "explain": false}`,
	`{"queries": []}`, `{"queries": [ ]}`, `{"queries": ["a",]}`, `{"queries": ["a" "b"]}`, `{"queries": [1]}`,
	`{"queries": null}`, `{"queries": [null]}`, `{"queries": "a"}`, `{"queries": ["a"], "queries": ["b"]}`,
	`{"queries": [["a"]]}`, `{"queries": ["a"]`, `{"Queries": ["a"]}`, `{"explain": true, "query": "a"}`,
	`{"theory": "1: a\n0.5: b", "queries": ["\u00e9 -> a", "\ud800"]}`,
}

var scanSeeds = []string{
	`{"theory_id": "t-0123", "query": "penguin -> !flies", "semantics": "poss", "explain": false}`,
	`{"theory_id":"t-1","query":"a, b -> c | d","explain":true}`,
	` {"query" : "α -> β" ,"theory":"1: a"}` + "\n",
	`{}`, `{ }`, `{"query": "a"}x`, `{"query": "a"}{"query": "b"}`, `{"query": "a",}`,
	`{"Query": "a"}`, `{"QUERY": "a"}`, `{"query": "a", "query": "b"}`, `{"explain": true, "explain": false}`,
	`{"query": null}`, `{"explain": null}`, `{"explain": "true"}`, `{"query": true}`, `{"query": 1}`,
	`{"query": "a\nb"}`, `{"query": "a\\nb"}`, `{"query": "\u00e9"}`, `{"query": "\"q\""}`, `{"query": "a \u003e b \/ \ud83d\ude00 \uD800"}`, `{"query": "\u12"}`, `{"query": "\x"}`, `{"query": "tab	x"}`,
	`{"query": "` + "\xff" + `"}`, `{"queries": ["a"]}`, `{"nope": "x"}`, `{"query": "a"`, `{"query": `, `{"query`,
	`{"explain": tru}`, `{"explain": falsey}`, `{"query": "a" "theory": "b"}`, `[]`, `null`, `""`, ``,
	"\ufeff{\"query\": \"a\"}",
}

// TestScanQuery checks the fast path for query requests against
// encoding/json on hand-written bodies and their random mutations:
// whatever it accepts, encoding/json reads the same; and it accepts the
// bodies clients send.
func TestScanQuery(t *testing.T) {
	accepted := 0
	for _, s := range scanSeeds {
		if checkScan(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < 4 {
		t.Errorf("the fast path accepts %d of the seeds", accepted)
	}
	for _, s := range queryBodies("t-0123", []string{"a1, a2 -> a3 | !a4", "a1 -> a2"}, "lex", true) {
		if !checkScan(t, s) {
			t.Errorf("the fast path refuses %s", s)
		}
	}
	batchAccepted := 0
	for _, s := range append(batchSeeds, scanSeeds...) {
		if checkScanBatch(t, []byte(s)) {
			batchAccepted++
		}
	}
	if batchAccepted < 3 {
		t.Errorf("the fast path accepts %d of the batch seeds", batchAccepted)
	}
	r := rand.New(rand.NewPCG(2, 3))
	alphabet := []byte(`{}[]":, ,tfnrueals\\0x` + "\n\xc3\xa9\xff")
	seeds := append(batchSeeds, scanSeeds...)
	for range 40000 {
		b := []byte(seeds[r.IntN(len(seeds))])
		for range 1 + r.IntN(3) {
			switch op := r.IntN(3); {
			case op == 0 && len(b) > 0:
				i := r.IntN(len(b))
				b = append(b[:i], b[i+1:]...)
			case op == 1:
				i := r.IntN(len(b) + 1)
				b = append(b[:i], append([]byte{alphabet[r.IntN(len(alphabet))]}, b[i:]...)...)
			case len(b) > 0:
				b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
			}
		}
		checkScan(t, b)
		checkScanBatch(t, b)
	}
}

// FuzzScanQuery: whatever body the fast path accepts, encoding/json
// reads the same.
func FuzzScanQuery(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	for _, s := range batchSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkScan(t, body)
		checkScanBatch(t, body)
	})
}

// stdEncode encodes v as writeJSON does.
func stdEncode(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestAppendAnswer checks the fast encoding of answers against
// encoding/json on the answers of real queries (every semantics, with and
// without the explanation, on the penguin theory and the benchmark's) and
// on answers with random strings and weights.
func TestAppendAnswer(t *testing.T) {
	s, _ := New(Config{})
	th, _, queries := benchTheory(64)
	bench := s.newEntry(kindTheory, "bench", th, nil, nil)
	pe, err := s.parseTheory(context.Background(), source{Text: penguin})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		e       *entry
		queries []string
	}{
		{bench, queries},
		{pe, []string{"penguin -> !flies", "penguin -> flies", "bird -> flies", "penguin -> wings", "penguin & !bird -> flies", "-> bird | !bird", "bird -> newatom"}},
	}
	n := 0
	for _, c := range cases {
		for _, sem := range possibilistic.AllSemantics {
			q, err := c.e.querier(sem.String())
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range c.queries {
				for _, explain := range []bool{false, true} {
					v, err := c.e.with(context.Background(), c.e.usage(sem.String(), explain), func(w *worker) (any, error) { return q(context.Background(), w, src, explain) })
					if err != nil {
						t.Fatal(err)
					}
					a := v.(*answerView)
					got, ok := appendAnswer(nil, a)
					if !ok {
						t.Fatalf("%s under %s: the fast path refuses the answer", src, sem)
					}
					if want := stdEncode(t, a); !bytes.Equal(got, want) {
						t.Fatalf("%s under %s:\n got %s\nwant %s", src, sem, got, want)
					}
					n++
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(4, 5))
	pieces := []string{"a", " ", "\"", "\\", "\n", "\t", "\r", "\b", "\f", "\x00", "\x1f", "\x7f", "<", ">", "&", "é", "α", "≥", "\u2028", "\u2029", "\xff", "\xe2\x80", "😀", "\ud7ff"}
	randString := func() string {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	randFloat := func() float64 {
		switch r.IntN(4) {
		case 0:
			return r.Float64()
		case 1:
			return math.Pow(10, float64(r.IntN(60)-30)) * r.Float64()
		case 2:
			return -r.Float64() * 1e22
		}
		return float64(r.IntN(3)) / 4
	}
	for range 5000 {
		lvl := r.IntN(5)
		a := &answerView{Answer: jsonview.Answer{Query: randString(), Word: randString(), Entailed: r.IntN(2) == 0, Semantics: randString()}}
		if r.IntN(4) > 0 { // a base's answer under a semantics without degrees has none
			a.Degrees = &jsonview.Degrees{DecidingWeight: randFloat(), Inconsistency: randFloat()}
			if r.IntN(2) == 0 {
				a.DecidingLevel = &lvl
			}
		}
		if r.IntN(2) == 0 {
			a.Explanation = &jsonview.Explanation{Text: randString(), Entailing: []jsonview.FormulaRef{{Level: 1, Index: 2, Formula: randString()}},
				Drowned: []int{}, SetAside: []jsonview.FormulaRef{}, Counter: []string{randString(), randString()}}
			if r.IntN(2) == 0 {
				a.Explanation.Violations, a.Explanation.PartlySetAside = []int{0, 2}, []int{1}
				a.Explanation.DecidingZLevel, a.Explanation.DrownedZLevels = 2, []int{1}
				a.Explanation.Entailing, a.Explanation.Drowned = nil, nil
			}
		}
		got, ok := appendAnswer(nil, a)
		if !ok {
			t.Fatal("the fast path refuses a finite answer")
		}
		if want := stdEncode(t, a); !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n got %s\nwant %s", a, got, want)
		}
	}
	// Batches, with errors and unanswered queries in their places.
	var answers []*answerView
	for _, c := range cases {
		q, _ := c.e.querier("lex")
		for _, src := range append(c.queries, "(", "a ->") {
			v, err := c.e.with(context.Background(), c.e.usage("lex", true), func(w *worker) (any, error) { return q(context.Background(), w, src, true) })
			if err != nil {
				v = &answerView{Answer: jsonview.Answer{Query: src}, Error: inputError("query", err)}
			}
			answers = append(answers, v.(*answerView))
		}
	}
	answers = append(answers, &answerView{Answer: jsonview.Answer{Query: "x"}, Error: notAnswered(context.DeadlineExceeded)})
	for _, bv := range []*batchView{
		{Semantics: "lex", Answers: answers, Yes: 3, No: 4, Errors: 2, Unanswered: 1},
		{Semantics: "poss", Answers: []*answerView{}},
		{},
	} {
		rec := httptest.NewRecorder()
		writeBatch(rec, bv)
		if want := stdEncode(t, bv); !bytes.Equal(rec.Body.Bytes(), want) {
			t.Fatalf("batch:\n got %s\nwant %s", rec.Body.Bytes(), want)
		}
	}
	if _, ok := appendAnswer(nil, &answerView{Error: &apiError{}}); ok {
		t.Error("the fast path encodes an error")
	}
	if _, ok := appendAnswer(nil, &answerView{Answer: jsonview.Answer{Degrees: &jsonview.Degrees{DecidingWeight: math.NaN()}}}); ok {
		t.Error("the fast path encodes NaN")
	}
	if !utf8.ValidString(string(appendString(nil, "\xff"))) {
		t.Error("invalid UTF-8 written through")
	}
	t.Logf("%d answers of real queries compared", n)
}

// TestPoolsPerUsage checks that a worker returns to the pool of the
// semantics and explanation it served, so that a reasoner whose levels lex
// or an explanation split never serves plain poss queries.
func TestPoolsPerUsage(t *testing.T) {
	s, _ := New(Config{})
	e, err := s.parseTheory(context.Background(), source{Text: penguin})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		sem     string
		explain bool
	}{{"lex", true}, {"lex", false}, {"poss", true}, {"", false}, {"linear", true}} {
		q, err := e.querier(c.sem)
		if err != nil {
			t.Fatal(err)
		}
		u := e.usage(c.sem, c.explain)
		if _, err := e.with(ctx, u, func(w *worker) (any, error) { return q(ctx, w, "penguin -> !flies", c.explain) }); err != nil {
			t.Fatal(err)
		}
		if len(e.pools[u]) != 1 {
			t.Errorf("%s explain=%v: %d idle workers in its pool, want 1", c.sem, c.explain, len(e.pools[u]))
		}
	}
	total := 0
	for _, p := range e.pools {
		total += len(p)
	}
	if total != 5 {
		t.Errorf("%d idle workers in all, want 5", total)
	}
}
