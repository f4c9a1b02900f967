package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const (
	birdPos = "penguin -> bird\nbird -> flies\npenguin -> !flies\nbird, red -> flies\npenguin, red -> !flies\n"
	birdNeg = " -> bird\nbird -> penguin\npenguin -> flies\nbird -> !flies\n"
)

func TestLearnBuiltin(t *testing.T) {
	out, errs, code := strata(t, "", "learn", "--iterations", "15")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "built-in example") || !strings.Contains(errs, "test accuracy: 0.") || !strings.Contains(errs, "VC dimension <= n*log2(k)") {
		t.Fatalf("stderr:\n%s", errs)
	}
	if !strings.Contains(out, ": ") || !strings.Contains(out, "bird") {
		t.Fatalf("no theory on stdout:\n%s", out)
	}
}

func TestLearnFilesCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	pos := writeFile(t, "birds.defaults", birdPos)
	neg := writeFile(t, "birds.nondefaults", birdNeg)
	th := filepath.Join(dir, "birds.theory")
	cp := filepath.Join(dir, "run.checkpoint")
	hist := filepath.Join(dir, "history.csv")
	plot := filepath.Join(dir, "curves.svg")
	_, errs, code := strata(t, "", "learn", "--pos", pos, "--neg", neg, "-o", th, "--checkpoint", cp,
		"--history", hist, "--plot", plot, "--iterations", "3", "--patience", "0", "--seed", "7")
	if code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errs)
	}
	for _, p := range []string{th, cp, hist, plot} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Fatalf("%s not written: %v", p, err)
		}
	}
	h, _ := os.ReadFile(hist)
	if lines := strings.Split(strings.TrimSpace(string(h)), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[0], "iteration,train_accuracy") {
		t.Fatalf("history:\n%s", h)
	}
	_, errs, code = strata(t, "", "learn", "--pos", pos, "--neg", neg, "-o", th, "--resume", cp, "--iterations", "6", "--patience", "0")
	if code != 0 || !strings.Contains(errs, "after 6 iterations") {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	// The learned theory scores as the summary says.
	var trainAcc string
	if i := strings.Index(errs, "training accuracy: "); i >= 0 {
		trainAcc = strings.Fields(errs[i+len("training accuracy: "):])[0]
	}
	out, _, code := strata(t, "", "eval", th, "--pos", pos, "--neg", neg)
	if code != 0 || trainAcc == "" || !strings.HasPrefix(out, "accuracy: "+trainAcc+"\n") {
		t.Fatalf("eval: %d, learn said training accuracy %q\n%s", code, trainAcc, out)
	}
	// Resuming on other data is refused.
	_, errs, code = strata(t, "", "learn", "--pos", neg, "--neg", pos, "--resume", cp)
	if code != 1 || !strings.Contains(errs, "other training data") {
		t.Fatalf("resume on other data: %d %s", code, errs)
	}
}

func TestLearnValidation(t *testing.T) {
	_, errs, code := strata(t, "", "learn", "--validation", "0.3")
	if code != 0 || !strings.Contains(errs, "validation: best") || !strings.Contains(errs, "iteration limit reached") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
}

// TestLearnFolds: --folds chooses the iterations by cross-validation (and
// --prune the support on the same folds); it is refused with --validation
// and with --resume; --folds 1 is one held-out part of --validation's
// share, as --validation alone is.
func TestLearnFolds(t *testing.T) {
	out, errs, code := strata(t, "", "learn", "--folds", "3", "--prune", "--iterations", "30")
	if code != 0 || !strings.Contains(errs, "by 3-fold cross-validation") || !strings.Contains(errs, "validation: best") ||
		!strings.Contains(errs, "support: pruning clauses that at most") || !strings.Contains(out, ":") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	chose := regexp.MustCompile(`chose (\d+) iterations`).FindStringSubmatch(errs)
	ran := regexp.MustCompile(`(\d+) iterations \(iteration limit reached\)|after (\d+) iterations`).FindStringSubmatch(errs)
	if chose == nil || ran == nil {
		t.Fatalf("no choice or final run reported:\n%s", errs)
	}
	one, errs1, code := strata(t, "", "learn", "--folds", "1")
	share, errs2, code2 := strata(t, "", "learn", "--validation", "0.3")
	times := regexp.MustCompile(`\([0-9.]+[µm]?s\)`)
	errs1, errs2 = times.ReplaceAllString(errs1, ""), times.ReplaceAllString(errs2, "")
	if code != 0 || code2 != 0 || one != share || !strings.Contains(errs1, "validating on") || errs1 != errs2 {
		t.Errorf("--folds 1 (exit %d) and --validation 0.3 (exit %d) differ:\n%s\n%s", code, code2, errs1, errs2)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--folds", "3", "--validation", "0.3"}, "give one of them"},
		{[]string{"--folds", "-1"}, "--folds -1: give a whole number of at least 0"},
		{[]string{"--folds", "3", "--resume", "x"}, "do not combine with --resume"},
	} {
		if _, errs, code := strata(t, "", append([]string{"learn"}, tc.args...)...); code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %s", tc.args, code, errs)
		}
	}
}

