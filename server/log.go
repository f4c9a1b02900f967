package server

import (
	"io"
	"net"
	"net/http"
	"strconv"
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
	var line []byte
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		lw := logWriters.Get().(*logWriter)
		*lw = logWriter{ResponseWriter: rw, status: http.StatusOK}
		defer func() {
			*lw = logWriter{} // drop the connection's writer
			logWriters.Put(lw)
		}()
		next.ServeHTTP(lw, r)
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			host = r.RemoteAddr
		}
		user := "-"
		if u, _, ok := r.BasicAuth(); ok && u != "" {
			user = u
		}
		mu.Lock()
		line = appendLogLine(line[:0], host, user, start, r, lw.status, lw.bytes)
		w.Write(line)
		mu.Unlock()
	})
}

// appendLogLine appends one line of the Combined Log Format.
func appendLogLine(b []byte, host, user string, start time.Time, r *http.Request, status int, size int64) []byte {
	b = append(b, orDash(host)...)
	b = append(b, " - "...)
	b = append(b, user...)
	b = append(b, " ["...)
	b = start.AppendFormat(b, "02/Jan/2006:15:04:05 -0700")
	b = append(b, "] "...)
	// The request line, quoted as one string, without building it first.
	b = append(b, '"')
	b = appendQuoted(b, r.Method)
	b = append(b, ' ')
	b = appendQuoted(b, r.URL.RequestURI())
	b = append(b, ' ')
	b = appendQuoted(b, r.Proto)
	b = append(b, '"')
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, size, 10)
	b = append(b, ' ')
	b = strconv.AppendQuote(b, orDash(r.Referer()))
	b = append(b, ' ')
	b = strconv.AppendQuote(b, orDash(r.UserAgent()))
	return append(b, '\n')
}

// appendQuoted appends s as strconv.AppendQuote does, without the quotes.
func appendQuoted(b []byte, s string) []byte {
	n := len(b)
	b = strconv.AppendQuote(b, s)
	copy(b[n:], b[n+1:len(b)-1])
	return b[:len(b)-2]
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// logWriters holds the logWriters of finished requests: handlers do not
// keep their ResponseWriter past their return.
var logWriters = sync.Pool{New: func() any { return new(logWriter) }}

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
