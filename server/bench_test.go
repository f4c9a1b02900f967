package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// benchServer serves the theory of possibilistic's BenchmarkEntailsGiven
// over loopback TCP and returns a keep-alive client, the theory's id and
// its queries as text.
func benchServer(b *testing.B) (*http.Client, string, string, []string) {
	b.Helper()
	return benchServerWith(b, Config{})
}

// benchServerWith is benchServer with the server's configuration cfg.
func benchServerWith(b *testing.B, cfg Config) (*http.Client, string, string, []string) {
	b.Helper()
	_, text, queries := benchTheory(4096)
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	// As strata serve does; GOGC=100 in the environment measures without.
	prev := TuneGC()
	b.Cleanup(func() { debug.SetGCPercent(prev) })
	url := serveLoopback(b, s.Handler())
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}}
	b.Cleanup(client.CloseIdleConnections)
	body, _ := json.Marshal(map[string]string{"text": text})
	res, err := client.Post(url+"/api/theories", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	var tv theoryView
	json.NewDecoder(res.Body).Decode(&tv)
	res.Body.Close()
	if res.StatusCode != 201 {
		b.Fatalf("load: %d", res.StatusCode)
	}
	return client, url, tv.ID, queries
}

// serveLoopback serves h on a loopback port as strata serve does (an
// http.Server with the timeouts of cmd/strata/serve.go) and returns its
// URL. httptest.Server is not used: it takes a mutex of its own on every
// connection's state change, twice per request, on which the goroutines of
// 64 clients' connections queued (0.35 s blocked per second of
// BenchmarkLatency64RawClient in a trace), a cost strata serve does not
// have.
func serveLoopback(b *testing.B, h http.Handler) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute}
	go hs.Serve(ln)
	b.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String()
}

// cpuTime returns the CPU time (user and system) the process has used: the
// server and the load-generating clients together. On a loaded machine it
// grows far less than the wall-clock time, so it says what the queries cost
// when the throughput measured is the scheduler's.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per query since cpu0.
func reportCPU(b *testing.B, cpu0 time.Duration, queries int) {
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Microsecond)/float64(queries), "cpu-µs/query")
}

// post sends one request and reads the whole answer, so that the
// connection is reused.
func post(b *testing.B, client *http.Client, url string, body []byte) {
	res, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		b.Error(err)
		return
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		b.Errorf("status %d", res.StatusCode)
	}
}

func queryBodies(id string, queries []string, semantics string, explain bool) [][]byte {
	bodies := make([][]byte, len(queries))
	for i, q := range queries {
		bodies[i], _ = json.Marshal(map[string]any{"theory_id": id, "query": q, "semantics": semantics, "explain": explain})
	}
	return bodies
}

// BenchmarkQuery measures single queries, POST /api/query, from as many
// keep-alive clients as GOMAXPROCS (b.RunParallel).
func BenchmarkQuery(b *testing.B) {
	for _, c := range []struct {
		name      string
		semantics string
		explain   bool
	}{
		{"poss", "poss", false},
		{"poss-explain", "poss", true},
		{"lex-explain", "lex", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			client, url, id, queries := benchServer(b)
			bodies := queryBodies(id, queries, c.semantics, c.explain)
			var next atomic.Int64
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					post(b, client, url+"/api/query", bodies[next.Add(1)%int64(len(bodies))])
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "queries/s")
			reportCPU(b, cpu0, b.N)
		})
	}
}

// BenchmarkBatch measures POST /api/batch with 64 queries per request.
func BenchmarkBatch(b *testing.B) {
	const per = 64
	client, url, id, queries := benchServer(b)
	var bodies [][]byte
	for i := 0; i+per <= len(queries); i += per {
		body, _ := json.Marshal(map[string]any{"theory_id": id, "queries": queries[i : i+per]})
		bodies = append(bodies, body)
	}
	var next atomic.Int64
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			post(b, client, url+"/api/batch", bodies[next.Add(1)%int64(len(bodies))])
		}
	})
	b.ReportMetric(float64(b.N*per)/time.Since(start).Seconds(), "queries/s")
	reportCPU(b, cpu0, b.N*per)
}

// BenchmarkLatency64 runs 64 concurrent keep-alive clients, each sending
// single explained poss queries one after another, and reports the 50th
// and 99th percentile latencies.
func BenchmarkLatency64(b *testing.B) {
	client, url, id, queries := benchServer(b)
	latency64(b, id, queries, true, func(int) (func(body []byte) error, error) {
		return func(body []byte) error { post(b, client, url+"/api/query", body); return nil }, nil
	})
}

// BenchmarkLatency64RawClient is BenchmarkLatency64 with rawClient for
// net/http's Client (see BenchmarkQueryRawClient), for plain queries (the
// entailment of BenchmarkEntailsGiven, the measure) and explained
// ones.
func BenchmarkLatency64RawClient(b *testing.B) {
	for _, c := range []struct {
		name         string
		explain, log bool
	}{{"poss", false, false}, {"poss-explain", true, false}, {"poss-logged", false, true}} {
		explain := c.explain
		b.Run(c.name, func(b *testing.B) {
			var cfg Config
			if c.log { // as strata serve 2>access.log writes it
				f, err := os.Create(filepath.Join(b.TempDir(), "access.log"))
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { f.Close() })
				cfg.AccessLog = f
			}
			_, url, id, queries := benchServerWith(b, cfg)
			latency64(b, id, queries, explain, func(int) (func(body []byte) error, error) {
				rc, err := dialRaw(b, url)
				if err != nil {
					return nil, err
				}
				return func(body []byte) error { return rc.post("/api/query", body) }, nil
			})
		})
	}
}

