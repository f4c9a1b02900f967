package server

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/benchgen"
)

// hangGuard is how long a test waits for what should happen at once (a
// computation stopping at its cancelled context, a share given back)
// before it calls it a hang, and the budget of a request that must be
// answered: far past any delay a loaded machine causes, so that no test
// asserts how fast the server is, only that it stops or answers.
const hangGuard = time.Minute

// waitIdle waits until no computation of s runs, and fails when one still
// runs after hangGuard.
func waitIdle(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for s.computing.Load() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d computations still run %v after their request was answered 503", s.computing.Load(), hangGuard)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBudgetStopsWork checks that a query the solver cannot finish is
// answered 503 when its budget runs out and that its work then ends: the
// reasoner stops at the solver's next check point instead of solving on
// in the background.
func TestBudgetStopsWork(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 100 * time.Millisecond})
	hard := benchgen.Pigeonhole(11)
	checkBudget(t, s, ts, 2, []budgetCase{
		{"/api/query", map[string]any{"theory": hard, "query": "a -> b"}},
		{"/api/query", map[string]any{"theory": hard, "query": "a -> b", "semantics": "lex", "explain": true}},
		{"/api/batch", map[string]any{"theory": hard, "queries": []string{"a -> b", "a -> c"}}},
		{"/api/conclusions", map[string]any{"theory": hard, "given": "a", "semantics": "linear"}},
		{"/api/world", map[string]any{"theory": hard, "given": "a"}},
	})
}

// budgetCase is a request that runs past the time budget.
type budgetCase struct {
	path string
	body map[string]any
}

// checkBudget sends each case and checks that it is answered 503 for the
// time budget (a batch: 200 with that many unanswered queries, the first a
// 503), and that its computation then ends (the work of each would take
// minutes: answered before it, the request was stopped by the budget).
func checkBudget(t *testing.T, s *Server, ts *httptest.Server, unanswered int, cases []budgetCase) {
	t.Helper()
	for _, c := range cases {
		var e apiError
		var bv batchView
		var out any = &e
		if c.path == "/api/batch" {
			out = &bv
		}
		st := call(t, "POST", ts.URL+c.path, c.body, out)
		switch {
		case c.path == "/api/batch":
			if st != 200 || bv.Unanswered != unanswered || bv.Answers[0].Error == nil || bv.Answers[0].Error.Status != 503 {
				t.Errorf("batch: %d %+v", st, bv)
			}
		case st != 503 || !strings.Contains(e.Message, "time budget"):
			t.Errorf("%s %v: %d %+v, want 503 for the time budget", c.path, c.body["semantics"], st, e)
		}
		waitIdle(t, s)
	}
}

// TestBudgetStoresNothing checks that a load or a learning run whose
// request ran past its budget, and was answered 503, is not stored or
// started when its computation comes to the point of doing so.
func TestBudgetStoresNothing(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 50 * time.Millisecond})
	answered := make(chan struct{})
	s.beforeCommit = func(ctx context.Context) {
		<-ctx.Done()
		<-answered // the request has been answered 503
	}
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"/api/theories", map[string]any{"text": penguin}},
		{"/api/bases", map[string]any{"text": "bird -> flies\npenguin -> bird\npenguin -> !flies"}},
		{"/api/learn", map[string]any{"pos": exampleFile(t, "birds.pos"), "neg": exampleFile(t, "birds.neg"), "iterations": 2}},
	} {
		answered = make(chan struct{})
		var e apiError
		st := call(t, "POST", ts.URL+c.path, c.body, &e)
		wantError(t, st, e, 503, 0, 0, "time budget")
		close(answered)
		waitIdle(t, s)
		s.mu.RLock()
		n, runs := len(s.entries), len(s.runs)
		s.mu.RUnlock()
		if n != 0 || runs != 0 {
			t.Errorf("%s answered 503 but %d entries and %d runs are kept", c.path, n, runs)
		}
	}
	// Within the budget the same requests store and start.
	s.beforeCommit = nil
	s.cfg.Timeout = hangGuard
	var tv theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]any{"text": penguin}, &tv); st != 201 || tv.ID == "" {
		t.Errorf("load within the budget: %d %+v", st, tv)
	}
}

