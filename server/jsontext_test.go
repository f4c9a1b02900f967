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

// TestBadTextIsRefused: invalid UTF-8 and the \u escape of a lone
// surrogate half, which encoding/json reads as U+FFFD without a word, are a
// 400 at their line and column, on the fast path of POST /api/query as on
// every other; a surrogate pair is a character like any other.
func TestBadTextIsRefused(t *testing.T) {
	_, ts := newTest(t, Config{})
	for _, c := range []struct {
		path, body, msg string
		line, col       int
	}{
		{"/api/query", "{\"theory\": \"0.5: a\xff\", \"query\": \"a\"}", "invalid UTF-8 (byte 0xff)", 1, 19},
		{"/api/query", `{"theory": "0.5: a", "query": "a\ud800"}`, `\ud800 is half of a surrogate pair`, 1, 33},
		{"/api/query", "{\"theory\": \"0.5: a\",\n \"query\": \"\\udc00b\"}", `\udc00 is half of a surrogate pair`, 2, 12},
		{"/api/query", `{"theory": "0.5: a", "query": "a\ud800\u0041"}`, `\ud800 is half of a surrogate pair`, 1, 33},
		{"/api/theories", "{\"text\": \"0.5: \xc3\"}", "invalid UTF-8 (byte 0xc3)", 1, 16},
		{"/api/batch", `{"theory": "0.5: a", "queries": ["\ud83d"]}`, `\ud83d is half of a surrogate pair`, 1, 35},
	} {
		var e struct {
			Error        string
			Line, Column int
		}
		if st := call(t, "POST", ts.URL+c.path, c.body, &e); st != 400 || !strings.Contains(e.Error, c.msg) || e.Line != c.line || e.Column != c.col {
			t.Errorf("%s %q: %d %+v, want 400 %q at %d:%d", c.path, c.body, st, e, c.msg, c.line, c.col)
		}
	}
	var a struct{ Answer string }
	if st := call(t, "POST", ts.URL+"/api/query", `{"theory": "0.5: \ud83d\ude00", "query": "\ud83d\ude00"}`, &a); st != 200 || a.Answer != "yes" {
		t.Errorf("a surrogate pair: %d %+v", st, a)
	}
}

// TestContradictoryHardRulesArePositioned: hard rules or background
// knowledge that no world satisfies are refused with the rules that clash,
// by line, and the line of the first of them.
func TestContradictoryHardRulesArePositioned(t *testing.T) {
	_, ts := newTest(t, Config{})
	for _, c := range []struct {
		path  string
		body  map[string]any
		field string
	}{
		{"/api/eval", map[string]any{"theory": "0.5: a", "pos": "a -> b", "neg": "a -> !b", "hard": "b\n\n!b\n"}, "hard"},
		{"/api/learn", map[string]any{"pos": "a -> b", "neg": "a -> !b", "hard": "b\n\n!b\n"}, "hard"},
		{"/api/bases", map[string]any{"text": "a -> c", "background": "b\n\n!b\n"}, "background"},
	} {
		var e struct {
			Error, Field, File string
			Line               int
		}
		st := call(t, "POST", ts.URL+c.path, c.body, &e)
		if st/100 != 4 || e.Field != c.field || e.Line != 1 || e.File != c.field ||
			!strings.Contains(e.Error, "no world satisfies these 2 together (dropping any one resolves it): "+c.field+":1: b; "+c.field+":3: !b") {
			t.Errorf("%s: %d %+v", c.path, st, e)
		}
	}
}

// TestEmptyBatchNamesItsSemantics: a batch names the semantics it was
// decided under however many queries it holds, the default's when the
// request names none ("semantics": "" was a batch without queries).
func TestEmptyBatchNamesItsSemantics(t *testing.T) {
	_, ts := newTest(t, Config{})
	for _, c := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"theory": "0.5: a", "queries": []string{}}, "poss"},
		{map[string]any{"theory": "0.5: a", "queries": []string{"a -> ("}}, "poss"},
		{map[string]any{"theory": "0.5: a", "queries": []string{}, "semantics": "lex"}, "lex"},
		{map[string]any{"base": "a -> b", "queries": []string{}}, "rational"},
		{map[string]any{"base": "a -> b", "queries": []string{}, "semantics": "system-p"}, "p"},
	} {
		var v struct{ Semantics string }
		if st := call(t, "POST", ts.URL+"/api/batch", c.body, &v); st != 200 || v.Semantics != c.want {
			t.Errorf("%v: %d %q, want %q", c.body, st, v.Semantics, c.want)
		}
	}
}
