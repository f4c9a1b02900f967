package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/jsonview"
)

// TestNoNullsOnEmptyInputs sends every endpoint that answers from a
// theory or a base the degenerate ones, empty or answering nothing, and
// checks that no list comes back null: an empty theory has "atoms": [],
// an empty base "defaults": [], a query that nothing entails
// "entailing": []. Only the nulls docs/api.md documents are allowed
// (deciding_level when nothing decides).
func TestNoNullsOnEmptyInputs(t *testing.T) {
	_, ts := newTest(t, Config{})
	allowed := []string{"deciding_level"}
	var tv struct{ ID string }
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]any{"text": ""}, &tv); st != 201 {
		t.Fatalf("status %d", st)
	}
	var bv struct{ ID string }
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]any{"text": ""}, &bv); st != 201 {
		t.Fatalf("status %d", st)
	}
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/theories", map[string]any{"text": ""}},
		{"POST", "/api/theories", map[string]any{"text": "# nothing\n"}},
		{"GET", "/api/theories/" + tv.ID, nil},
		{"POST", "/api/bases", map[string]any{"text": ""}},
		{"GET", "/api/bases/" + bv.ID, nil},
		{"POST", "/api/query", map[string]any{"theory_id": tv.ID, "query": "a", "explain": true}},
		{"POST", "/api/query", map[string]any{"theory_id": tv.ID, "query": "a & !a -> b", "explain": true}},
		{"POST", "/api/query", map[string]any{"theory_id": tv.ID, "query": "a -> a", "explain": true, "semantics": "lex"}},
		{"POST", "/api/query", map[string]any{"theory_id": bv.ID, "query": "a -> b", "explain": true}},
		{"POST", "/api/batch", map[string]any{"theory_id": tv.ID, "queries": []string{}}},
		{"POST", "/api/batch", map[string]any{"theory_id": tv.ID, "queries": []string{"a"}, "explain": true}},
		{"POST", "/api/conclusions", map[string]any{"theory_id": tv.ID, "given": "a"}},
		{"POST", "/api/conclusions", map[string]any{"theory_id": tv.ID, "given": "a, !a"}},
		{"POST", "/api/world", map[string]any{"theory_id": tv.ID, "given": "a"}},
		{"POST", "/api/world", map[string]any{"theory_id": tv.ID, "given": "!a"}},
		{"POST", "/api/world", map[string]any{"theory_id": tv.ID, "given": "a, !a"}},
		{"POST", "/api/compare", map[string]any{"theory_id": tv.ID, "query": "a -> b"}},
		{"POST", "/api/compare", map[string]any{"theory_id": bv.ID, "query": "a -> b"}},
		{"POST", "/api/ranks", map[string]any{"theory_id": bv.ID}},
		{"POST", "/api/ranks", map[string]any{"theory_id": bv.ID, "query": "a -> b"}},
		{"POST", "/api/eval", map[string]any{"theory_id": tv.ID, "pos": "a -> b", "neg": "a -> !b"}},
		{"POST", "/api/coverage", map[string]any{"theory": "0.5: a", "level": 0, "index": 0, "pos": "b -> a", "neg": "b -> !a"}},
		{"POST", "/api/predict", map[string]any{"theory": "1: !c=x | !c=y\n1: c=x | c=y\n", "table": "f,c\n1,x\n"}},
	} {
		var out any
		st := call(t, c.method, ts.URL+c.path, c.body, &out)
		if st >= 300 {
			t.Errorf("%s %s %v: status %d: %v", c.method, c.path, c.body, st, out)
			continue
		}
		if ns := jsonview.Nulls(out, allowed...); len(ns) > 0 {
			b, _ := json.Marshal(out)
			t.Errorf("%s %s %v: null at %s in %s", c.method, c.path, c.body, strings.Join(ns, ", "), b)
		}
	}
}
