package main

import (
	"strings"
	"testing"
)

// The issue's penguin: the bird level holds both "birds fly" and "birds
// have wings"; "penguins have wings" is lost under poss and linear, which
// set the whole level aside, and kept under lex, which sets aside only
// "birds fly". With "birds have wings" on a level of its own, linear keeps
// it too.
const penguinWings = "1: !penguin | bird\n1: !penguin | !flies\n0.5: !bird | flies\n0.5: !bird | wings\n"

func TestQuerySemantics(t *testing.T) {
	same := writeFile(t, "same.theory", penguinWings)
	own := writeFile(t, "own.theory", strings.Replace(penguinWings, "0.5: !bird | wings", "0.25: !bird | wings", 1))
	cases := []struct {
		theory, semantics, first string
		more                     []string
	}{
		{same, "poss", "no", nil},
		{same, "linear", "no", []string{"set aside by the evidence: level 0.5", "counter-example, a preferred world: penguin, bird, !flies, !wings"}},
		{same, "lex", "yes", []string{"level 0.5:", "set aside by the evidence: 0.5: !bird | flies",
			"because penguin with 1: !penguin | bird; 0.5: !bird | wings entails wings"}},
		{own, "poss", "no", nil},
		{own, "linear", "yes", []string{"level 0.25:", "set aside by the evidence: level 0.5"}},
		{own, "lex", "yes", nil},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", "query", "--semantics", c.semantics, c.theory, "penguin -> wings")
		if code != 0 || errs != "" {
			t.Fatalf("%s: exit %d, stderr %q", c.semantics, code, errs)
		}
		lines := strings.Split(out, "\n")
		if lines[0] != c.first || len(lines) < 2 || !strings.Contains(lines[1], "level") {
			t.Errorf("%s on %s: output %q, want first line %q then the deciding level", c.semantics, c.theory, out, c.first)
		}
		for _, m := range c.more {
			if !strings.Contains(out, m) {
				t.Errorf("%s on %s: output %q lacks %q", c.semantics, c.theory, out, m)
			}
		}
	}
	out, _, code := strata(t, "", "query", "--semantics", "lex", same, "--given", "penguin")
	if code != 0 || !strings.Contains(out, "under lex") || !strings.Contains(out, "wings    necessity 0.5") {
		t.Fatalf("--given penguin under lex: %q", out)
	}
	out, _, code = strata(t, "", "query", "--semantics", "linear", same, "--given", "penguin")
	if code != 0 || strings.Contains(out, "wings") {
		t.Fatalf("--given penguin under linear: %q", out)
	}
	_, errs, code := strata(t, "", "query", "--semantics", "drown", same, "penguin -> wings")
	if code != 2 || !strings.Contains(errs, `unknown semantics "drown" (want poss, linear or lex)`) {
		t.Fatalf("bad --semantics: exit %d, stderr %q", code, errs)
	}
	out, _, code = strata(t, "", "query", "--semantics", "lex", writeFile(t, "c.theory", "1: !a\n0.5: b\n"), "a -> b")
	if code != 0 || !strings.HasPrefix(out, "no\na contradicts the formulas of weight 1") {
		t.Fatalf("evidence against the certain formulas: exit %d, %q", code, out)
	}
}

func TestShowSimplifySemantics(t *testing.T) {
	// Under poss the drowned level of d goes, and unit b shortens nothing;
	// under linear and lex d survives, since the evidence can set ¬b aside.
	th := writeFile(t, "t.theory", "1: a\n0.9: b\n0.8: !b\n0.5: c | !a\n0.5: d\n")
	out, _, code := strata(t, "", "show", "--simplify", th)
	if code != 0 || strings.Contains(out, "0.5: d") {
		t.Fatalf("show --simplify (poss) keeps the drowned level:\n%s", out)
	}
	for _, s := range []string{"linear", "lex"} {
		out, errs, code := strata(t, "", "show", "--simplify", "--semantics", s, th)
		if code != 0 || errs != "" || !strings.Contains(out, "0.5: d") || !strings.Contains(out, "0.8: !b") {
			t.Fatalf("show --simplify --semantics %s: exit %d %q\n%s", s, code, errs, out)
		}
	}
	_, errs, code := strata(t, "", "show", "--semantics", "lex", th)
	if code != 2 || !strings.Contains(errs, "--semantics only applies with --simplify") {
		t.Fatalf("show --semantics without --simplify: exit %d, %q", code, errs)
	}
}

// TestQueryImpossibleEvidence: evidence that leaves no plausible world is
// said to be contradictory when it is so in itself, and to contradict the
// certain formulas only when it does; a consistent α with no literal
// conclusion is not reported as either.
func TestQueryImpossibleEvidence(t *testing.T) {
	th := writeFile(t, "c.theory", "1: !a\n0.5: c | d\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"a & !a -> b"}, "no\na & !a is contradictory, so only tautologies follow"},
		{[]string{"a -> b"}, "no\na contradicts the formulas of weight 1, so only tautologies follow"},
		{[]string{"--semantics", "lex", "b & !b -> b"}, "no\nb & !b is contradictory, so only tautologies follow"},
		{[]string{"--given", "b & !b"}, "  none: b & !b is contradictory, so only tautologies follow (inconsistency level 1)\n"},
		{[]string{"--given", "a"}, "  none: a contradicts the formulas of weight 1, so only tautologies follow (inconsistency level 1)\n"},
		{[]string{"--semantics", "linear", "--given", "!a & (e | f)"}, "  !a  necessity 1\n"},
	} {
		out, errs, code := strata(t, "", append([]string{"query", th}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("query %v: exit %d, stdout %q, stderr %q; want %q", c.args, code, out, errs, c.want)
		}
	}
	out, _, _ := strata(t, "", "query", writeFile(t, "d.theory", "0.5: c | d\n"), "--given", "a | b")
	if !strings.HasSuffix(out, "  none: no literal follows\n") {
		t.Errorf("consistent evidence without literal conclusions: %q", out)
	}
}
