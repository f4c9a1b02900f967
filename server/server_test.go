package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

const penguin = "1: !penguin | bird\n1: !penguin | !flies\n\n0.5: !bird | flies\n0.5: !bird | wings\n"

func newTest(t testing.TB, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		ts.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Close(ctx)
	})
	return s, ts
}

// testClient keeps connections alive for many concurrent clients.
var testClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}}

// call sends a request with a JSON body (a string is sent as is) and
// decodes the JSON answer into out (when not nil); it stops the test on a
// transport or decoding error, so only the test goroutine may use it.
func call(t testing.TB, method, url string, body any, out any) int {
	t.Helper()
	st, err := callErr(method, url, body, out)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// callErr is call that returns its error, for other goroutines.
func callErr(method, url string, body any, out any) (int, error) {
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return 0, err
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		return 0, err
	}
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := testClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s %s: %d, not JSON: %v\n%s", method, url, res.StatusCode, err, data)
		}
	}
	return res.StatusCode, nil
}

// wantError checks an error answer: its status, and its position when
// line > 0.
func wantError(t *testing.T, status int, e apiError, wantStatus, line, col int, contains string) {
	t.Helper()
	if status != wantStatus || e.Status != wantStatus {
		t.Errorf("status %d (body %d), want %d: %+v", status, e.Status, wantStatus, e)
	}
	if line > 0 && (e.Line != line || e.Column != col) {
		t.Errorf("position %d:%d, want %d:%d (%s)", e.Line, e.Column, line, col, e.Message)
	}
	if !strings.Contains(e.Message, contains) {
		t.Errorf("error %q does not mention %q", e.Message, contains)
	}
}

func TestQueryContract(t *testing.T) {
	_, ts := newTest(t, Config{})
	var yes, no answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> !flies", "semantics": "poss"}, &yes); st != 200 {
		t.Fatalf("status %d", st)
	}
	if yes.Word != "yes" || yes.DecidingLevel == nil || *yes.DecidingLevel != 0 || yes.DecidingWeight != 1 || yes.Inconsistency != 0.5 {
		t.Errorf("penguin -> !flies: %+v", yes)
	}
	// The minimal support of !flies given penguin is the one formula
	// !penguin | !flies; the level of weight 0.5 is drowned.
	x := yes.Explanation
	if x == nil || len(x.Entailing) != 1 || x.Entailing[0].Formula != "!penguin | !flies" || fmt.Sprint(x.Drowned) != "[1]" {
		t.Errorf("explanation of penguin -> !flies: %+v", x)
	}
	call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> flies"}, &no)
	if no.Word != "no" || no.DecidingLevel != nil || no.Semantics != "poss" || no.Explanation == nil || len(no.Explanation.Counter) == 0 {
		t.Errorf("penguin -> flies: %+v", no)
	}
}

// TestQueryEqualsLibrary compares every semantics' answers with the
// library's on every query over a few atoms.
func TestQueryEqualsLibrary(t *testing.T) {
	_, ts := newTest(t, Config{})
	var tv theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin, "name": "penguin.theory"}, &tv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	th := readTheory(t, penguin)
	rs := libReasoner(t, th)
	lits := []string{"penguin", "!penguin", "bird", "!bird", "flies", "!flies", "wings", "!wings"}
	var queries []string
	for _, a := range append([]string{""}, lits...) {
		for _, b := range lits {
			queries = append(queries, a+" -> "+b)
		}
	}
	for _, sem := range possibilistic.AllSemantics {
		var bv batchView
		if st := call(t, "POST", ts.URL+"/api/batch", map[string]any{"theory_id": tv.ID, "queries": queries, "semantics": sem.String()}, &bv); st != 200 {
			t.Fatalf("batch: %d", st)
		}
		for i, q := range queries {
			r, err := logic.ParseRule(th.Vocab, q)
			if err != nil {
				t.Fatal(err)
			}
			want := rs.decide(sem, r.Antecedent, r.Consequent)
			got := bv.Answers[i]
			if got.Entailed != want.Entailed || got.DecidingWeight != want.Necessity || got.Inconsistency != want.Inconsistency ||
				!sameLevel(got.DecidingLevel, want) {
				t.Errorf("%s %s: got %+v, want %+v", sem, q, got, want)
			}
			var single answerView
			call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": tv.ID, "query": q, "semantics": sem.String()}, &single)
			if single.Entailed != want.Entailed || single.DecidingWeight != want.Necessity || !sameLevel(single.DecidingLevel, want) ||
				!slices.Equal(drownedOrPartly(single.Explanation), want.SetAside) {
				t.Errorf("%s %s: single query %+v %+v, want %+v", sem, q, single, single.Explanation, want)
			}
		}
	}
}

