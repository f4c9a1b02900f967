package server

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// send sends one request with the given headers (Host among them) and
// returns its status, the body and the answer's headers.
func send(t *testing.T, method, target, body string, header map[string]string) (int, string, http.Header) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, target, r)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// TestCrossSiteRefused: a page of another site cannot use the API. A POST
// that is not JSON (a form, text/plain) is 415; a request from a page of
// another origin is 403; a Host that is not the server's address (DNS
// rebinding: evil.example resolving to 127.0.0.1) is 403, so that no page
// can list the files under --dir or start runs. The server's own pages
// (same origin, localhost on loopback) pass.
func TestCrossSiteRefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "secret.theory"), []byte("1: a\n"), 0o644)
	_, ts := newTest(t, Config{Dir: dir})
	u, _ := url.Parse(ts.URL)
	port := u.Port()
	learn := `{"pos": "bird -> flies", "neg": "bird -> !flies", "iterations": 100000}`
	query := `{"theory": "1: a", "query": "a"}`
	json := "application/json"
	for _, c := range []struct {
		name          string
		method, path  string
		body          string
		header        map[string]string
		status        int
		want, wantNot string
	}{
		{"rebinding lists no files", "GET", "/api/files", "", map[string]string{"Host": "evil.example:" + port}, 403, "not this server's address nor the host of an allowed origin", "secret"},
		{"rebinding starts no run", "POST", "/api/learn", learn, map[string]string{"Host": "evil.example:" + port, "Content-Type": json}, 403, "", ""},
		{"rebinding gets no page", "GET", "/", "", map[string]string{"Host": "evil.example"}, 403, "", ""},
		{"text/plain from another page", "POST", "/api/learn", learn, map[string]string{"Content-Type": "text/plain", "Origin": "http://evil.example"}, 403, "evil.example", ""},
		{"JSON from another page", "POST", "/api/learn", learn, map[string]string{"Content-Type": json, "Origin": "http://evil.example"}, 403, "not an allowed origin", ""},
		{"a sandboxed page", "POST", "/api/query", query, map[string]string{"Content-Type": json, "Origin": "null"}, 403, "", ""},
		{"another port", "POST", "/api/query", query, map[string]string{"Content-Type": json, "Origin": "http://127.0.0.1:1"}, 403, "", ""},
		{"a form", "POST", "/api/query", "theory=1:+a", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "Content-Type: application/json", ""},
		{"text/plain", "POST", "/api/learn", learn, map[string]string{"Content-Type": "text/plain"}, 415, "", ""},
		{"no content type", "POST", "/api/learn/r-0000000000000000/cancel", "", nil, 415, "", ""},
		{"the server's own page", "POST", "/api/query", query, map[string]string{"Content-Type": json + "; charset=utf-8", "Origin": ts.URL}, 200, "", ""},
		{"localhost", "POST", "/api/query", query, map[string]string{"Content-Type": json, "Host": "localhost:" + port, "Origin": "http://localhost:" + port}, 200, "", ""},
		{"a client without Origin", "GET", "/api/files", "", nil, 200, "secret.theory", ""},
		{"a JSON cancel", "POST", "/api/learn/r-0000000000000000/cancel", "", map[string]string{"Content-Type": json}, 404, "", ""},
	} {
		st, body, h := send(t, c.method, ts.URL+c.path, c.body, c.header)
		if st != c.status || !strings.Contains(body, c.want) || c.wantNot != "" && strings.Contains(body, c.wantNot) {
			t.Errorf("%s: %d %s", c.name, st, body)
		}
		if h.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: CORS header %q", c.name, h.Get("Access-Control-Allow-Origin"))
		}
	}
}

// TestAllowOrigin: Config.AllowOrigins lets the pages of an origin use the API,
// with CORS headers and preflights, and its host name be the Host (behind
// a proxy); "*" lets everything in; a malformed origin is refused.
func TestAllowOrigin(t *testing.T) {
	_, ts := newTest(t, Config{AllowOrigins: []string{"https://App.Example:443/"}})
	app := "https://app.example"
	query := `{"theory": "1: a", "query": "a"}`
	st, _, h := send(t, "OPTIONS", ts.URL+"/api/query", "", map[string]string{"Origin": app, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"})
	if st != 204 || h.Get("Access-Control-Allow-Origin") != app || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "Content-Type") || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") {
		t.Errorf("preflight: %d %v", st, h)
	}
	st, body, h := send(t, "POST", ts.URL+"/api/query", query, map[string]string{"Origin": app, "Content-Type": "application/json"})
	if st != 200 || h.Get("Access-Control-Allow-Origin") != app || !strings.Contains(h.Get("Vary"), "Origin") {
		t.Errorf("allowed origin: %d %s %v", st, body, h)
	}
	if st, _, _ := send(t, "GET", ts.URL+"/api/files", "", map[string]string{"Host": "app.example"}); st != 200 {
		t.Errorf("the allowed origin's host: %d", st)
	}
	for _, hd := range []map[string]string{{"Origin": "https://evil.example"}, {"Host": "evil.example"}, {"Origin": "http://app.example"}} {
		if st, _, _ := send(t, "GET", ts.URL+"/api/files", "", hd); st != 403 {
			t.Errorf("%v: %d", hd, st)
		}
	}

	_, ts = newTest(t, Config{AllowOrigins: []string{"*"}})
	if st, body, _ := send(t, "GET", ts.URL+"/api/files", "", map[string]string{"Host": "evil.example", "Origin": "http://evil.example"}); st != 200 {
		t.Errorf("AllowOrigins *: %d %s", st, body)
	}
	for _, o := range []string{"app.example", "ftp://app.example", "https://app.example/path", "https://", "https://u@app.example"} {
		if _, err := New(Config{AllowOrigins: []string{o}}); err == nil || !strings.Contains(err.Error(), "server: allowed origin: ") {
			t.Errorf("origin %q: %v", o, err)
		}
	}
}
