package cputime

import (
	"runtime"
	"testing"
)

// TestGrows checks that both clocks advance over some work (where they are
// read at all) and never go back.
func TestGrows(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p0 := Process()
	t0, ok := Thread()
	x := 0
	for i := range 50_000_000 {
		x ^= i * i
	}
	_ = x
	p1 := Process()
	t1, ok1 := Thread()
	if runtime.GOOS == "linux" && (!ok || !ok1) {
		t.Fatal("no thread CPU time on Linux")
	}
	if p1 < p0 || (ok && ok1 && t1 < t0) {
		t.Errorf("process %v -> %v, thread %v -> %v", p0, p1, t0, t1)
	}
	if runtime.GOOS == "linux" && (p1 == p0 || t1 == t0) {
		t.Errorf("no CPU time counted for the work: process %v -> %v, thread %v -> %v", p0, p1, t0, t1)
	}
}
