// Package server serves strata over HTTP: a JSON API over the library
// (theories and default bases loaded from text or from files under one
// directory, entailment with its explanation under each semantics or all
// of them at once, plausible conclusions, most plausible worlds,
// Z-orderings and ranking functions, evaluation on example files and what
// one formula decides, and learning runs followed as Server-Sent Events)
// and an explorer page, embedded, that uses the API.
//
// The server refuses cross-site use: a request whose Host header names
// neither the address it arrived at nor an allowed origin (DNS rebinding), a
// request from a page of another origin, and a POST whose body is not
// declared JSON (a form a page of any origin could send) are answered 403 or
// 415, unless Config.AllowOrigins lets them in.
//
// The server is built for a public deployment: request bodies are capped,
// and so are the bytes of the bodies it works on at once; every request
// runs under a time budget from its arrival, is answered 503 when it runs
// past it, and its work then stops; the numbers of stored theories and of
// concurrent learning runs are capped (a full store forgets the theory
// used least recently), and Close cancels learning runs and
// writes their checkpoints. Reasoners are not safe for concurrent use, so
// each stored theory keeps a pool of them.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config sets the limits and the places a Server uses. The zero value is
// usable: no directory, no checkpoints, the default limits below.
type Config struct {
	// Dir is the directory whose files requests may load by a relative
	// path; no path may leave it, not even through a symbolic link.
	// Empty: loading by path is refused.
	Dir string
	// CheckpointDir is where Close writes the checkpoints of the learning
	// runs it cancels, made when first needed. Empty: none are written.
	CheckpointDir string
	// MaxBody is the largest request body in bytes (default 8 MiB);
	// larger ones are answered 413.
	MaxBody int64
	// MaxInFlight bounds the bytes of request bodies the server works on
	// at once (default 1.5 MaxBody: one body of the largest size and room
	// for smaller ones), and with them the memory the requests' work
	// holds: a request waits for its share (16 KiB, then its body's bytes
	// as they arrive, the size of the stored theory it works on if that is
	// more, and the counters its atleasts compile to) within its budget,
	// and is answered 503 if the budget runs out first.
	MaxInFlight int64
	// Timeout is the time budget of one request (default 10s), from its
	// arrival: reading its body, parsing, loading, compiling and
	// answering. A request that runs past it is answered 503, and its work
	// stops within moments.
	Timeout time.Duration
	// MaxTheories caps the stored theories and default bases (default
	// 256); beyond it, loading one forgets the least recently used.
	MaxTheories int
	// MaxRuns caps the learning runs that run at once (default 2).
	MaxRuns int
	// MaxStoredRuns caps the learning runs kept, finished or not
	// (default 64); the oldest finished run is forgotten first.
	MaxStoredRuns int
	// MaxBatch caps the queries of one batch request (default 100000).
	MaxBatch int
	// AccessLog receives one line per request in the Combined Log Format.
	// Nil: no access log.
	AccessLog io.Writer
	// AllowOrigins are the origins ("https://strata.example.org") of the
	// pages that may use the API besides the server's own, with CORS
	// headers, and whose host names requests may name in their Host header
	// (a deployment behind a proxy under that name). "*" lets every origin
	// and every host in. Empty: only the address a request arrived at
	// (and "localhost" on loopback), and pages served from it.
	AllowOrigins []string
}

func (c *Config) defaults() {
	if c.MaxBody <= 0 {
		c.MaxBody = 8 << 20
	}
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = c.MaxBody + c.MaxBody/2
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.MaxTheories <= 0 {
		c.MaxTheories = 256
	}
	if c.MaxRuns <= 0 {
		c.MaxRuns = 2
	}
	if c.MaxStoredRuns <= 0 {
		c.MaxStoredRuns = 64
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = 100000
	}
}

// Server holds the loaded theories and the learning runs. Its Handler is
// safe for concurrent use.
type Server struct {
	cfg  Config
	root *os.Root // Config.Dir, opened once; nil without one
	// origins are Config.AllowOrigins normalised (scheme://host[:port]),
	// hosts their host names; anyOrigin is the "*" among them.
	origins   map[string]bool
	hosts     map[string]bool
	anyOrigin bool
	handler   http.Handler
	log       *logBuffer // nil without Config.AccessLog
	// inflight holds the bytes of the request bodies being worked on
	// (Config.MaxInFlight; see admit).
	inflight *weighted

	mu      sync.RWMutex
	entries map[string]*entry
	clock   atomic.Int64 // ticks at every store and lookup of an entry (entry.used)
	runs    map[string]*run
	order   []string // run ids, oldest first
	closed  bool

	runCtx    context.Context // parent of every learning run; cancelled by Close
	cancelRun context.CancelFunc
	runWG     sync.WaitGroup

	// beforeCompute, when set (by tests), runs at the start of every
	// computation under the time budget; beforeCommit before a computation
	// stores or starts what its request asked for.
	beforeCompute, beforeCommit func(ctx context.Context)
	// beforeBatchQuery, when set (by tests), runs before the i-th query
	// of a batch on a theory is decided.
	beforeBatchQuery func(ctx context.Context, i int)
	// beforeBuild, when set (by tests), runs before a learning run's
	// learner is built.
	beforeBuild func()
	// poolSize is the number of idle reasoners a theory keeps.
	poolSize int
	// computing counts the computations running, for the tests that check
	// that a request answered 503 stops its work.
	computing atomic.Int64
}

