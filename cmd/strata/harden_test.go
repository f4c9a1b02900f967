package main

import (
	"os"
	"path/filepath"
	"strconv"
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

// TestCrowdOutputWhole: crowd writes its output directory whole: five
// folds, then two into the same directory, leave two folds and no
// fold3–fold5; a single split over them leaves no fold directory; the
// user's own files stay; a run that fails changes nothing.
func TestCrowdOutputWhole(t *testing.T) {
	out := filepath.Join(t.TempDir(), "calls")
	run := func(extra ...string) (string, int) {
		args := append([]string{"crowd", "table", "examples/calls.csv", "-o", out, "--annotator", "team", "--answer", "call"}, extra...)
		_, errs, code := strata(t, "", args...)
		return errs, code
	}
	names := func() []string {
		ents, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var ns []string
		for _, e := range ents {
			ns = append(ns, e.Name())
		}
		return ns
	}
	if errs, code := run("--test-folds", "5"); code != 0 {
		t.Fatalf("--test-folds 5: %q", errs)
	}
	if got := strings.Join(names(), " "); got != "fold1 fold2 fold3 fold4 fold5" {
		t.Fatalf("--test-folds 5 wrote %s", got)
	}
	os.WriteFile(filepath.Join(out, "calls.theory"), []byte("1: run\n"), 0o644)
	if errs, code := run("--test-folds", "2"); code != 0 {
		t.Fatalf("--test-folds 2: %q", errs)
	}
	if got := strings.Join(names(), " "); got != "calls.theory fold1 fold2" {
		t.Fatalf("--test-folds 2 over 5 left %s", got)
	}
	if errs, code := run(); code != 0 {
		t.Fatalf("one split: %q", errs)
	}
	want := "calls.theory hard.rules manifest.json test.arff test.defaults test.nondefaults test.typical train.arff train.defaults train.nondefaults train.typical"
	if got := strings.Join(names(), " "); got != want {
		t.Fatalf("one split over two folds left %s", got)
	}
	// A run that fails (an unknown column) leaves the directory as it was.
	if _, code := run("--describe", "x=nosuchcolumn:1..2"); code == 0 {
		t.Fatal("an unknown --describe column was accepted")
	}
	if got := strings.Join(names(), " "); got != want {
		t.Fatalf("a failed run changed the directory: %s", got)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Fatalf("temporary directories left beside the output: %v", ents)
	}
}

// TestLearnCheckpointUnwritable: a checkpoint that cannot be written fails
// the command before it learns, with the path in the message, instead of
// an error per iteration and exit status 0.
func TestLearnCheckpointUnwritable(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.theory")
	_, errs, code := strata(t, "", "learn", "--iterations", "3", "--checkpoint", "/nonexistent/cp", "-o", out)
	if code == 0 || strings.Count(errs, "/nonexistent/cp") != 1 || !strings.Contains(errs, "--checkpoint: write /nonexistent/cp: ") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the run went on")
	}
}

// TestContradictoryHardRules: every command that takes hard rules refuses
// ones that no world satisfies, as closure refuses contradictory background
// knowledge, instead of learning an empty theory, calling every example
// covered or stratifying on them, and names the rules that clash with their
// file and line.
func TestContradictoryHardRules(t *testing.T) {
	pos := writeFile(t, "p.rules", "bird -> flies\npenguin -> !flies\n")
	neg := writeFile(t, "n.rules", "bird -> !flies\n")
	hard := writeFile(t, "h.rules", "penguin -> bird\n# a comment\nflies\n\n!flies\n")
	th := writeFile(t, "t.theory", "0.5: !bird | flies\n")
	clauses := writeFile(t, "c", "!bird | flies\n")
	clash := hard + ":3: flies; " + hard + ":5: !flies"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"learn", "--pos", pos, "--neg", neg, "--hard", hard}, "the hard rules are contradictory: no world satisfies these 2 together (dropping any one resolves it): " + clash},
		{[]string{"eval", th, "--pos", pos, "--neg", neg, "--hard", hard}, "the hard rules are contradictory: no world satisfies these 2 together (dropping any one resolves it): " + clash},
		{[]string{"stratify", clauses, "--pos", pos, "--neg", neg, "--hard", hard}, "the hard rules are contradictory: no world satisfies these 2 together (dropping any one resolves it): " + clash},
		{[]string{"stratify", clauses, "--pos", pos, "--neg", neg, "--hard", hard, "--exact"}, "the hard rules are contradictory: no world satisfies these 2 together (dropping any one resolves it): " + clash},
		{[]string{"closure", pos, "--hard", hard}, "inconsistent background knowledge: no world satisfies these 2 together (dropping any one resolves it): " + clash},
		{[]string{"entails", pos, "bird -> flies", "--hard", hard}, "inconsistent background knowledge: no world satisfies these 2 together (dropping any one resolves it): " + clash},
	} {
		_, errs, code := strata(t, "", c.args...)
		if code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q, want %q", c.args, code, errs, c.want)
		}
	}
}

