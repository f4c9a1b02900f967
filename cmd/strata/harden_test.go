package main

import (
	"strings"
	"testing"
)

// TestLearnUnitHardRule is the command: a hard rule that entails a
// negative example's consequent made learn stop with an internal error.
func TestLearnUnitHardRule(t *testing.T) {
	p := writeFile(t, "p", "b -> !c\n")
	n := writeFile(t, "n", "c -> h\n")
	h := writeFile(t, "h", "h\n")
	out, errs, code := strata(t, "", "learn", "--pos", p, "--neg", n, "--hard", h)
	if code != 0 || !strings.Contains(out, "!c") || !strings.Contains(errs, "training accuracy: 0.5000") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
