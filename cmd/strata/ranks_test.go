package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/jsonview"
)

// TestClosureRanksTextJSON checks that closure --ranks prints as text what
// it prints with --json, line for line: every default's Z-rank and impact
// and where it was read, Δ^∞, and every world's ranks; and that a
// default's Z-rank is j of the Δj closure prints it under, as the
// partition is numbered in the docs.
func TestClosureRanksTextJSON(t *testing.T) {
	ex := t.TempDir()
	if _, errs, code := strata(t, "", "examples", ex); code != 0 {
		t.Fatal(errs)
	}
	p := func(name string) string { return filepath.Join(ex, name) }
	hard := writeFile(t, "hard.rules", "!penguin | bird\n")
	weak := writeFile(t, "weak.rules", "a -> b\na -> !b\nc -> d\nd -> e\ne -> !d\n")
	for _, base := range [][]string{
		{p("birds.cl")},
		{p("penguins.rules"), "--hard", hard},
		{weak, "--weak"},
	} {
		// The Δj closure prints each default under, by its description.
		var zj map[string]int
		if !slices.Contains(base, "--weak") {
			out, errs, code := strata(t, "", append([]string{"closure"}, base...)...)
			if code != 0 {
				t.Fatalf("closure %v: exit %d %q", base, code, errs)
			}
			zj = closureLevels(t, out)
		}
		for _, ocf := range []string{"all", "z", "c"} {
			args := append([]string{"closure", "--ranks", "--ocf", ocf}, base...)
			text, errs, code := strata(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d %q", args, code, errs)
			}
			out, errs, code := strata(t, "", append(args, "--json")...)
			var v jsonview.Ranks
			if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil {
				t.Fatalf("%v --json: exit %d %q %v", args, code, errs, err)
			}
			// The JSON has no position for Δ^∞: the text's go.
			got := infAt.ReplaceAllString(text, "∞\t…: ")
			if want := ranksText(v, ocf != "c", ocf != "z"); got != want {
				t.Errorf("%v printed\n%s\n--json printed, as text,\n%s", args, got, want)
			}
			for _, d := range v.Defaults {
				desc := fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Text)
				if j, ok := zj[desc]; ok && ocf != "c" && d.Rank != j {
					t.Errorf("%v: %s has Z-rank %d; closure prints it under Δ%d", args, desc, d.Rank, j)
				}
				if zj != nil && ocf != "c" {
					if _, ok := zj[desc]; !ok {
						t.Errorf("%v: %s is not in closure's Z-ordering %v", args, desc, zj)
					}
				}
			}
		}
	}
}

// infAt is the position of a default of Δ^∞ in closure --ranks's text.
var infAt = regexp.MustCompile(`(?m)^∞\t.*?:\d+: `)

// closureLevels reads closure's text: the description of every default
// under the comment "# Δj", mapped to j.
func closureLevels(t *testing.T, out string) map[string]int {
	t.Helper()
	level := regexp.MustCompile(`^# Δ(\d+) \(weight [^)]*\):$`)
	zj, j := map[string]int{}, 0
	for _, line := range strings.Split(out, "\n") {
		if m := level.FindStringSubmatch(line); m != nil {
			fmt.Sscan(m[1], &j)
		} else if d, ok := strings.CutPrefix(line, "#   "); ok && j > 0 {
			zj[d] = j
		}
	}
	if len(zj) == 0 {
		t.Fatalf("no Z-ordering in closure's output:\n%s", out)
	}
	return zj
}

// ranksText is what closure --ranks should print for the view v of κ_Z
// (z) and κ_c (c), written from the JSON alone: a column per function,
// each default with the file and line it was read from, Δ^∞ at ∞, and
// every world with all its atoms.
func ranksText(v jsonview.Ranks, z, c bool) string {
	var b strings.Builder
	var heads, names []string
	if z {
		heads, names = append(heads, "Z-rank"), append(names, "κ_Z")
	}
	if c {
		heads, names = append(heads, "κ_c impact"), append(names, "κ_c")
	}
	fmt.Fprintf(&b, "# %s\tdefault\n", strings.Join(heads, "\t"))
	for _, d := range v.Defaults {
		var cols []string
		if z {
			cols = append(cols, fmt.Sprint(d.Rank))
		}
		if c && d.Impact != nil {
			cols = append(cols, fmt.Sprint(*d.Impact))
		}
		fmt.Fprintf(&b, "%s\t%s:%d: %s\n", strings.Join(cols, "\t"), d.File, d.Line, d.Text)
	}
	for _, d := range v.Infinite {
		fmt.Fprintf(&b, "∞\t…: %s\n", d) // as the test writes the text's
	}
	if v.Worlds != nil {
		fmt.Fprintf(&b, "# world ranks (%s)\n", strings.Join(names, ", "))
	}
	for _, w := range v.Worlds {
		var cols, lits []string
		if z && w.Z != nil {
			cols = append(cols, w.Z.String())
		}
		if c && w.C != nil {
			cols = append(cols, w.C.String())
		}
		for _, a := range v.Atoms {
			if !slices.Contains(w.World, a) {
				a = "!" + a
			}
			lits = append(lits, a)
		}
		fmt.Fprintf(&b, "%s\t%s\n", strings.Join(cols, "\t"), strings.Join(lits, ", "))
	}
	return b.String()
}