// TestLearnPrune: --prune chooses a support threshold on the held-out
// examples and says what it pruned; the theory printed is the pruned one.
func TestLearnPrune(t *testing.T) {
	out, errs, code := strata(t, "", "learn", "--validation", "0.3", "--prune")
	if code != 0 || !strings.Contains(errs, "support: pruning clauses that at most") || !strings.Contains(errs, "pruned the clauses that at most") {
		t.Fatalf("exit %d:\n%s", code, errs)
	}
	m := regexp.MustCompile(`→ (\d+) literals`).FindStringSubmatch(errs)
	lits := regexp.MustCompile(`theory: .*, (\d+) literals?`).FindStringSubmatch(errs)
	if m == nil || lits == nil || m[1] != lits[1] || !strings.Contains(out, ":") {
		t.Fatalf("the pruning and the summary disagree on the size:\n%s", errs)
	}
	if _, errs, code := strata(t, "", "learn", "--prune"); code != 2 || !strings.Contains(errs, "give --folds or --validation too") {
		t.Fatalf("--prune without --validation: %d %s", code, errs)
	}
}

func TestLearnErrors(t *testing.T) {
	pos := writeFile(t, "p.defaults", "bird -> flies\nbird flies\n")
	neg := writeFile(t, "n.defaults", " -> bird\n")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"learn", "--pos", pos}, 2, "--pos needs --neg"},
		{[]string{"learn", "--neg", neg}, 2, "need --pos"},
		{[]string{"learn", "--pos", pos, "--neg", neg}, 1, "p.defaults:2:11: expected '->' or '|~'"},
		{[]string{"learn", "--pos", pos, "--neg", neg, "--plot", filepath.Join(t.TempDir(), "x.pdf")}, 2, `x.pdf: unknown image format ".pdf" (use .svg or .png)`},
	}
	for _, c := range cases {
		_, errs, code := strata(t, "", c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

func TestStratifyAndEval(t *testing.T) {
	pos := writeFile(t, "s.defaults", "penguin -> bird\nbird -> flies\npenguin -> !flies\n")
	neg := writeFile(t, "s.nondefaults", " -> bird\nbird -> penguin\n")
	cl := writeFile(t, "t.clauses", "bird\nflies\npenguin\n!penguin | !flies\n")
	out, errs, code := strata(t, "", "stratify", cl, "--pos", pos, "--neg", neg)
	if code != 0 {
		t.Fatalf("stratify: %d %s", code, errs)
	}
	th := writeFile(t, "t.theory", out)
	ev, _, _ := strata(t, "", "eval", th, "--pos", pos, "--neg", neg)
	if !strings.HasPrefix(ev, "accuracy: 0.8000\n") {
		t.Fatalf("greedy stratification of Example 2 should misclassify one of five:\n%s\n%s", out, ev)
	}
	_, errs, code = strata(t, "", "stratify", "--exact", cl, "--pos", pos, "--neg", neg)
	if code != 1 || !strings.Contains(errs, "no separating stratification exists") {
		t.Fatalf("exact on Example 2: %d %q", code, errs)
	}
	pos3 := writeFile(t, "x.defaults", " -> !x\n -> !y\nx -> a\ny -> b\n")
	neg3 := writeFile(t, "x.nondefaults", "x, y -> a\n")
	cl3 := writeFile(t, "x.clauses", "!x\n!y\n!x | a\n!y | b\n")
	out, errs, code = strata(t, "", "stratify", "--exact", cl3, "--pos", pos3, "--neg", neg3)
	if code != 0 {
		t.Fatalf("exact on Example 3: %d %s", code, errs)
	}
	th3 := writeFile(t, "x.theory", out)
	if ev, _, _ := strata(t, "", "eval", th3, "--pos", pos3, "--neg", neg3); !strings.HasPrefix(ev, "accuracy: 1.0000\n") {
		t.Fatalf("exact stratification does not separate:\n%s\n%s", out, ev)
	}
}

// TestLearnBuiltinTeachesThePaper checks that the built-in example, as the
// README's first command runs it, learns a theory that answers the paper's
// queries as the hidden theory does, and says so.
func TestLearnBuiltinTeachesThePaper(t *testing.T) {
	out, errs, code := strata(t, "", "learn")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	learned := writeFile(t, "learned.theory", out)
	hidden := writeFile(t, "animals.theory", animalsTheory)
	if !strings.Contains(errs, hiddenTheoryFile) {
		t.Errorf("stderr does not name the hidden theory's file %s:\n%s", hiddenTheoryFile, errs)
	}
	if b, err := os.ReadFile(hiddenTheoryFile); err != nil || string(b) != animalsTheory { // strata examples writes it there
		t.Errorf("the hidden theory's file as named: %v", err)
	}
	for _, q := range classicQueries {
		want, _, _ := strata(t, "", "query", hidden, q)
		got, _, _ := strata(t, "", "query", learned, q)
		want, got = strings.SplitN(want, "\n", 2)[0], strings.SplitN(got, "\n", 2)[0]
		if want != "yes" {
			t.Errorf("the hidden theory answers %q to %q; the paper says yes", want, q)
		}
		if got != want {
			t.Errorf("%s: the learned theory says %q, the hidden one %q\n%s", q, got, want, out)
		}
		line := fmt.Sprintf("  %-18s learned: %-3s  hidden: %s\n", q, got, want)
		if !strings.Contains(errs, line) {
			t.Errorf("stderr lacks %q:\n%s", line, errs)
		}
	}
}