func TestMalformedJSON(t *testing.T) {
	_, ts := newTest(t, Config{})
	for _, c := range []struct {
		body      string
		line, col int
		contains  string
	}{
		{`{"theory": }`, 1, 12, "malformed JSON"},
		{"{\n  \"theory\": \"1: a\",\n  \"query\" \"a\"\n}", 3, 11, "malformed JSON"},
		{``, 1, 1, "empty"},
		{`{"theory": "1: a", "query": "a"`, 1, 31, "malformed JSON"},
		{`{"theory": 3, "query": "a"}`, 1, 12, "cannot unmarshal number"},
		{`{"theory": "1: a", "qeury": "a"}`, 0, 0, "unknown field"},
		{`{"theory": "1: a", "query": "a"} {}`, 1, 34, "more than one value"},
	} {
		var e apiError
		st := call(t, "POST", ts.URL+"/api/query", c.body, &e)
		wantError(t, st, e, 400, c.line, c.col, c.contains)
		if e.Field != "body" {
			t.Errorf("%q: field %q, want body", c.body, e.Field)
		}
	}
}

func TestMalformedInputPositions(t *testing.T) {
	_, ts := newTest(t, Config{})
	var e apiError
	st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": "1: !penguin | bird\n0.5: !bird | (flies", "name": "p.theory"}, &e)
	wantError(t, st, e, 400, 2, 20, "expected ')'")
	if e.Field != "theory" || e.File != "p.theory" {
		t.Errorf("field %q file %q", e.Field, e.File)
	}
	st = call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> (flies"}, &e)
	wantError(t, st, e, 400, 1, 18, "expected ')'")
	st = call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": "2: a\n", "query": "a"}, &e)
	wantError(t, st, e, 400, 1, 1, "weight")
	st = call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "a", "semantics": "drown"}, &e)
	wantError(t, st, e, 400, 0, 0, "unknown semantics")
	st = call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": "bird -> flies\npenguin -> \n"}, &e)
	wantError(t, st, e, 400, 2, 12, "consequent")
	st = call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": "signature a, b\nconditionals\nkb{ (a|b), (a| }", "name": "k.cl"}, &e)
	wantError(t, st, e, 400, 3, 16, "expected a formula")
	st = call(t, "POST", ts.URL+"/api/eval", map[string]string{"theory": penguin, "pos": "bird -> flies\nbird -> (", "neg": "bird -> !flies"}, &e)
	wantError(t, st, e, 400, 2, 10, "expected")
	if e.Field != "pos" {
		t.Errorf("eval error field %q, want pos", e.Field)
	}
	// A batch answers the good queries and reports the bad one in place.
	var bv batchView
	call(t, "POST", ts.URL+"/api/batch", map[string]any{"theory": penguin, "queries": []string{"penguin -> bird", "penguin -> (", "bird -> flies"}}, &bv)
	if bv.Yes != 2 || bv.Errors != 1 || bv.Answers[1].Error == nil || bv.Answers[1].Error.Column != 13 {
		t.Errorf("batch with a bad query: %+v, error %+v", bv, bv.Answers[1].Error)
	}
}

func TestOversizedBody(t *testing.T) {
	_, ts := newTest(t, Config{MaxBody: 1024})
	big := map[string]string{"theory": penguin + strings.Repeat("# padding\n", 200), "query": "penguin -> bird"}
	var e apiError
	st := call(t, "POST", ts.URL+"/api/query", big, &e)
	wantError(t, st, e, 413, 0, 0, "larger than the limit of 1024 bytes")
	var a answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, &a); st != 200 || a.Word != "yes" {
		t.Errorf("a small body: %d %+v", st, a)
	}
}