// latency64 runs 64 clients made by dial, each posting single poss queries
// (explained or not) one after another, and reports the latencies'
// percentiles.
func latency64(b *testing.B, id string, queries []string, explain bool, dial func(c int) (func(body []byte) error, error)) {
	const clients = 64
	bodies := queryBodies(id, queries, "poss", explain)
	posts := make([]func([]byte) error, clients)
	for c := range posts {
		p, err := dial(c)
		if err != nil {
			b.Fatal(err)
		}
		posts[c] = p
	}
	lat := make([][]time.Duration, clients)
	var next atomic.Int64
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				t0 := time.Now()
				if err := posts[c](bodies[(int(next.Load())+c)%len(bodies)]); err != nil {
					b.Error(err)
					return
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := slices.Concat(lat...)
	slices.Sort(all)
	if len(all) == 0 {
		return
	}
	pct := func(p float64) float64 {
		return float64(all[min(len(all)-1, int(p*float64(len(all))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "queries/s")
	// cores is the CPU the process had: with 64 clients, the mean latency
	// is 64 divided by the queries/s (Little's law), that is the CPU per
	// query times 64 divided by cores, so a p99 under 5 ms needs both little
	// CPU per query and the cores to run it.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(elapsed), "cores")
	reportCPU(b, cpu0, len(all))
}

// BenchmarkDecide measures what one query costs without HTTP: parsing the
// query and deciding it on a pooled worker, as handleQuery does.
func BenchmarkDecide(b *testing.B) {
	for _, c := range []struct {
		name    string
		explain bool
	}{{"poss", false}, {"poss-explain", true}} {
		b.Run(c.name, func(b *testing.B) {
			th, _, queries := benchTheory(4096)
			s, _ := New(Config{})
			e := s.newEntry(kindTheory, "bench", th, nil, nil)
			q, err := e.querier("poss")
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				e.with(context.Background(), e.usage("poss", c.explain), func(w *worker) (any, error) { return q(context.Background(), w, queries[i%len(queries)], c.explain) })
			}
		})
	}
}

// BenchmarkHandler measures POST /api/query through the handler without
// the network (httptest.NewRecorder): what the server adds to the
// library's decision, before the HTTP round trip; logged, with the access
// log that strata serve writes (to io.Discard here).
func BenchmarkHandler(b *testing.B) {
	for _, c := range []struct {
		name string
		log  io.Writer
	}{{"plain", nil}, {"logged", io.Discard}} {
		b.Run(c.name, func(b *testing.B) {
			_, text, queries := benchTheory(4096)
			s, err := New(Config{AccessLog: c.log})
			if err != nil {
				b.Fatal(err)
			}
			e, err := s.parseTheory(context.Background(), source{Text: text})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.store(context.Background(), e); err != nil {
				b.Fatal(err)
			}
			bodies := queryBodies(e.id, queries, "poss", false)
			h := s.Handler()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest("POST", "/api/query", bytes.NewReader(bodies[i%len(bodies)]))
				req.Header.Set("Content-Type", "application/json")
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body)
				}
			}
		})
	}
}

// rawClient is a minimal HTTP/1.1 keep-alive client, as load generators
// such as wrk are: it writes each request whole and reads the answer by its
// Content-Length, so that little of the CPU measured is the client's.
type rawClient struct {
	conn net.Conn
	r    *bufio.Reader
	req  []byte
}

func dialRaw(b *testing.B, url string) (*rawClient, error) {
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		return nil, err
	}
	b.Cleanup(func() { conn.Close() })
	return &rawClient{conn: conn, r: bufio.NewReader(conn)}, nil
}

// post sends body to path and reads the answer, failing unless it is 200.
func (c *rawClient) post(path string, body []byte) error {
	c.req = append(c.req[:0], "POST "+path+" HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: "...)
	c.req = strconv.AppendInt(c.req, int64(len(body)), 10)
	c.req = append(c.req, "\r\n\r\n"...)
	c.req = append(c.req, body...)
	if _, err := c.conn.Write(c.req); err != nil {
		return err
	}
	status, err := c.r.ReadSlice('\n')
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(status, []byte("HTTP/1.1 200 ")) {
		return fmt.Errorf("status %q", status)
	}
	n := -1
	for {
		line, err := c.r.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(line) <= 2 {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte("Content-Length: ")); ok {
			n, _ = strconv.Atoi(string(bytes.TrimSpace(v)))
		}
	}
	if n < 0 {
		return fmt.Errorf("no Content-Length")
	}
	_, err = c.r.Discard(n)
	return err
}

// BenchmarkQueryRawClient measures single queries as BenchmarkQuery does,
// but from rawClient instead of net/http's Client (about a third of the
// CPU in BenchmarkQuery): closer to what the server alone can answer when
// its clients are elsewhere.
func BenchmarkQueryRawClient(b *testing.B) {
	for _, c := range []struct {
		name      string
		semantics string
		explain   bool
	}{
		{"poss", "poss", false},
		{"poss-explain", "poss", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			_, url, id, queries := benchServer(b)
			bodies := queryBodies(id, queries, c.semantics, c.explain)
			var next atomic.Int64
			b.ResetTimer()
			start, cpu0 := time.Now(), cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				rc, err := dialRaw(b, url)
				if err != nil {
					b.Error(err)
					return
				}
				for pb.Next() {
					if err := rc.post("/api/query", bodies[next.Add(1)%int64(len(bodies))]); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "queries/s")
			reportCPU(b, cpu0, b.N)
		})
	}
}
