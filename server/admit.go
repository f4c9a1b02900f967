package server

import (
	"container/list"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// A request's work is bounded in time and memory from the moment it
// arrives. Its budget (Config.Timeout) runs from its arrival, so that
// reading and decoding its body count against it as parsing, compiling and
// answering do: the body's read deadline is the budget's end, and a body
// still arriving then is answered 503. Its memory is bounded by its body
// (Config.MaxBody) and the work the budget lets it do; the memory of all
// requests together by Config.MaxInFlight, the bytes of request bodies the
// server works on at once. A request takes a small share before its body
// is read and more as its body arrives (shareBody), waiting in turn (first
// come, first served) within its budget, and is answered 503 when the
// budget runs out first: a body that trickles in holds what it has sent,
// not what it announced, so that slow uploads do not keep the bytes in
// flight from the requests that arrive whole. A theory or base compiles to
// some tens of bytes per byte of its text, so the bytes in flight bound the
// memory the requests' work holds.

// afterAnswer is how long the connection of an answered request may still
// be read, for net/http to drain the rest of its body.
const afterAnswer = time.Second

// minShare is the least share of Config.MaxInFlight a request takes, so
// that the number of requests in flight is bounded too.
const minShare = 16 << 10

// admit wraps a handler that computes: it gives the request its budget,
// counted from now, as the deadline of its context and of reading its
// body, and its first share of the bytes in flight, and answers 503 when
// the budget runs out before the share is free.
func (s *Server) admit(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		rc := http.NewResponseController(w)
		if d, ok := ctx.Deadline(); ok {
			// A body that has not arrived by the budget's end is cut
			// there; nothing else reads the connection meanwhile.
			_ = rc.SetReadDeadline(d)
		}
		// Answered, the connection is read a little longer, so that what
		// is left of the body is drained or the connection half-closed
		// (net/http) rather than reset under the answer.
		defer func() { _ = rc.SetReadDeadline(time.Now().Add(afterAnswer)) }()
		n := min(minShare, s.cfg.MaxInFlight) // the rest as the body arrives
		if err := s.inflight.acquire(ctx, n); err != nil {
			w.Header().Set("Retry-After", "1")
			writeError(w, busyError(err))
			return
		}
		t := &share{w: s.inflight}
		t.n.Store(n)
		t.refs.Store(1)
		defer t.release()
		r.Body = &shareBody{ReadCloser: r.Body, ctx: ctx, share: t, length: r.ContentLength, max: s.cfg.MaxBody}
		h(w, r.WithContext(context.WithValue(ctx, shareKey{}, t)))
	}
}

// shareBody is a request body that takes more of the bytes in flight for
// its share as it arrives, before it reads past what its share holds:
// doubling it, up to the body's announced length or Config.MaxBody.
type shareBody struct {
	io.ReadCloser
	ctx    context.Context
	share  *share
	read   int64
	length int64 // ContentLength, -1 unknown
	max    int64
}

func (b *shareBody) Read(p []byte) (int, error) {
	held := b.share.n.Load()
	if b.read+int64(len(p)) > held {
		want := min(max(held, minShare), b.max-held)
		if b.length >= 0 {
			want = min(want, b.length-held)
		}
		want = min(want, b.share.w.size-held)
		if want > 0 {
			if err := b.share.w.acquire(b.ctx, want); err != nil {
				return 0, err
			}
			held = b.share.n.Add(want)
		}
		if room := held - b.read; room < int64(len(p)) && room > 0 {
			p = p[:room]
		}
	}
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	return n, err
}

// share is a request's share of the bytes in flight. The request holds it
// until it is answered, and a computation that runs on in its own goroutine
// past the answer (Server.compute) until the computation ends: the share
// is returned when the last holder lets it go.
type share struct {
	n    atomic.Int64
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
		return t.n.Load()
	}
	return 0
}

func (t *share) release() {
	if t.refs.Add(-1) == 0 {
		t.w.release(t.n.Load())
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
