package server

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC checks that TuneGC sets gcPercent, and leaves the setting the
// GOGC environment variable chose.
func TestTuneGC(t *testing.T) {
	orig := debug.SetGCPercent(100)
	defer debug.SetGCPercent(orig)
	origLimit := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(origLimit)
	t.Setenv("GOGC", "")
	if prev := TuneGC(); prev != 100 {
		t.Errorf("with GOGC set: previous %d, want 100", prev)
	}
	if now := debug.SetGCPercent(100); now != 100 {
		t.Errorf("with GOGC set: TuneGC changed the percentage to %d", now)
	}
	os.Unsetenv("GOGC") // t.Setenv restores it after the test
	if prev := TuneGC(); prev != 100 {
		t.Errorf("previous %d, want 100", prev)
	}
	if now := debug.SetGCPercent(100); now != gcPercent {
		t.Errorf("percentage %d, want %d", now, gcPercent)
	}
	if limit := debug.SetMemoryLimit(-1); limit != memoryLimit {
		t.Errorf("memory limit %d, want %d", limit, memoryLimit)
	}
	debug.SetMemoryLimit(1 << 40)
	t.Setenv("GOMEMLIMIT", "1TiB")
	TuneGC()
	if limit := debug.SetMemoryLimit(-1); limit != 1<<40 {
		t.Errorf("with GOMEMLIMIT set: TuneGC changed the memory limit to %d", limit)
	}
}
