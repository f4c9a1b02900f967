package main

import (
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// TestEntailsWC: System W and c-inference from the command line, the
// per-query records, time budgets and weakly consistent bases.
func TestEntailsWC(t *testing.T) {
	cl := writeFile(t, "birds.cl", birdsCLFile)
	clq := writeFile(t, "birds.clq", "(f|p),\n(w|p),\n(b|p)\n")
	for _, sem := range []string{"w", "c"} {
		out, errs, code := strata(t, "", "entails", "--relation", sem, cl, "--queries", clq)
		if want := "no\t(f|p)\nyes\t(w|p)\nyes\t(b|p)\n"; code != 0 || out != want {
			t.Errorf("--semantics %s: exit %d %q, got\n%s\nwant\n%s", sem, code, errs, out, want)
		}
	}
	out, _, _ := strata(t, "", "entails", "--relation", "w", cl, "(f|p)")
	if !strings.HasPrefix(out, "no\n") || !strings.Contains(out, "a preferred world of p where f fails: b, p, !f") {
		t.Errorf("W explanation:\n%s", out)
	}
	out, _, _ = strata(t, "", "entails", "--relation", "c", cl, "(f|p)")
	if !strings.HasPrefix(out, "no\n") || !strings.Contains(out, "a c-representation (impacts") {
		t.Errorf("c explanation:\n%s", out)
	}

	out, errs, code := strata(t, "", "entails", "--relation", "c", cl, "--queries", clq, "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 4 || strings.Join(recs[0], ",") != "query,answer,seconds" || recs[2][1] != "yes" {
		t.Errorf("--csv: exit %d %q %v:\n%s", code, errs, err, out)
	}
	out, _, _ = strata(t, "", "entails", "--relation", "w", cl, "--queries", clq, "--json", "--query-timeout", "1ns")
	var rep struct {
		Semantics string
		Queries   []struct{ Query, Answer string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Semantics != "w" || len(rep.Queries) != 3 {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	for _, q := range rep.Queries {
		if q.Answer != "timeout" {
			t.Errorf("with a 1ns budget %s was answered %q, want timeout", q.Query, q.Answer)
		}
	}

	// (Bottom|A) makes A impossible: a weakly consistent base.
	weak := writeFile(t, "weak.cl", "signature\n  b, p, f\nconditionals\nkb{\n  (f|b),\n  (!f|p),\n  (Bottom|p,!b)\n}\n")
	_, errs, code = strata(t, "", "entails", "--relation", "c", weak, "(b|p)")
	if code != 1 || !strings.Contains(errs, "--weak") {
		t.Errorf("strict reading of a weakly consistent base: exit %d, %q", code, errs)
	}
	for _, sem := range []string{"p", "rational", "lex", "w", "c"} {
		out, errs, code := strata(t, "", "entails", "--weak", "--relation", sem, weak, "(b|p)")
		if code != 0 || !strings.HasPrefix(out, "yes\n") {
			t.Errorf("--weak --semantics %s: exit %d %q %q", sem, code, errs, out)
		}
	}
	// An empty base: classical reasoning, every query answered.
	empty := writeFile(t, "empty.cl", "signature\n  a, b\nconditionals\nkb{\n}\n")
	for _, sem := range []string{"w", "c"} {
		out, errs, code := strata(t, "", "entails", "--relation", sem, empty, "--queries", writeFile(t, "q.clq", "(a|a),(b|a),(a;b|a,b)"))
		if code != 0 || out != "yes\t(a|a)\nno\t(b|a)\nyes\t(a;b|a,b)\n" {
			t.Errorf("empty base under %s: exit %d %q:\n%s", sem, code, errs, out)
		}
	}
}

// TestClosureRanks: the OCFs of a base as text and JSON.
func TestClosureRanks(t *testing.T) {
	cl := writeFile(t, "birds.cl", birdsCLFile)
	out, errs, code := strata(t, "", "closure", "--ranks", cl)
	if code != 0 || !strings.Contains(out, "# Z-rank\tκ_c impact\tdefault\n") || !strings.Contains(out, "2\t2\t"+cl+":5: (b|p)\n") ||
		!strings.Contains(out, "2\t4\t!b, p, f, w\n") {
		t.Errorf("closure --ranks: exit %d %q:\n%s", code, errs, out)
	}
	out, errs, code = strata(t, "", "closure", "--ranks", "--json", cl)
	var ranks struct {
		Defaults []struct {
			Rank   int
			Impact *int
		}
		Worlds []struct{ Z, C any }
	}
	if err := json.Unmarshal([]byte(out), &ranks); code != 0 || err != nil || len(ranks.Worlds) != 16 || ranks.Worlds[7].C != 3.0 ||
		ranks.Defaults[1].Impact == nil || *ranks.Defaults[1].Impact != 2 || ranks.Defaults[1].Rank != 2 {
		t.Errorf("closure --ranks --json: exit %d %q %v:\n%s", code, errs, err, out)
	}
	// --ocf z leaves κ_c's fields out, and --ocf c κ_Z's.
	out, errs, code = strata(t, "", "closure", "--ranks", "--ocf", "z", "--json", cl)
	if code != 0 || strings.Contains(out, `"impact"`) || strings.Contains(out, `"c":`) || !strings.Contains(out, `"z":`) {
		t.Errorf("closure --ranks --ocf z --json: exit %d %q:\n%s", code, errs, out)
	}
	out, errs, code = strata(t, "", "closure", "--ranks", "--ocf", "c", "--json", cl)
	if code != 0 || strings.Contains(out, `"rank"`) || strings.Contains(out, `"z":`) || !strings.Contains(out, `"c":`) {
		t.Errorf("closure --ranks --ocf c --json: exit %d %q:\n%s", code, errs, out)
	}
	out, _, _ = strata(t, "", "closure", "--ranks", "--json", cl)
	old, errs, code := strata(t, "", "closure", "--ranks", "--format", "json", cl)
	if code != 0 || old != out || errs != "strata: --format json is deprecated; use --json\n" {
		t.Errorf("--format json, the old spelling: exit %d %q", code, errs)
	}
	_, errs, code = strata(t, "", "closure", "--ranks", "--ocf", "x", cl)
	if code != 2 || !strings.Contains(errs, "want z, c or all") {
		t.Errorf("--ocf x: exit %d %q", code, errs)
	}
}
