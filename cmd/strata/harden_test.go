package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMLNContradictoryEvidence: evidence holding a literal and its negation
// is answered "no world satisfies the evidence", with or without --entails,
// not refused as "not a conjunction of literals".
func TestMLNContradictoryEvidence(t *testing.T) {
	net := writeFile(t, "c.mln", "a1\na2\n1 a1\n2 a2\n")
	for _, args := range [][]string{{"--given", "a1, !a1"}, {"--given", "a2, a1 & !a1", "--entails", "a2"}} {
		out, errs, code := strata(t, "", append([]string{"mln", "map", net}, args...)...)
		if code != 0 || !strings.HasPrefix(out, "no world satisfies the evidence\n") || !strings.Contains(out, "both a1 and !a1") {
			t.Errorf("%q: %d %q %q", args, code, out, errs)
		}
	}
	if _, errs, code := strata(t, "", "mln", "map", net, "--given", "a1 | a2"); code == 0 || !strings.Contains(errs, "not a conjunction of literals") {
		t.Errorf("a disjunction as evidence: %d %q", code, errs)
	}
}

// TestMLNTinyWeights: weights below 10⁻⁹ decide MAP, and survive a
// conversion to WCNF and back.
func TestMLNTinyWeights(t *testing.T) {
	dir := t.TempDir()
	net := writeFile(t, "tiny.mln", "a\nb\n0.0000000014 a\n0.0000000006 !a\n1e-12 b\n0.1234567891234 !b\n")
	out, errs, code := strata(t, "", "mln", "map", net, "--entails", "a")
	if code != 0 || !strings.HasPrefix(out, "yes\n") {
		t.Fatalf("--entails a: %d %q %q", code, out, errs)
	}
	wcnf, back := filepath.Join(dir, "tiny.wcnf"), filepath.Join(dir, "back.mln")
	for _, args := range [][]string{{net, wcnf}, {wcnf, back}} {
		if _, errs, code := strata(t, "", append([]string{"mln", "convert"}, args...)...); code != 0 {
			t.Fatalf("convert %v: %q", args, errs)
		}
	}
	data, err := os.ReadFile(back)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"0.0000000014  a", "0.0000000006  !a", "0.000000000001  b", "0.1234567891234  !b"} {
		if !strings.Contains(string(data), w+"\n") {
			t.Errorf("converted to WCNF and back, %q is missing:\n%s", w, data)
		}
	}
}
