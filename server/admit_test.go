package server

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestWeightedFirstComeFirstServed checks the semaphore of the bytes in
// flight: a holder takes as many units as it asks, waiters are served in
// order (a small one does not overtake a large one waiting before it), and
// a waiter whose context ends leaves the queue and takes nothing.
func TestWeightedFirstComeFirstServed(t *testing.T) {
	s := newWeighted(10)
	bg := context.Background()
	if err := s.acquire(bg, 6); err != nil {
		t.Fatal(err)
	}
	acquired := func(n int64) chan error {
		ch := make(chan error, 1)
		go func() { ch <- s.acquire(bg, n) }()
		return ch
	}
	large := acquired(6)
	waitQueued(t, s, 1)
	small := acquired(2)
	waitQueued(t, s, 2)
	select {
	case <-small:
		t.Fatal("a small request overtook the large one queued before it")
	case <-time.After(20 * time.Millisecond):
	}
	ctx, cancel := context.WithCancel(bg)
	late := make(chan error, 1)
	go func() { late <- s.acquire(ctx, 1) }()
	waitQueued(t, s, 3)
	cancel()
	if err := <-late; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled waiter: %v", err)
	}
	s.release(6)
	if err := <-large; err != nil {
		t.Fatal(err)
	}
	if err := <-small; err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	used, queued := s.used, s.waiters.Len()
	s.mu.Unlock()
	if used != 8 || queued != 0 {
		t.Fatalf("%d units held, %d waiters; want 8 and none", used, queued)
	}
}

// waitQueued waits until n waiters are queued on s.
func waitQueued(t *testing.T, s *weighted, n int) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		q := s.waiters.Len()
		s.mu.Unlock()
		if q == n {
			return
		}
	}
	t.Fatalf("%d waiters never queued", n)
}

// TestBusyWithinBudget checks that a request that cannot have its share of
// the bytes in flight within its budget is answered 503 without its body
// being worked on, and that the share of a request answered 503 comes back
// when its computation ends, not before.
func TestBusyWithinBudget(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 200 * time.Millisecond, MaxInFlight: minShare})
	release := make(chan struct{})
	s.beforeCompute = func(ctx context.Context) { <-release }
	first := make(chan int, 1)
	go func() {
		st, _ := callErr("POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, nil)
		first <- st
	}()
	waitComputing(t, s)
	var e apiError
	st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, &e)
	if st != 503 || !strings.Contains(e.Message, "busy") {
		t.Errorf("a request while the bytes in flight are taken: %d %+v", st, e)
	}
	if st := <-first; st != 503 {
		t.Errorf("the request held past its budget: %d", st)
	}
	// Answered, the first request's computation still holds the share.
	st = call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, &e)
	if st != 503 || !strings.Contains(e.Message, "busy") {
		t.Errorf("a request while an answered request's computation runs on: %d %+v", st, e)
	}
	close(release)
	for deadline := time.Now().Add(hangGuard); s.inflight.usedNow() > 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the share of the computation answered 503 was not given back when it ended")
		}
	}
	s.beforeCompute = nil
	var a answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, &a); st != 200 || a.Word != "yes" {
		t.Errorf("once the computation ended: %d %+v", st, a)
	}
}

// waitComputing waits until a computation of s runs.
func waitComputing(t *testing.T, s *Server) {
	t.Helper()
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if s.inflight.usedNow() > 0 {
			return
		}
	}
	t.Fatal("no request took its share")
}

// usedNow returns the units held.
func (s *weighted) usedNow() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}

// TestStoredTheoryShare checks that a request on a stored theory takes the
// theory's size of the bytes in flight while it works on it, although its
// body only names the theory: with the bytes in flight about the size of
// the theory, a second query waits for the first and is answered 503 when
// its budget runs out, and the theory keeps a single idle worker.
func TestStoredTheoryShare(t *testing.T) {
	var b strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&b, "0.5: !x%d | y%d\n", i, i)
	}
	s, ts := newTest(t, Config{MaxInFlight: 1 << 20, Timeout: hangGuard})
	var tv theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": b.String()}, &tv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	s.mu.RLock()
	e := s.entries[tv.ID]
	s.mu.RUnlock()
	if e.size < 1<<20 || cap(e.pools[0]) != 1 {
		t.Fatalf("size %d, %d idle workers kept: want at least 1 MiB and one", e.size, cap(e.pools[0]))
	}
	working, release := make(chan struct{}), make(chan struct{})
	s.beforeBatchQuery = func(ctx context.Context, i int) {
		close(working)
		<-release
	}
	first := make(chan int, 1)
	go func() {
		st, _ := callErr("POST", ts.URL+"/api/batch", map[string]any{"theory_id": tv.ID, "queries": []string{"x1 -> y1"}}, nil)
		first <- st
	}()
	select {
	case <-working:
	case st := <-first:
		t.Fatalf("the first query ended before its hook: %d", st)
	}
	s.cfg.Timeout = 200 * time.Millisecond
	var ae apiError
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": tv.ID, "query": "x2 -> y2"}, &ae); st != 503 {
		t.Errorf("a query while another works on the theory: %d %+v, want 503", st, ae)
	}
	close(release)
	<-first
	s.beforeBatchQuery = nil
	s.cfg.Timeout = hangGuard
	var a answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": tv.ID, "query": "x2 -> y2"}, &a); st != 200 || a.Word != "yes" {
		t.Errorf("once the first query is done: %d %+v", st, a)
	}
}
