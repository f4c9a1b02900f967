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

// accessLog writes one line per request to lb in the Combined Log Format of
// Apache and nginx:
//
//	127.0.0.1 - - [23/Nov/2026:01:02:03 +0000] "POST /api/query HTTP/1.1" 200 312 "-" "curl/8.5.0"
//
// Lines are added whole, in the order the responses complete.
func accessLog(lb *logBuffer, next http.Handler) http.Handler {
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
		lb.add(func(b []byte) []byte { return appendLogLine(b, host, user, start, r, lw.status, lw.bytes) })
	})
}

// logBuffer collects access-log lines and writes them to w in batches, as
// nginx's access_log buffer= and flush= do: when logBufferSize bytes are
// pending, logFlushDelay after the first pending line, or at Flush. A write
// system call per request, made under the log's lock, cost a tenth of a
// query's CPU and lengthened the latency tail with 64 clients.
type logBuffer struct {
	w io.Writer

	mu      sync.Mutex // guards buf and pending
	buf     []byte     // pending lines
	pending bool       // a timed flush is scheduled
	// wmu serialises writes to w and guards spare and err; it is taken
	// while mu is held, so that batches are written in the order their
	// lines were added.
	wmu   sync.Mutex
	spare []byte // the last batch written, for reuse
	err   error  // the first write error
}

const (
	logBufferSize = 32 << 10
	logFlushDelay = 100 * time.Millisecond
)

func newLogBuffer(w io.Writer) *logBuffer { return &logBuffer{w: w} }

// add appends the line that appendLine writes.
func (lb *logBuffer) add(appendLine func([]byte) []byte) {
	lb.mu.Lock()
	lb.buf = appendLine(lb.buf)
	if len(lb.buf) >= logBufferSize {
		lb.writeLocked()
		return
	}
	if !lb.pending {
		lb.pending = true
		time.AfterFunc(logFlushDelay, func() { lb.Flush() })
	}
	lb.mu.Unlock()
}

// Flush writes the pending lines and returns the first write error so far.
func (lb *logBuffer) Flush() error {
	lb.mu.Lock()
	lb.pending = false
	lb.writeLocked()
	lb.wmu.Lock()
	defer lb.wmu.Unlock()
	return lb.err
}

// writeLocked takes the pending lines and unlocks mu, then writes them.
// wmu is taken before mu is let go, so that batches keep their order; the
// writer never takes mu back, so the two cannot deadlock.
func (lb *logBuffer) writeLocked() {
	lb.wmu.Lock()
	out := lb.buf
	lb.buf, lb.spare = lb.spare[:0], nil
	lb.mu.Unlock()
	defer lb.wmu.Unlock()
	if len(out) > 0 {
		if _, err := lb.w.Write(out); err != nil && lb.err == nil {
			lb.err = err
		}
	}
	if cap(out) <= 4*logBufferSize {
		lb.spare = out[:0]
	}
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