func TestUnknownIDsAndRoutes(t *testing.T) {
	_, ts := newTest(t, Config{})
	var tv theoryView
	call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, &tv)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/query", `{"theory_id": "t-0000", "query": "a"}`},
		{"GET", "/api/theories/t-0000", ""},
		{"GET", "/api/bases/" + tv.ID, ""}, // a theory is not a base
		{"DELETE", "/api/theories/t-0000", ""},
		{"GET", "/api/learn/r-0000", ""},
		{"GET", "/api/learn/r-0000/events", ""},
		{"POST", "/api/learn/r-0000/cancel", ""},
		{"GET", "/api/learn/r-0000/history.csv", ""},
		{"GET", "/api/nothing", ""},
	} {
		var e apiError
		st := call(t, c.method, ts.URL+c.path, c.body, &e)
		if st != 404 || e.Status != 404 || e.Message == "" {
			t.Errorf("%s %s: %d %+v", c.method, c.path, st, e)
		}
	}
	var e apiError
	if st := call(t, "GET", ts.URL+"/api/query", "", &e); st != 405 || !strings.Contains(e.Message, "does not accept GET") {
		t.Errorf("GET /api/query: %d %+v", st, e)
	}
	if st := call(t, "DELETE", ts.URL+"/api/theories/"+tv.ID, "", nil); st != 204 {
		t.Errorf("delete: %d", st)
	}
	if st := call(t, "GET", ts.URL+"/api/theories/"+tv.ID, "", &e); st != 404 {
		t.Errorf("deleted theory: %d", st)
	}
}

func TestPathsUnderDir(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "served")
	for _, d := range []string{dir, filepath.Join(dir, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, "sub", "penguin.theory"), penguin)
	write(filepath.Join(top, "secret.theory"), "1: secret\n")
	if err := os.Symlink("../secret.theory", filepath.Join(dir, "escape.theory")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/penguin.theory", filepath.Join(dir, "inside.theory")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(dir, "up")); err != nil {
		t.Fatal(err)
	}
	_, ts := newTest(t, Config{Dir: dir})
	for _, p := range []string{"sub/penguin.theory", "inside.theory", "sub/../sub/penguin.theory"} {
		var tv theoryView
		if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"path": p}, &tv); st != 201 || tv.Formulas != 4 {
			t.Errorf("%s: %d %+v", p, st, tv)
		}
	}
	for _, p := range []string{"../secret.theory", "/etc/passwd", filepath.Join(top, "secret.theory"), "escape.theory", "up/secret.theory", "sub/../../secret.theory"} {
		var e apiError
		st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"path": p}, &e)
		if st != 403 || e.Field != "path" || strings.Contains(e.Message, "secret\n") {
			t.Errorf("%s: %d %+v", p, st, e)
		}
		st = call(t, "POST", ts.URL+"/api/eval", map[string]string{"theory": penguin, "pos_path": p, "neg": "a -> b"}, &e)
		if st != 403 {
			t.Errorf("eval pos_path %s: %d %+v", p, st, e)
		}
	}
	var e apiError
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"path": "missing.theory"}, &e); st != 404 {
		t.Errorf("missing file: %d %+v", st, e)
	}
	var files struct {
		Files []fileView `json:"files"`
	}
	call(t, "GET", ts.URL+"/api/files", "", &files)
	for _, f := range files.Files {
		if strings.Contains(f.Path, "secret") || strings.HasPrefix(f.Path, "up") {
			t.Errorf("listed %s", f.Path)
		}
	}
	// Without --dir no path is read.
	_, ts2 := newTest(t, Config{})
	if st := call(t, "POST", ts2.URL+"/api/theories", map[string]string{"path": "sub/penguin.theory"}, &e); st != 403 {
		t.Errorf("no dir: %d %+v", st, e)
	}
}

func TestTimeBudget(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 50 * time.Millisecond})
	// A computation that runs past the budget; it stops only when its
	// context is cancelled.
	s.beforeCompute = func(ctx context.Context) { <-ctx.Done() }
	// The computation never ends by itself: a 503 for the time budget is
	// the budget's doing.
	var e apiError
	st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "penguin -> bird"}, &e)
	wantError(t, st, e, 503, 0, 0, "time budget")

	// A batch checks its context between queries: with the budget spent
	// before it starts, it stops at once.
	qs := make([]string, 1000)
	for i := range qs {
		qs[i] = "penguin -> bird"
	}
	st = call(t, "POST", ts.URL+"/api/batch", map[string]any{"theory": penguin, "queries": qs}, &e)
	wantError(t, st, e, 503, 0, 0, "time budget")
}

