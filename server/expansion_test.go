package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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
	const budget = 300 * time.Millisecond
	s, ts := newTest(t, Config{Timeout: budget})
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
		s.cfg.Timeout = time.Minute // compiling may take longer than the short budget under -race
		if st := call(t, "POST", ts.URL+path, body, nil); st != 200 {
			t.Errorf("%s once it is free: %d", path, st)
		}
		s.cfg.Timeout = budget
	}
	if s.inflight.used != 0 {
		t.Errorf("%d bytes in flight left held", s.inflight.used)
	}
}

// slowBody opens a connection to ts and sends a POST to path announcing a
// body of length bytes and sending only its first few, leaving the rest
// to come; the caller reads the answer, or closes the connection.
func slowBody(t *testing.T, ts *httptest.Server, path string, length int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	// A guard against a test that hangs, not a measure of the budget.
	conn.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"theory\": \"", path, ts.Listener.Addr(), length)
	return conn
}

// TestSlowBodyIsAnswered503WithinItsBudget: a body still arriving when the
// request's budget runs out is answered 503 for the budget (it used to
// wait for the server's read timeout and get a 400), and the server then
// answers other requests.
func TestSlowBodyIsAnswered503WithinItsBudget(t *testing.T) {
	_, ts := newTest(t, Config{Timeout: 300 * time.Millisecond})
	conn := slowBody(t, ts, "/api/query", 1000)
	defer conn.Close()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 503 || !strings.Contains(string(body), "time budget while its body was arriving") {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, nil); st != 200 {
		t.Fatalf("next request: %d", st)
	}
}

// TestSlowUploadsLeaveRoomForOthers: a body holds of the bytes in flight
// what it has sent, not what it announced, so that two uploads announcing
// the largest body and trickling in keep a request that arrives whole
// from neither its share nor its answer (it used to wait behind them).
func TestSlowUploadsLeaveRoomForOthers(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 5 * time.Second, MaxBody: 1 << 20, MaxInFlight: 3 << 19})
	for range 2 {
		conn := slowBody(t, ts, "/api/theories", 1<<20)
		defer conn.Close()
	}
	waitComputingN := func(n int64) {
		for deadline := time.Now().Add(5 * time.Second); s.inflight.usedNow() < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the uploads hold %d bytes in flight", s.inflight.usedNow())
			}
		}
	}
	waitComputingN(2 * minShare)
	if used := s.inflight.usedNow(); used > 2*minShare {
		t.Errorf("two uploads that sent a few bytes hold %d bytes in flight", used)
	}
	var a answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, &a); st != 200 || a.Word != "yes" {
		t.Errorf("a request beside the uploads: %d %+v", st, a)
	}
}
