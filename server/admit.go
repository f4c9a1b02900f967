package server

import (
	"container/list"
	"context"
	"net/http"
	"sync"
	"sync/atomic"
)

// A request's work is bounded in time and memory from the moment it
// arrives. Its budget (Config.Timeout) runs from its arrival, so that
// reading and decoding its body count against it as parsing, compiling and
// answering do. Its memory is bounded by its body (Config.MaxBody) and the
// work the budget lets it do; the memory of all requests together by
// Config.MaxInFlight, the bytes of request bodies the server works on at
// once: a request takes its share before its body is read, waiting in turn
// (first come, first served) within its budget, and is answered 503 when
// the budget runs out first. A theory or base compiles to some tens of
// bytes per byte of its text, so the bytes in flight bound the memory the
// requests' work holds.

// minShare is the least share of Config.MaxInFlight a request takes, so
// that the number of requests in flight is bounded too.
const minShare = 16 << 10

// admit wraps a handler that computes: it gives the request its budget,
// counted from now, and its share of the bytes in flight, and answers 503
// when the budget runs out before the share is free.
func (s *Server) admit(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		n := r.ContentLength
		if n < 0 || n > s.cfg.MaxBody {
			n = s.cfg.MaxBody // unknown: as much as may come
		}
		n = min(max(n, minShare), s.cfg.MaxInFlight)
		if err := s.inflight.acquire(ctx, n); err != nil {
			w.Header().Set("Retry-After", "1")
			writeError(w, busyError(err))
			return
		}
		t := &share{n: n, w: s.inflight}
		t.refs.Store(1)
		defer t.release()
		h(w, r.WithContext(context.WithValue(ctx, shareKey{}, t)))
	}
}

// share is a request's share of the bytes in flight. The request holds it
// until it is answered, and a computation that runs on in its own goroutine
// past the answer (Server.compute) until the computation ends: the share
// is returned when the last holder lets it go.
type share struct {
	n    int64
	w    *weighted
	refs atomic.Int32
}

type shareKey struct{}

// hold takes another hold on the share of the request of ctx, if any, and
// returns the function that lets it go.
func hold(ctx context.Context) (release func()) {
	t, _ := ctx.Value(shareKey{}).(*share)
	if t == nil {
		return func() {}
	}
	t.refs.Add(1)
	return t.release
}

// shareOf returns the bytes in flight that the request of ctx holds.
func shareOf(ctx context.Context) int64 {
	if t, _ := ctx.Value(shareKey{}).(*share); t != nil {
		return t.n
	}
	return 0
}

func (t *share) release() {
	if t.refs.Add(-1) == 0 {
		t.w.release(t.n)
	}
}

func busyError(err error) *apiError {
	e := budgetError(err)
	e.Message = "the server is busy with other requests and " + e.Message
	return e
}

// weighted is a semaphore of size units whose holders take any number of
// them, first come, first served: a large request is not starved by a
// stream of small ones.
type weighted struct {
	mu      sync.Mutex
	size    int64
	used    int64
	waiters list.List // of *waiter
}

type waiter struct {
	n     int64
	ready chan struct{}
}

func newWeighted(size int64) *weighted { return &weighted{size: size} }

// acquire takes n units, waiting until they are free or ctx is done; then
// it takes nothing and returns ctx's error. n must not exceed the size.
func (s *weighted) acquire(ctx context.Context, n int64) error {
	s.mu.Lock()
	if s.waiters.Len() == 0 && s.size-s.used >= n {
		s.used += n
		s.mu.Unlock()
		return nil
	}
	wt := &waiter{n: n, ready: make(chan struct{})}
	elem := s.waiters.PushBack(wt)
	s.mu.Unlock()
	select {
	case <-wt.ready:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		select {
		case <-wt.ready: // granted meanwhile: give it back
			s.used -= n
		default:
			s.waiters.Remove(elem)
		}
		s.grant()
		s.mu.Unlock()
		return ctx.Err()
	}
}

// release returns n units.
func (s *weighted) release(n int64) {
	s.mu.Lock()
	s.used -= n
	s.grant()
	s.mu.Unlock()
}

// grant gives their units to the waiters at the front of the queue while
// there are enough. The caller holds s.mu.
func (s *weighted) grant() {
	for e := s.waiters.Front(); e != nil; e = s.waiters.Front() {
		wt := e.Value.(*waiter)
		if s.size-s.used < wt.n {
			return
		}
		s.used += wt.n
		s.waiters.Remove(e)
		close(wt.ready)
	}
}
