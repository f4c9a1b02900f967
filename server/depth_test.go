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

// TestJSONErrorCRLines: a malformed body whose lines end in a lone CR is
// reported at the line of the error, not on line 1.
func TestJSONErrorCRLines(t *testing.T) {
	_, ts := newTest(t, Config{})
	var e apiError
	st := call(t, "POST", ts.URL+"/api/query", "{\"theory\": \"1: a\",\r\"query\": \"a\",\r\"semantics\": }", &e)
	if st != 400 || e.Field != "body" || e.Line != 3 {
		t.Fatalf("%d %+v", st, e)
	}
}