// TestServeAllowOriginFlag: --allow-origin reaches the server's
// configuration, which checks it before listening.
func TestServeAllowOriginFlag(t *testing.T) {
	_, errs, code := strata(t, "", "serve", "--addr", "127.0.0.1:0", "--allow-origin", "https://ok.example", "--allow-origin", "ftp://bad.example")
	if code == 0 || !strings.Contains(errs, `--allow-origin "ftp://bad.example": want an origin scheme://host[:port]`) {
		t.Fatalf("exit %d, %q", code, errs)
	}
}

// chain returns a0 -> a1 -> … with n operands.
func chain(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString("a" + strconv.Itoa(i))
	}
	return b.String()
}

// TestChainsReadBack: a '->' chain of 5,002 to 10,000 operands, which
// strata reads, is written so that it reads back: show of show, and a
// query on the theory closure writes.
func TestChainsReadBack(t *testing.T) {
	for _, n := range []int{5002, 10000} {
		th := writeFile(t, "chain.theory", "1: "+chain(n)+"\n")
		out, errs, code := strata(t, "", "show", th)
		if code != 0 {
			t.Fatalf("show, %d operands: %q", n, errs)
		}
		again := writeFile(t, "again.theory", out)
		if out2, errs, code := strata(t, "", "show", again); code != 0 || out2 != out {
			t.Fatalf("show of show, %d operands: %d %q", n, code, errs)
		}
		rules := writeFile(t, "chain.rules", "x -> "+chain(n-1)+"\n")
		closed := filepath.Join(t.TempDir(), "closed.theory")
		if _, errs, code := strata(t, "", "closure", rules, "-o", closed); code != 0 {
			t.Fatalf("closure, %d operands: %q", n, errs)
		}
		if out, errs, code := strata(t, "", "query", closed, "x -> a0 -> a1"); code != 0 || !strings.HasPrefix(out, "no") && !strings.HasPrefix(out, "yes") {
			t.Fatalf("query on the closure, %d operands: %d %q %q", n, code, out, errs)
		}
	}
}

// TestQueryTooDeep: a plain formula nested past the limit is reported as
// such, not as a missing '->'.
func TestQueryTooDeep(t *testing.T) {
	th := writeFile(t, "a.theory", "1: a\n")
	_, errs, code := strata(t, "", "query", th, strings.Repeat("!", 10001)+"a")
	if code == 0 || !strings.Contains(errs, "formula nested more than 10000 levels deep") {
		t.Fatalf("exit %d, %.200q", code, errs)
	}
}

// TestStratifySaysWhyAFormulaIsNoClause: the greedy stratifier names the
// file and line of a formula it cannot take, and says when it is a
// tautology (which AsClause does not take for a clause) rather than
// calling it "not a clause".
func TestStratifySaysWhyAFormulaIsNoClause(t *testing.T) {
	pos, neg := writeFile(t, "p", "a -> b\n"), writeFile(t, "n", "b -> a\n")
	for src, want := range map[string]string{
		"b\n\na | !a\n": ":3: a | !a is a tautology: it holds in every world",
		"b\na & b\n":    ":2: a & b is not a clause; the greedy stratifier needs clauses",
	} {
		cl := writeFile(t, "clauses", src)
		_, errs, code := strata(t, "", "stratify", cl, "--pos", pos, "--neg", neg)
		if code != 1 || !strings.Contains(errs, cl+want) {
			t.Errorf("%q: exit %d, %q, want %s%s", src, code, errs, cl, want)
		}
	}
}

// TestNoExamplesNamesTheFiles: example files that hold no example are an
// error naming the flags and files, not "eval: no examples".
func TestNoExamplesNamesTheFiles(t *testing.T) {
	empty, comments := writeFile(t, "e.defaults", ""), writeFile(t, "c.defaults", "# nothing\n\n")
	pos, neg := writeFile(t, "p", "a -> b\n"), writeFile(t, "n", "a -> !b\n")
	th := writeFile(t, "t.theory", "0.5: a\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", th, "--pos", empty, "--neg", comments}, "no examples: --pos " + empty + " and --neg " + comments + " hold none"},
		{[]string{"eval", th, "--pos", empty, "--neg", comments, "--json"}, "no examples: --pos " + empty + " and --neg " + comments + " hold none"},
		{[]string{"learn", "--pos", empty, "--neg", comments}, "no training examples: --pos " + empty + " and --neg " + comments + " hold none"},
		{[]string{"learn", "--pos", pos, "--neg", neg, "--test-pos", empty, "--test-neg", empty}, "no test examples: --test-pos " + empty + " and --test-neg " + empty + " hold none"},
	} {
		if _, errs, code := strata(t, "", c.args...); code != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, errs)
		}
	}
}
