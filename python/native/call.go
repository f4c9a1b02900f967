package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/strata-logic/strata/logic"
)

// main is empty: the package is built with -buildmode=c-shared, and its
// entry points are the exported functions of main.go (which need cgo; the
// rest builds and tests without).
func main() {}

// method answers one request (its JSON) under ctx.
type method func(ctx context.Context, req []byte) (any, error)

// methods are the calls strata_call dispatches, by name.
var methods = map[string]method{}

// response is what strata_call answers: a result or an error.
type response struct {
	Result any        `json:"result,omitempty"`
	Error  *callError `json:"error,omitempty"`
}

// callError is an error as the Python side raises it: kind "parse" (a
// positioned error: a theory, a rule, a query or a table that cannot be
// read, with its file, line and column), "value" (a request the library
// refuses), "cancelled" (the job was cancelled), "panic" (a bug, recovered)
// or "request" (a request the ABI cannot decode: a bug of the caller).
type callError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	// Detail is the message without its position, for the Python side to
	// say the position its own way (a table's row rather than its line).
	Detail string `json:"detail,omitempty"`
}

// call runs method name on req in job's context and encodes the answer.
// A panic becomes an error of kind "panic" with its stack.
func call(name string, req []byte, job int64) (out []byte) {
	defer func() {
		if p := recover(); p != nil {
			out = encode(response{Error: &callError{Kind: "panic", Message: fmt.Sprintf("strata: internal error: %v\n%s", p, debug.Stack())}})
		}
	}()
	m, ok := methods[name]
	if !ok {
		return encode(response{Error: &callError{Kind: "request", Message: fmt.Sprintf("strata: no method %q", name)}})
	}
	ctx, done := jobs.context(job)
	defer done()
	res, err := m(ctx, req)
	if err != nil {
		return encode(response{Error: describe(ctx, err)})
	}
	return encode(response{Result: res})
}

func encode(r response) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		b, _ = json.Marshal(response{Error: &callError{Kind: "panic", Message: "strata: cannot encode the answer: " + err.Error()}})
	}
	return b
}

// describe classifies err.
func describe(ctx context.Context, err error) *callError {
	var re requestError
	var pe *logic.ParseError
	var list logic.ErrorList
	switch {
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ctx.Err())):
		return &callError{Kind: "cancelled", Message: "strata: interrupted"}
	case errors.As(err, &re):
		return &callError{Kind: "request", Message: err.Error()}
	case errors.As(err, &list) && len(list) > 0:
		pe = list[0]
		fallthrough
	case pe != nil || errors.As(err, &pe):
		return &callError{Kind: "parse", Message: err.Error(), File: pe.Pos.File, Line: pe.Pos.Line, Column: pe.Pos.Col, Detail: pe.Err.Error()}
	}
	return &callError{Kind: "value", Message: err.Error()}
}

// requestError is a request that cannot be decoded.
type requestError struct{ error }

// decode reads a request into v, strictly: an unknown field is the
// caller's bug, not something to ignore.
func decode(req []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(req))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return requestError{fmt.Errorf("strata: bad request: %w", err)}
	}
	return nil
}

// registry holds contexts by job and reasoners by handle, for calls from
// any thread.
type registry struct {
	mu   sync.Mutex
	next int64
	jobs map[int64]context.CancelFunc
	ctxs map[int64]context.Context
	objs map[int64]*handle
}

var (
	jobs    = &registry{}
	handles = jobs
)

// begin registers a new job and returns its id.
func (r *registry) begin() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.jobs == nil {
		r.jobs, r.ctxs = map[int64]context.CancelFunc{}, map[int64]context.Context{}
	}
	r.next++
	ctx, cancel := context.WithCancel(context.Background())
	r.jobs[r.next], r.ctxs[r.next] = cancel, ctx
	return r.next
}

// context returns job's context and the function that forgets the job when
// its call ends (a job serves one call); job 0, or a job not begun, runs
// without cancellation.
func (r *registry) context(job int64) (context.Context, func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ctx, ok := r.ctxs[job]
	if !ok {
		return context.Background(), func() {}
	}
	return ctx, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if cancel, ok := r.jobs[job]; ok {
			cancel()
			delete(r.jobs, job)
			delete(r.ctxs, job)
		}
	}
}

// cancel cancels job, if it is running or begun.
func (r *registry) cancel(job int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cancel, ok := r.jobs[job]; ok {
		cancel()
	}
}

// handle is a compiled object the Python side holds by number; its calls
// take turns (a reasoner is not safe for concurrent use).
type handle struct {
	mu  sync.Mutex
	obj any
}

// keep registers obj and returns its handle.
func (r *registry) keep(obj any) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.objs == nil {
		r.objs = map[int64]*handle{}
	}
	r.next++
	r.objs[r.next] = &handle{obj: obj}
	return r.next
}

// use runs f with the object of handle h, alone.
func (r *registry) use(h int64, f func(obj any) (any, error)) (any, error) {
	r.mu.Lock()
	o, ok := r.objs[h]
	r.mu.Unlock()
	if !ok {
		return nil, requestError{fmt.Errorf("strata: no handle %d (released?)", h)}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return f(o.obj)
}

// release forgets handle h.
func (r *registry) release(h int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.objs, h)
}

// live returns the number of jobs and handles held, for the tests.
func (r *registry) live() (int, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.jobs), len(r.objs)
}