// TestClientCancel checks that a request whose client goes away is
// cancelled through its context.
func TestClientCancel(t *testing.T) {
	s, ts := newTest(t, Config{Timeout: 10 * time.Second})
	saw := make(chan error, 1)
	started := make(chan struct{})
	s.beforeCompute = func(ctx context.Context) {
		close(started)
		select {
		case <-ctx.Done():
			saw <- ctx.Err()
		case <-time.After(hangGuard):
			saw <- nil
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/query", strings.NewReader(`{"theory": "1: a", "query": "a"}`))
	req.Header.Set("Content-Type", "application/json")
	go func() {
		<-started
		cancel()
	}()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the cancelled request succeeded")
	}
	if err := <-saw; err != context.Canceled {
		t.Errorf("the computation saw %v, want context.Canceled", err)
	}
}

// TestStoreForgetsLeastRecentlyUsed: a full store makes room by forgetting
// the entry used least recently, so that loads never fail for want of
// room (300 loads in a row, beyond the default limit of 256, are all
// stored), and a forgotten id is a 404 that says to load it again.
func TestStoreForgetsLeastRecentlyUsed(t *testing.T) {
	_, ts := newTest(t, Config{MaxTheories: 2})
	var a, b theoryView
	call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, &a)
	call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, &b)
	// a is used after b: b is the least recently used.
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": a.ID, "query": "bird -> flies"}, nil); st != 200 {
		t.Fatalf("query: %d", st)
	}
	var c baseView
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": "a -> b"}, &c); st != 201 {
		t.Fatalf("load into a full store: %d", st)
	}
	var e apiError
	st := call(t, "GET", ts.URL+"/api/theories/"+b.ID, nil, &e)
	wantError(t, st, e, 404, 0, 0, "load it again")
	if e.Field != "theory_id" {
		t.Errorf("a forgotten theory's error names field %q, want theory_id", e.Field)
	}
	for _, id := range []string{a.ID, c.ID} {
		if st := call(t, "GET", ts.URL+"/api/"+map[bool]string{true: "theories", false: "bases"}[id == a.ID]+"/"+id, nil, nil); st != 200 {
			t.Errorf("%s: %d after the store made room", id, st)
		}
	}
	// Queries on text are not stored and need no room.
	var ans answerView
	if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory": penguin, "query": "bird -> flies"}, &ans); st != 200 || ans.Word != "yes" {
		t.Errorf("query on text: %d %+v", st, ans)
	}

	_, ts = newTest(t, Config{})
	var first theoryView
	for i := range 300 {
		var tv theoryView
		if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, &tv); st != 201 {
			t.Fatalf("load %d: %d", i+1, st)
		}
		if i == 0 {
			first = tv
		}
	}
	if st := call(t, "GET", ts.URL+"/api/theories/"+first.ID, nil, nil); st != 404 {
		t.Errorf("the first of 300 theories, never used again: %d, want 404 (forgotten)", st)
	}
}

func TestConclusionsAndWorld(t *testing.T) {
	_, ts := newTest(t, Config{})
	th := readTheory(t, penguin)
	rs := libReasoner(t, th)
	alpha := logic.AtomF(0) // penguin
	for _, sem := range possibilistic.AllSemantics {
		var out struct {
			Conclusions []jsonview.Conclusion `json:"conclusions"`
		}
		call(t, "POST", ts.URL+"/api/conclusions", map[string]string{"theory": penguin, "given": "penguin", "semantics": sem.String()}, &out)
		want := rs.conclude(sem, alpha)
		if len(out.Conclusions) != len(want) {
			t.Fatalf("%s: %+v, want %v", sem, out.Conclusions, want)
		}
		for i, l := range want {
			c := out.Conclusions[i]
			if c.Literal != th.Vocab.LitString(l.Lit) || c.Necessity != l.Necessity {
				t.Errorf("%s: conclusion %d %+v", sem, i, c)
			}
		}
		var w struct {
			Possible bool     `json:"possible"`
			World    []string `json:"world"`
		}
		call(t, "POST", ts.URL+"/api/world", map[string]string{"theory": penguin, "given": "penguin", "semantics": sem.String()}, &w)
		ww := rs.world(sem, alpha)
		if w.Possible != (ww != nil) || len(w.World) != len(ww) {
			t.Errorf("%s: world %+v, want %v", sem, w, ww)
		}
	}
	var e apiError
	st := call(t, "POST", ts.URL+"/api/conclusions", map[string]string{"theory": penguin, "given": "penguin,, bird"}, &e)
	wantError(t, st, e, 400, 1, 9, "")
}