// New returns a Server for cfg. It fails when cfg.Dir cannot be opened.
func New(cfg Config) (*Server, error) {
	cfg.defaults()
	s := &Server{
		cfg:      cfg,
		entries:  make(map[string]*entry),
		runs:     make(map[string]*run),
		poolSize: max(64, 4*runtime.GOMAXPROCS(0)),
		inflight: newWeighted(cfg.MaxInFlight),
	}
	if cfg.Dir != "" {
		root, err := os.OpenRoot(cfg.Dir)
		if err != nil {
			return nil, fmt.Errorf("server: the directory to serve: %w", err)
		}
		s.root = root
	}
	if err := s.parseOrigins(); err != nil {
		return nil, err
	}
	s.runCtx, s.cancelRun = context.WithCancel(context.Background())
	s.handler = s.guard(s.routes())
	if cfg.AccessLog != nil {
		s.log = newLogBuffer(cfg.AccessLog)
		s.handler = accessLog(s.log, s.handler)
	}
	return s, nil
}

// FlushLog writes the access-log lines still pending (they are written in
// batches, at most 100 ms after a request ends) and returns the first error
// writing the log, if any. Close calls it; call it again after the HTTP
// server has shut down, for the requests that ended meanwhile.
func (s *Server) FlushLog() error {
	if s.log == nil {
		return nil
	}
	return s.log.Flush()
}

// Handler returns the HTTP handler of the API and the explorer page.
func (s *Server) Handler() http.Handler { return s.handler }

// Close cancels every learning run, writes the checkpoints of those that
// were running (when Config.CheckpointDir is set) and waits for them until
// ctx is done. New learning runs are refused from then on. It returns the
// first error writing a checkpoint, or ctx's error.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.cancelRun()
	done := make(chan struct{})
	go func() { s.runWG.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if s.root != nil {
		s.root.Close()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	if err := s.FlushLog(); err != nil {
		errs = append(errs, fmt.Errorf("access log: %w", err))
	}
	for _, id := range s.order {
		if err := s.runs[id].checkpointErr; err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	static := staticHandler()
	for _, p := range []string{"GET /{$}", "GET /index.html", "GET /js/", "GET /style.css", "GET /examples/"} {
		mux.Handle(p, static)
	}

	mux.HandleFunc("GET /api/files", s.handleFiles)

	mux.HandleFunc("POST /api/theories", s.admit(s.handleLoadTheory))
	mux.HandleFunc("POST /api/bases", s.admit(s.handleLoadBase))
	mux.HandleFunc("GET /api/theories/{id}", s.handleGetEntry)
	mux.HandleFunc("GET /api/bases/{id}", s.handleGetEntry)
	mux.HandleFunc("GET /api/theories/{id}/text", s.handleEntryText)
	mux.HandleFunc("GET /api/bases/{id}/text", s.handleEntryText)
	mux.HandleFunc("DELETE /api/theories/{id}", s.handleDeleteEntry)
	mux.HandleFunc("DELETE /api/bases/{id}", s.handleDeleteEntry)

	mux.HandleFunc("POST /api/query", s.admit(s.handleQuery))
	mux.HandleFunc("POST /api/batch", s.admit(s.handleBatch))
	mux.HandleFunc("POST /api/conclusions", s.admit(s.handleConclusions))
	mux.HandleFunc("POST /api/world", s.admit(s.handleWorld))
	mux.HandleFunc("POST /api/compare", s.admit(s.handleCompare))
	mux.HandleFunc("POST /api/ranks", s.admit(s.handleRanks))
	mux.HandleFunc("POST /api/coverage", s.admit(s.handleCoverage))
	mux.HandleFunc("POST /api/eval", s.admit(s.handleEval))
	mux.HandleFunc("POST /api/predict", s.admit(s.handlePredict))

	mux.HandleFunc("POST /api/learn", s.admit(s.handleLearnStart))
	mux.HandleFunc("GET /api/learn", s.handleLearnList)
	mux.HandleFunc("GET /api/learn/{id}", s.handleLearnStatus)
	mux.HandleFunc("GET /api/learn/{id}/events", s.handleLearnEvents)
	mux.HandleFunc("POST /api/learn/{id}/cancel", s.handleLearnCancel)
	mux.HandleFunc("GET /api/learn/{id}/theory", s.handleLearnTheory)
	mux.HandleFunc("GET /api/learn/{id}/history.csv", s.handleLearnHistory)
	mux.HandleFunc("GET /api/learn/{id}/checkpoint", s.handleLearnCheckpoint)

	return jsonFallback(mux)
}

// jsonFallback answers the requests that mux has no pattern for (unknown
// paths, wrong methods) with a JSON error instead of ServeMux's plain text.
func jsonFallback(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		switch {
		case pattern != "" && !strings.Contains(pattern, "{"):
			h.ServeHTTP(w, r) // no path values to set: match once, not twice
			return
		case pattern != "":
			mux.ServeHTTP(w, r) // which sets the path values
			return
		}
		rec := &statusRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if allow := rec.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		status := rec.status
		if status < 400 {
			status = http.StatusNotFound
		}
		msg := fmt.Sprintf("no endpoint %s %s", r.Method, r.URL.Path)
		if status == http.StatusMethodNotAllowed {
			msg = fmt.Sprintf("%s does not accept %s", r.URL.Path, r.Method)
		}
		writeError(w, &apiError{Status: status, Message: msg})
	})
}

