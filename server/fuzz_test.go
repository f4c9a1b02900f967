package server

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzAPI posts arbitrary bodies to the endpoints that parse theories,
// bases, queries, examples and tables: no input may crash the server or give an
// internal error, and every error is JSON with a position field.
func FuzzAPI(f *testing.F) {
	endpoints := []string{"/api/query", "/api/batch", "/api/theories", "/api/bases", "/api/conclusions", "/api/world", "/api/eval", "/api/predict"}
	for _, seed := range []string{
		`{"theory": "1: !penguin | bird\n0.5: !bird | flies", "query": "penguin -> !flies"}`,
		`{"theory": }`,
		`{"theory": "2: a", "query": "a"}`,
		`{"theory": "1: a & (b", "query": "a -> (b"}`,
		`{"theory": "1: a", "queries": ["a", "(", "-> b", "a |~ b |~ c"], "semantics": "lex"}`,
		`{"base": "a -> b\na -> !b", "query": "a -> b", "semantics": "p"}`,
		`{"text": "signature a\nconditionals\nkb{ (a|", "format": "cl"}`,
		`{"text": "bird -> flies\npenguin -> !flies\npenguin -> bird", "background": "!penguin | bird\n&"}`,
		`{"theory": "1: a", "given": "a,, b"}`,
		`{"theory": "1: a", "pos": "a -> b\n(", "neg": "a -> !b"}`,
		`{"theory_id": "t-nope", "query": "a"}`,
		`{"path": "../../etc/passwd"}`,
		`{"path": "t.theory"}`,
		`{"path": "/etc/passwd"}`,
		`{"theory": "1: atleast(2, a, b, c)", "query": "a -> b | c", "semantics": "linear"}`,
		`{"theory": "1: c=x | c=y\n1: c!=x | c!=y\n0.5: n > 2 -> c=x", "table": "n,m\n3,a\n1,\n?,b", "explain": true, "semantics": "lex"}`,
		`{"theory": "1: c=x | c=y\n1: c!=x | c!=y", "table": "n\n1,2\n\"", "label": "c"}`,
		`{"theory": "0.5: a", "table_path": "t.theory"}`,
		`[1, 2]`, `null`, `"x"`, `{"query": 1e999}`,
	} {
		for i := range endpoints {
			f.Add(uint8(i), seed)
		}
	}
	// A served directory, so that paths reach the checks that keep them
	// inside it.
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "t.theory"), []byte("1: !penguin | bird\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	s, err := New(Config{MaxTheories: 1 << 30, Dir: dir})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := endpoints[int(which)%len(endpoints)]
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Fatalf("%s %q: %d %s", path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 400 {
			var e map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e["error"] == nil || e["line"] == nil || e["column"] == nil {
				t.Fatalf("%s %q: error %d is not JSON with a position: %s", path, body, rec.Code, rec.Body)
			}
		}
		// Loaded theories are dropped so that memory stays flat.
		s.mu.Lock()
		clear(s.entries)
		s.mu.Unlock()
	})
}
