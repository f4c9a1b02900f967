package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestEvalSemanticsPenguin: the drowning example. penguin -> wings
// is not entailed under poss or linear, is under lex, and under linear too
// once !bird | wings has a level of its own below !bird | flies.
func TestEvalSemanticsPenguin(t *testing.T) {
	same := writeFile(t, "penguin.theory", "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.5: !bird | wings\n")
	split := writeFile(t, "penguin2.theory", "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.25: !bird | wings\n")
	pos := writeFile(t, "w.defaults", "penguin -> wings\n")
	neg := writeFile(t, "w.nondefaults", "penguin -> flies\n")
	for _, c := range []struct {
		theory, sem, want string
	}{
		{same, "poss", "0.5000"}, {same, "linear", "0.5000"}, {same, "lex", "1.0000"},
		{split, "poss", "0.5000"}, {split, "linear", "1.0000"}, {split, "lex", "1.0000"},
	} {
		out, errs, code := strata(t, "", "eval", c.theory, "--pos", pos, "--neg", neg, "--semantics", c.sem)
		if code != 0 || !strings.HasPrefix(out, "accuracy: "+c.want+"\n") {
			t.Errorf("%s under %s: exit %d, want accuracy %s\n%s%s", filepath.Base(c.theory), c.sem, code, c.want, out, errs)
		}
	}
	if _, errs, code := strata(t, "", "eval", same, "--pos", pos, "--neg", neg, "--semantics", "drowning"); code != 2 || !strings.Contains(errs, "want poss, linear or lex") {
		t.Errorf("bad --semantics: exit %d %q", code, errs)
	}
}

func TestLearnSemantics(t *testing.T) {
	dir := t.TempDir()
	pos := writeFile(t, "birds.defaults", birdPos)
	neg := writeFile(t, "birds.nondefaults", birdNeg)
	th := filepath.Join(dir, "birds.theory")
	cp := filepath.Join(dir, "run.checkpoint")
	_, errs, code := strata(t, "", "learn", "--pos", pos, "--neg", neg, "-o", th, "--checkpoint", cp,
		"--iterations", "4", "--patience", "0", "--semantics", "lex")
	if code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errs)
	}
	var trainAcc string
	if i := strings.Index(errs, "training accuracy: "); i >= 0 {
		trainAcc = strings.Fields(errs[i+len("training accuracy: "):])[0]
	}
	out, _, code := strata(t, "", "eval", th, "--pos", pos, "--neg", neg, "--semantics", "lex")
	if code != 0 || trainAcc == "" || !strings.HasPrefix(out, "accuracy: "+trainAcc+"\n") {
		t.Fatalf("eval under lex: %d, learn said training accuracy %q\n%s", code, trainAcc, out)
	}
	_, errs, code = strata(t, "", "learn", "--pos", pos, "--neg", neg, "--resume", cp, "--iterations", "6")
	if code != 1 || !strings.Contains(errs, "learning under lex semantics, this run asks for poss") {
		t.Fatalf("resume a lex checkpoint under poss: %d %s", code, errs)
	}
	_, errs, code = strata(t, "", "learn", "--pos", pos, "--neg", neg, "--resume", cp, "--iterations", "6", "--semantics", "lex")
	if code != 0 || !strings.Contains(errs, "after 6 iterations") {
		t.Fatalf("resume under lex: %d %s", code, errs)
	}
}

func TestStratifySemantics(t *testing.T) {
	pos := writeFile(t, "w.defaults", "penguin -> wings\npenguin -> bird\n -> flies\n")
	neg := writeFile(t, "w.nondefaults", "penguin -> flies\n")
	cl := writeFile(t, "w.clauses", "!penguin | bird\n!penguin | !flies\n!bird | flies\n!bird | wings\nflies\n")
	for _, sem := range []string{"linear", "lex"} {
		out, errs, code := strata(t, "", "stratify", cl, "--pos", pos, "--neg", neg, "--semantics", sem)
		if code != 0 {
			t.Fatalf("stratify under %s: %d %s", sem, code, errs)
		}
		th := writeFile(t, "w."+sem+".theory", out)
		if ev, _, _ := strata(t, "", "eval", th, "--pos", pos, "--neg", neg, "--semantics", sem); !strings.HasPrefix(ev, "accuracy: 1.0000\n") {
			t.Errorf("greedy stratification under %s does not separate:\n%s\n%s", sem, out, ev)
		}
	}
	_, errs, code := strata(t, "", "stratify", "--exact", cl, "--pos", pos, "--neg", neg, "--semantics", "lex")
	if code != 2 || !strings.Contains(errs, "correct for poss only") {
		t.Fatalf("--exact under lex: %d %q", code, errs)
	}
}

// TestEvalSemanticsFormulas: eval decides linear and lex on any formulas, as
// query does: a hard rule that is no clause (a biconditional) and a theory
// formula that is none are scored, not refused, and the per-level table
// counts the examples whose evidence sets a level aside.
func TestEvalSemanticsFormulas(t *testing.T) {
	th := writeFile(t, "f.theory", "0.75: penguin -> (bird & !flies)\n0.5: bird -> flies\n0.5: bird -> wings\n0.25: !flies\n")
	hard := writeFile(t, "f.hard", "penguin <-> (bird & !flies)\n")
	pos := writeFile(t, "f.defaults", "penguin -> wings\nbird -> flies\n")
	neg := writeFile(t, "f.nondefaults", "penguin -> flies\n")
	for _, c := range []struct{ sem, want, aside string }{
		{"poss", "0.6667", "drowns it"},
		{"linear", "0.6667", "sets it aside (linear)"},
		{"lex", "1.0000", "sets it aside (lex)"},
	} {
		out, errs, code := strata(t, "", "eval", th, "--hard", hard, "--pos", pos, "--neg", neg, "--semantics", c.sem)
		if code != 0 || !strings.HasPrefix(out, "accuracy: "+c.want+"\n") || !strings.Contains(out, c.aside) {
			t.Errorf("%s: exit %d, want accuracy %s and %q\n%s%s", c.sem, code, c.want, c.aside, out, errs)
		}
	}
}