// TestBatchBudget checks the time budget inside a batch: a batch whose
// later queries run past it answers those it decided, and reports the
// others as not answered, each with a 503 error in its place.
func TestBatchBudget(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 10 * time.Second})
	var tv theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]any{"text": penguin}, &tv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	// The batch runs past its budget at its 10th query, whatever the
	// machine's speed: the hook waits there until the budget is spent.
	const decidedWant = 9
	s.cfg.Timeout = 100 * time.Millisecond
	s.beforeBatchQuery = func(ctx context.Context, i int) {
		if i == decidedWant {
			<-ctx.Done()
		}
	}
	qs := make([]string, 40)
	for i := range qs {
		qs[i] = []string{"penguin -> bird", "penguin -> flies", "bird -> flies", "("}[i%4]
	}
	var bv batchView
	if st := call(t, "POST", ts.URL+"/api/batch", map[string]any{"theory_id": tv.ID, "queries": qs, "semantics": "lex", "explain": true}, &bv); st != 200 {
		t.Fatalf("status %d", st)
	}
	if bv.Unanswered == 0 || bv.Unanswered == len(qs) {
		t.Fatalf("%d of %d queries not answered: the budget was not checked within the batch", bv.Unanswered, len(qs))
	}
	if bv.Yes+bv.No+bv.Errors+bv.Unanswered != len(qs) || len(bv.Answers) != len(qs) {
		t.Errorf("counts %d+%d+%d+%d for %d queries", bv.Yes, bv.No, bv.Errors, bv.Unanswered, len(qs))
	}
	decided := len(qs) - bv.Unanswered
	if decided != decidedWant {
		t.Errorf("%d queries decided, want the %d before the budget ran out", decided, decidedWant)
	}
	for i, a := range bv.Answers {
		notAnswered := a.Error != nil && a.Error.Status == 503
		if notAnswered != (i >= decided) {
			t.Fatalf("answer %d of %d (%d decided): %+v", i, len(qs), decided, a)
		}
		if !notAnswered && qs[i] != "(" && a.Word != []string{"yes", "no", "yes"}[i%4] {
			t.Fatalf("answer %d: %+v", i, a)
		}
	}
	if e := bv.Answers[len(qs)-1].Error; !strings.Contains(e.Message, "not answered") || e.Field != "query" {
		t.Errorf("the last query's error: %+v", e)
	}
}

// TestBuildOutsideLock checks that building a learning run's learner, which
// reads its examples and may take a while, holds no lock that other
// requests need.
func TestBuildOutsideLock(t *testing.T) {
	s, ts := newTest(t, Config{})
	building, release := make(chan struct{}), make(chan struct{})
	s.beforeBuild = func() {
		close(building)
		<-release
	}
	body := map[string]any{"pos": exampleFile(t, "birds.pos"), "neg": exampleFile(t, "birds.neg"), "iterations": 1}
	started := make(chan int, 1)
	go func() {
		st, _ := callErr("POST", ts.URL+"/api/learn", body, nil)
		started <- st
	}()
	<-building
	listed := make(chan int, 1)
	go func() {
		st, _ := callErr("GET", ts.URL+"/api/learn", nil, nil)
		listed <- st
	}()
	select {
	case st := <-listed:
		if st != 200 {
			t.Errorf("GET /api/learn while a learner is built: %d", st)
		}
	case <-time.After(hangGuard):
		t.Error("GET /api/learn waits for a learner being built")
	}
	close(release)
	if st := <-started; st != 201 {
		t.Errorf("POST /api/learn: %d", st)
	}
}

// TestBaseBudgetStopsWork checks the time budget on default bases and on
// loading: a query under every semantics, the Z-ordering of a base being
// loaded or given with a query, and the inconsistency level of a theory
// being loaded, that the solver cannot finish, are answered 503 and their
// work then ends. The hard part is the pigeonhole principle for 12 pigeons
// and 11 holes: as the antecedent of the queries, as the background
// knowledge of the base loaded, as the consequent of a default of the base
// given with a query, as a level of the theory.
func TestBaseBudgetStopsWork(t *testing.T) {
	s, ts := newTest(t, Config{})
	var bv baseView
	text := "bird -> flies\npenguin -> bird\npenguin -> !flies"
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]any{"text": text}, &bv); st != 201 {
		t.Fatalf("load: %d %+v", st, bv)
	}
	s.cfg.Timeout = 100 * time.Millisecond
	hard := benchgen.PigeonholeClauses(11)
	conj := "(" + strings.ReplaceAll(strings.TrimSpace(hard), "\n", ") & (") + ")"
	type req = budgetCase
	var cases []req
	for _, sem := range []string{"p", "lex", "rational", "w", "c"} {
		for _, explain := range []bool{false, true} {
			cases = append(cases, req{"/api/query", map[string]any{"theory_id": bv.ID, "query": conj + " -> flies", "semantics": sem, "explain": explain}})
		}
	}
	cases = append(cases,
		req{"/api/batch", map[string]any{"theory_id": bv.ID, "queries": []string{conj + " -> flies"}, "semantics": "p", "explain": true}},
		req{"/api/bases", map[string]any{"text": text, "background": hard}},
		// A theory whose inconsistency level the view cannot settle.
		req{"/api/theories", map[string]any{"text": benchgen.Pigeonhole(11)}},
		// A default whose consequent is the pigeonhole principle: the
		// Z-ordering cannot settle whether it is ever verified.
		req{"/api/query", map[string]any{"base": text + "\nx -> " + conj,
			"query": "bird -> flies", "semantics": "lex"}},
	)
	checkBudget(t, s, ts, 1, cases)
	// Within the budget the base answers.
	s.cfg.Timeout = hangGuard
	var a answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]any{"theory_id": bv.ID, "query": "penguin -> !flies", "semantics": "p"}, &a); st != 200 || a.Word != "yes" {
		t.Errorf("penguin -> !flies under p after the cancelled queries: %d %+v", st, a)
	}
}