// statusRecorder keeps the status and headers a handler writes, and drops
// its body.
type statusRecorder struct {
	header http.Header
	status int
}

func (s *statusRecorder) Header() http.Header { return s.header }
func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
}
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return len(b), nil
}

// newID returns a fresh unguessable id with the given prefix.
func newID(prefix string) string {
	var b [8]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// compute runs fn under the request's time budget, for work whose library
// calls do not all take a context (reading a .cl base, evaluation, starting
// learning runs). fn runs in its own goroutine so that the request is
// answered 503 as soon as the budget runs out; fn receives the same context
// and should stop early when it is done (long loops check it), and must keep
// what it stores or starts behind commit, so that a request answered 503
// leaves nothing behind. Until fn returns it keeps the request's share of
// the bytes in flight (admit). A panic in fn is reported as a 500, not a
// crash.
func (s *Server) compute(ctx context.Context, fn func(ctx context.Context) (any, error)) (any, error) {
	ctx, cancel := s.budget(ctx)
	defer cancel()
	g := &gate{}
	ctx = context.WithValue(ctx, gateKey{}, g)
	type result struct {
		v   any
		err error
	}
	ch := make(chan result, 1)
	release := hold(ctx) // the computation may outlive the answer
	go func() {
		defer release()
		v, err := s.run(ctx, fn)
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil && ctx.Err() != nil && errors.Is(r.err, ctx.Err()) {
			return nil, budgetError(ctx.Err())
		}
		return r.v, r.err
	case <-ctx.Done():
		if g.close() {
			// fn stored or started what it was asked for before the
			// budget ran out: its answer is moments away, and a 503
			// would hide a stored theory or a running run.
			r := <-ch
			return r.v, r.err
		}
		return nil, budgetError(ctx.Err())
	}
}

// computeHere runs fn under the request's time budget in the request's own
// goroutine, for work whose library calls all take ctx and stop soon after
// it is done (parsing and compiling a theory, queries on a theory or a
// default base). It spares each request a goroutine, whose stack would grow
// anew for the solver, and a channel.
func (s *Server) computeHere(ctx context.Context, fn func(ctx context.Context) (any, error)) (any, error) {
	ctx, cancel := s.budget(ctx)
	defer cancel()
	v, err := s.run(ctx, fn)
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, budgetError(ctx.Err())
	}
	return v, err
}

// budget returns ctx with the request's time budget: the one admit gave
// it from the request's arrival, or else one from now.
func (s *Server) budget(ctx context.Context) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, s.cfg.Timeout)
}

// run calls fn, turning a panic into a 500.
func (s *Server) run(ctx context.Context, fn func(ctx context.Context) (any, error)) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, &apiError{Status: http.StatusInternalServerError, Message: fmt.Sprintf("internal error: %v", p)}
		}
	}()
	if s.beforeCompute != nil {
		s.beforeCompute(ctx)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.computing.Add(1)
	defer s.computing.Add(-1)
	return fn(ctx)
}

// gate decides, once, between a computation's effect and the 503 of a
// request that ran past its budget: whichever comes first wins.
type gate struct {
	mu                sync.Mutex
	closed, committed bool
}

type gateKey struct{}

// commit runs fn, which stores or starts what the request asked for,
// unless the request has been answered 503 already; then it returns the
// budget's error and fn does not run. Without a gate in ctx (the request
// is answered only when its computation returns) it checks ctx alone.
func (s *Server) commit(ctx context.Context, fn func() error) error {
	if s.beforeCommit != nil {
		s.beforeCommit(ctx)
	}
	g, _ := ctx.Value(gateKey{}).(*gate)
	if g == nil {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return context.DeadlineExceeded
	}
	if err := fn(); err != nil {
		return err
	}
	g.committed = true
	return nil
}

