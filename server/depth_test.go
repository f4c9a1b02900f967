package server

import (
	"strings"
	"testing"
)

// TestQueryTooDeep: a plain-formula query nested past the limit is
// answered with the nesting limit and its position, not "expected '->'".
func TestQueryTooDeep(t *testing.T) {
	_, ts := newTest(t, Config{})
	var e apiError
	st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": "1: a", "query": strings.Repeat("!", 10001) + "a"}, &e)
	if st != 400 || !strings.Contains(e.Message, "formula nested more than 10000 levels deep") || e.Field != "query" || e.Line != 1 || e.Column != 10001 {
		t.Fatalf("%d %+v", st, e)
	}
}