func TestAccessLogAndStatic(t *testing.T) {
	var log bytes.Buffer
	s, err := New(Config{AccessLog: &log})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	static := []string{"/", "/js/app.js", "/js/theory.js", "/js/base.js", "/js/learn.js", "/js/chart.js", "/style.css", "/examples/wings.theory", "/examples/loans.csv"}
	for _, p := range static {
		res, err := http.Get(ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || len(body) == 0 {
			t.Errorf("GET %s: %d", p, res.StatusCode)
		}
		// No external resources: the network may be closed.
		if regexp.MustCompile(`(src|href)=["']?(https?:)?//`).Match(body) || bytes.Contains(body, []byte("@import")) {
			t.Errorf("%s loads an external resource", p)
		}
	}
	req, _ := http.NewRequest("POST", ts.URL+"/api/query", strings.NewReader(`{"theory": "1: a", "query": "a"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "strata-test/1")
	req.Header.Set("Referer", "http://example.org/")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	ts.Close() // waits for the handlers, hence the log lines
	if err := s.FlushLog(); err != nil {
		t.Fatal(err)
	}
	combined := regexp.MustCompile(`^127\.0\.0\.1 - - \[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "POST /api/query HTTP/1\.1" 200 \d+ "http://example\.org/" "strata-test/1"$`)
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != len(static)+1 || !combined.MatchString(lines[len(static)]) {
		t.Errorf("access log not in the Combined Log Format:\n%s", log.String())
	}
}

// TestLogLine checks the access log's line against fmt, which wrote it
// before: the Combined Log Format with Go-quoted fields.
func TestLogLine(t *testing.T) {
	start := time.Date(2026, 11, 23, 1, 2, 3, 0, time.FixedZone("", -5*3600))
	for _, c := range []struct{ host, user, target, referer, agent string }{
		{"127.0.0.1", "-", "/api/query", "", "curl/8.5.0"},
		{"::1", "bob", "/api/learn/r-1/events?x=\"y\"", "http://example.org/é", "ua \"with\" quotes\x01"},
		{"", "-", "/", " ", "\xff"},
	} {
		r := httptest.NewRequest("POST", c.target, nil)
		r.Header.Set("Referer", c.referer)
		r.Header.Set("User-Agent", c.agent)
		got := string(appendLogLine(nil, c.host, c.user, start, r, 503, 1234))
		want := fmt.Sprintf("%s - %s [%s] %q %d %d %q %q\n", orDash(c.host), c.user, start.Format("02/Jan/2006:15:04:05 -0700"),
			r.Method+" "+r.URL.RequestURI()+" "+r.Proto, 503, 1234, orDash(r.Referer()), orDash(r.UserAgent()))
		if got != want {
			t.Errorf("\n got %q\nwant %q", got, want)
		}
	}
}

// sameLevel reports whether an answer's deciding level is the verdict's:
// null exactly when the verdict's is -1 or β is not entailed.
func sameLevel(got *int, want possibilistic.Verdict) bool {
	if !want.Entailed || want.Level < 0 {
		return got == nil
	}
	return got != nil && *got == want.Level
}

// drownedOrPartly returns the levels an explanation says the evidence set
// aside, as possibilistic.Verdict.SetAside lists them.
func drownedOrPartly(x *jsonview.Explanation) []int {
	if x == nil {
		return nil
	}
	if len(x.PartlySetAside) > 0 {
		return x.PartlySetAside
	}
	if len(x.Drowned) == 0 {
		return nil
	}
	return x.Drowned
}

// TestPageExamplesAreStrataExamples: the explorer's "Penguin example" and
// "Loans example" and the "Applicants example" are the files strata
// examples writes, byte for byte.
func TestPageExamplesAreStrataExamples(t *testing.T) {
	for _, name := range []string{"wings.theory", "loans.csv", "applicants.csv"} {
		want, err := os.ReadFile(filepath.Join("..", "cmd", "strata", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		if got := exampleFile(t, name); got != string(want) {
			t.Errorf("the page's examples/%s is not the one strata examples writes (cmd/strata/examples/%s)", name, name)
		}
	}
}
