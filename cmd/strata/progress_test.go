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
	args := []string{"learn", "--pos", pos, "--neg", neg, "--iterations", "3", "--patience", "0", "--threads", "1"}

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

// TestStratifyExactBounded checks that stratify --exact states its bound,
// shows progress when stderr is not a terminal, and stops at --timeout on
// an instance whose search would take minutes (every one of 3^20 cuts):
// the deadline's error says --timeout stopped it, however loaded the
// machine is.
func TestStratifyExactBounded(t *testing.T) {
	withQuietInterval(t, 0)
	clauses := []string{"!a1"}
	for i := 1; i < 20; i++ {
		clauses = append(clauses, fmt.Sprintf("a%d", i))
	}
	cl := writeFile(t, "hard.clauses", strings.Join(clauses, "\n")+"\n")
	pos := writeFile(t, "h.defaults", " -> b\n")
	neg := writeFile(t, "h.nondefaults", "a1 -> !a1\n")
	out, errs, code := strata(t, "", "stratify", "--exact", cl, "--pos", pos, "--neg", neg, "--timeout", "300ms")
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q; want exit 1 and no theory", code, out)
	}
	for _, want := range []string{"at most 3^20 = 3,486,784,401 cuts", "exact: ", "context deadline exceeded (--timeout)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 3486784401: "3,486,784,401", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
