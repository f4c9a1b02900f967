package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// atLeastOf writes atleast(k, a0, …, a(n-1)).
func atLeastOf(k, n int) string {
	args := make([]string, n)
	for i := range args {
		args[i] = fmt.Sprintf("a%d", i)
	}
	return fmt.Sprintf("atleast(%d, %s)", k, strings.Join(args, ", "))
}

// TestAtLeastOfThousandsIsAnswered: a 34 KB body whose theory is
// atleast(2, a0..a4999), which used to expand into 25 million counter
// registers and kill the server for want of memory, is answered, and the
// server answers the next request.
func TestAtLeastOfThousandsIsAnswered(t *testing.T) {
	_, ts := newTest(t, Config{})
	var a struct{ Answer string }
	body := map[string]any{"theory": "0.5: " + atLeastOf(2, 5000), "query": "a1 -> a2"}
	if st := call(t, "POST", ts.URL+"/api/query", body, &a); st != 200 || a.Answer != "no" {
		t.Fatalf("%d %+v", st, a)
	}
	body["query"] = "!a1 & !a2 -> a3 | a4 | a5" // not entailed either: two others may hold
	if st := call(t, "POST", ts.URL+"/api/query", body, &a); st != 200 || a.Answer != "no" {
		t.Fatalf("%d %+v", st, a)
	}
	if st := call(t, "POST", ts.URL+"/api/query", map[string]any{"theory": penguin, "query": "penguin -> bird"}, &a); st != 200 {
		t.Fatalf("next request: %d", st)
	}
}

// TestAtLeastBeyondTheLimitIsRefused: a formula whose atleast needs more
// counter registers than a formula may take is a 400 at its line and
// column, in a theory, a query and a base, before any work.
func TestAtLeastBeyondTheLimitIsRefused(t *testing.T) {
	_, ts := newTest(t, Config{})
	big := atLeastOf(2500, 5000)
	for _, c := range []struct {
		path  string
		body  map[string]any
		field string
		line  int
		col   int
	}{
		{"/api/query", map[string]any{"theory": "1: a0\n0.5: " + big, "query": "a1"}, "theory", 2, 6},
		{"/api/query", map[string]any{"theory": "0.5: a0", "query": "a0 -> " + big}, "query", 1, 7},
		{"/api/theories", map[string]any{"text": "0.5: " + big}, "theory", 1, 6},
		{"/api/bases", map[string]any{"text": "a0 -> " + big}, "base", 1, 7},
	} {
		var e struct {
			Error, Field string
			Line, Column int
		}
		st := call(t, "POST", ts.URL+c.path, c.body, &e)
		if st != 400 || e.Field != c.field || e.Line != c.line || e.Column != c.col || !strings.Contains(e.Error, "atleast(2500, …) of 5000 operands needs a counter of 12,500,000 registers") {
			t.Errorf("%s: %d %+v", c.path, st, e)
		}
	}
}

// TestExpansionWaitsForItsMemory: the counters of a request's atleasts are
// held in the bytes in flight, beyond what its body paid for. While other
// requests hold them, a theory or query that expands is answered 503 when
// its budget runs out, not compiled into memory the server does not have;
// once they are free, the same request is answered.
func TestExpansionWaitsForItsMemory(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 500 * time.Millisecond})
	expanding := atLeastOf(20, 1000) // 20,000 registers: 320 KB in flight, from a 6 KB body
	for _, body := range []map[string]any{
		{"theory": "0.5: " + expanding, "query": "a1 -> a2"},
		{"theory": "0.5: a0", "query": "a0 -> " + expanding},
		{"theory": "0.5: a0", "given": "a0, " + expanding},
	} {
		// Others hold all but 64 KB of the bytes in flight.
		other := s.inflight.size - 64<<10
		if err := s.inflight.acquire(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		path := "/api/query"
		if body["given"] != nil {
			path = "/api/world"
		}
		var e apiError
		if st := call(t, "POST", ts.URL+path, body, &e); st != 503 || !strings.Contains(e.Message, "budget") {
			t.Errorf("%s while memory is taken: %d %+v", path, st, e)
		}
		s.inflight.release(other)
		if st := call(t, "POST", ts.URL+path, body, nil); st != 200 {
			t.Errorf("%s once it is free: %d", path, st)
		}
	}
	if s.inflight.used != 0 {
		t.Errorf("%d bytes in flight left held", s.inflight.used)
	}
}
