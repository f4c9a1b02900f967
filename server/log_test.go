package server

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer safe for the timed flush's goroutine and
// the test's reads.
type lockedBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func line(s string) func([]byte) []byte {
	return func(b []byte) []byte { return append(b, s+"\n"...) }
}

// TestLogBufferConcurrent: lines added from many goroutines come out
// whole, each once, in the order each goroutine added them, in far fewer
// writes than lines.
func TestLogBufferConcurrent(t *testing.T) {
	var w lockedBuffer
	lb := newLogBuffer(&w)
	const goroutines, each = 32, 300
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				lb.add(line(fmt.Sprintf("g%d line %d %s", g, i, strings.Repeat("x", i%50))))
			}
		}()
	}
	wg.Wait()
	if err := lb.Flush(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, goroutines)
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	for _, l := range lines {
		var g, i int
		if _, err := fmt.Sscanf(l, "g%d line %d", &g, &i); err != nil || g >= goroutines || i != next[g] ||
			l != fmt.Sprintf("g%d line %d %s", g, i, strings.Repeat("x", i%50)) {
			t.Fatalf("line %q out of order or torn (want line %d of g%d)", l, next[g], g)
		}
		next[g]++
	}
	if len(lines) != goroutines*each {
		t.Fatalf("%d lines, want %d", len(lines), goroutines*each)
	}
	if w.writes >= len(lines)/10 {
		t.Errorf("%d writes for %d lines", w.writes, len(lines))
	}
}

// TestLogBufferFlushes: a full buffer is written at once, a line alone
// within the flush delay, and a write error comes back from Flush.
func TestLogBufferFlushes(t *testing.T) {
	var w lockedBuffer
	lb := newLogBuffer(&w)
	big := strings.Repeat("y", logBufferSize)
	lb.add(line(big))
	if !strings.Contains(w.String(), big) {
		t.Fatal("a full buffer was not written at once")
	}
	lb.add(line("alone"))
	deadline := time.Now().Add(hangGuard)
	for !strings.Contains(w.String(), "alone\n") {
		if time.Now().After(deadline) {
			t.Fatal("a pending line was not written by the timed flush")
		}
		time.Sleep(10 * time.Millisecond)
	}
	bad := newLogBuffer(failingWriter{})
	bad.add(line("lost"))
	if err := bad.Flush(); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Flush: %v, want the write error", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