// close shuts the gate on a request that ran past its budget and reports
// whether its computation had committed already.
func (g *gate) close() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	return g.committed
}

func budgetError(err error) *apiError {
	if errors.Is(err, context.DeadlineExceeded) {
		return &apiError{Status: http.StatusServiceUnavailable, Message: "the request ran past its time budget and was cancelled"}
	}
	return &apiError{Status: http.StatusServiceUnavailable, Message: "the request was cancelled"}
}

// parseOrigins checks and normalises Config.AllowOrigins.
func (s *Server) parseOrigins() error {
	s.origins, s.hosts = map[string]bool{}, map[string]bool{}
	for _, o := range s.cfg.AllowOrigins {
		if o == "*" {
			s.anyOrigin = true
			continue
		}
		if err := CheckOrigin(o); err != nil {
			return fmt.Errorf("server: allowed origin: %w", err)
		}
		n, host, _ := normalOrigin(o)
		s.origins[n], s.hosts[host] = true, true
	}
	return nil
}

// CheckOrigin reports whether o can be one of Config.AllowOrigins: an
// origin scheme://host[:port] with scheme http or https, or "*".
func CheckOrigin(o string) error {
	if _, _, ok := normalOrigin(o); !ok && o != "*" {
		return fmt.Errorf("%q: want an origin scheme://host[:port], such as https://strata.example.org, or *", o)
	}
	return nil
}

// normalOrigin returns an origin as browsers send it (lower case, without
// the scheme's default port) and its host name, or false when o is not an
// http or https origin.
func normalOrigin(o string) (origin, host string, ok bool) {
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Path != "" && u.Path != "/" {
		return "", "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", "", false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return "", "", false
	}
	hp := host
	if strings.Contains(host, ":") {
		hp = "[" + host + "]"
	}
	if port != "" && !(scheme == "http" && port == "80" || scheme == "https" && port == "443") {
		hp += ":" + port
	}
	return scheme + "://" + hp, host, true
}

// guard refuses cross-site use of the API (see the package comment): a
// Host that is not the server's, an Origin of another page, a POST that is
// not JSON. For an allowed origin it answers CORS preflights and marks the
// answers readable by that origin.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.anyOrigin {
			next.ServeHTTP(w, r)
			return
		}
		if !s.hostAllowed(r) {
			writeError(w, &apiError{Status: http.StatusForbidden, Message: fmt.Sprintf(
				"Host %q is not this server's address nor the host of an allowed origin", r.Host)})
			return
		}
		cross := false
		if origin := r.Header.Get("Origin"); origin != "" {
			o, _, ok := normalOrigin(origin)
			same := ok && o == "http://"+strings.ToLower(strings.TrimSuffix(r.Host, ":80"))
			cross = ok && !same && s.origins[o]
			if !same && !cross {
				writeError(w, &apiError{Status: http.StatusForbidden, Message: fmt.Sprintf(
					"requests from pages of %q are refused: it is not an allowed origin", origin)})
				return
			}
			if cross {
				h := w.Header()
				h.Set("Access-Control-Allow-Origin", o)
				h.Add("Vary", "Origin")
				if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
					h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
					h.Set("Access-Control-Allow-Headers", "Content-Type")
					h.Set("Access-Control-Max-Age", "600")
					w.WriteHeader(http.StatusNoContent)
					return
				}
			}
		}
		if r.Method == http.MethodPost && !isJSON(r.Header.Get("Content-Type")) {
			writeError(w, &apiError{Status: http.StatusUnsupportedMediaType, Message: fmt.Sprintf(
				"a POST must send Content-Type: application/json, not %q", r.Header.Get("Content-Type"))})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether the request's Host names the address it
// arrived at (its IP, or localhost on loopback) or the host of an allowed
// origin. A page whose name an attacker rebinds to this address (DNS
// rebinding) sends its own name as Host. Without a connection (a handler
// called directly) there is no address to compare with.
func (s *Server) hostAllowed(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if s.hosts[host] {
		return true
	}
	lhost, _, err := net.SplitHostPort(local.String())
	if err != nil {
		return false
	}
	lip := net.ParseIP(lhost)
	if ip := net.ParseIP(host); ip != nil {
		return lip != nil && ip.Equal(lip)
	}
	return host == "localhost" && lip != nil && lip.IsLoopback()
}

// isJSON reports whether a Content-Type is JSON: application/json or
// application/…+json, with any parameters.
func isJSON(ct string) bool {
	t, _, err := mime.ParseMediaType(ct)
	return err == nil && (t == "application/json" || strings.HasPrefix(t, "application/") && strings.HasSuffix(t, "+json"))
}
