package server

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// accessLog writes one line per request to w in the Combined Log Format of
// Apache and nginx:
//
//	127.0.0.1 - - [23/Nov/2026:01:02:03 +0000] "POST /api/query HTTP/1.1" 200 312 "-" "curl/8.5.0"
//
// Lines are written whole, under a lock, when the response is complete.
func accessLog(w io.Writer, next http.Handler) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := &logWriter{ResponseWriter: rw, status: http.StatusOK}
		next.ServeHTTP(lw, r)
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		user := "-"
		if u, _, ok := r.BasicAuth(); ok && u != "" {
			user = u
		}
		line := fmt.Sprintf("%s - %s [%s] %q %d %d %q %q\n", orDash(host), user, start.Format("02/Jan/2006:15:04:05 -0700"),
			r.Method+" "+r.URL.RequestURI()+" "+r.Proto, lw.status, lw.bytes, orDash(r.Referer()), orDash(r.UserAgent()))
		mu.Lock()
		io.WriteString(w, line)
		mu.Unlock()
	})
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// logWriter records the status and size of a response. It passes Flush
// through, which the event streams need.
type logWriter struct {
	http.ResponseWriter
	status      int
	bytes       int64
	wroteHeader bool
}

func (l *logWriter) WriteHeader(code int) {
	if !l.wroteHeader {
		l.status, l.wroteHeader = code, true
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *logWriter) Write(b []byte) (int, error) {
	l.wroteHeader = true
	n, err := l.ResponseWriter.Write(b)
	l.bytes += int64(n)
	return n, err
}

func (l *logWriter) Flush() {
	if f, ok := l.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (l *logWriter) Unwrap() http.ResponseWriter { return l.ResponseWriter }
