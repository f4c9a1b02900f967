package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withQuietInterval sets quietInterval for one test.
func withQuietInterval(t *testing.T, d time.Duration) {
	old := quietInterval
	quietInterval = d
	t.Cleanup(func() { quietInterval = old })
}

// TestLearnSpeaksWhenNotOnATerminal checks that learn, whose stderr is not
// a terminal here, prints a line per iteration when iterations are rarer
// than quietInterval, and none when they are more frequent.
func TestLearnSpeaksWhenNotOnATerminal(t *testing.T) {
	pos := writeFile(t, "birds.defaults", birdPos)
	neg := writeFile(t, "birds.nondefaults", birdNeg)
	args := []string{"learn", "--pos", pos, "--neg", neg, "--iterations", "3", "--patience", "-1", "--threads", "1"}

	withQuietInterval(t, 0) // every iteration is rarer than this
	_, errs, code := strata(t, "", args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for i := 1; i <= 3; i++ {
		if !strings.Contains(errs, fmt.Sprintf("iteration %d: train ", i)) {
			t.Errorf("no line for iteration %d:\n%s", i, errs)
		}
	}

	quietInterval = time.Hour // every iteration is more frequent than this
	_, errs, code = strata(t, "", args...)
	if code != 0 || strings.Contains(errs, "iteration 1:") || !strings.Contains(errs, "stopped: ") {
		t.Errorf("exit %d; want no iteration line within the interval:\n%s", code, errs)
	}
}

func TestMLNSpeaksWhenNotOnATerminal(t *testing.T) {
	withQuietInterval(t, 0)
	table := writeFile(t, "small.data", mlnTable())
	net := filepath.Join(t.TempDir(), "small.mln")
	_, errs, code := strata(t, "", "mln", "learn", table, "-o", net, "--min-leaf", "2")
	if code != 0 || !strings.Contains(errs, "learning: ") || !strings.Contains(errs, " of ") {
		t.Fatalf("mln learn: exit %d, stderr %q", code, errs)
	}
	_, errs, code = strata(t, "", "mln", "examples", net, "-o", t.TempDir(), "--train-examples", "20", "--test-examples", "10")
	if code != 0 || !strings.Contains(errs, "labelling: examples 30 of 30\n") {
		t.Fatalf("mln examples: exit %d, stderr %q", code, errs)
	}
}
