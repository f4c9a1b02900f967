package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageErrors checks the README's promise: every malformed command line
// exits with status 2 and one line on stderr, and nothing on stdout.
func TestUsageErrors(t *testing.T) {
	th := writeFile(t, "penguin.theory", penguinTheory)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"bogus"}, `unknown command "bogus" for "strata"`},
		{[]string{"lern"}, `unknown command "lern" for "strata"; did you mean "learn"?`},
		{[]string{"mln", "bogus"}, `unknown command "bogus" for "strata mln"`},
		{[]string{"crowd", "bogus"}, `unknown command "bogus" for "strata crowd"`},
		{[]string{"bench", "bogus"}, `unknown command "bogus" for "strata bench"`},
		{[]string{"--bogus"}, "unknown flag: --bogus"},
		{[]string{"learn", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"mln", "map", "x.mln", "--bogus"}, "unknown flag: --bogus"},
		{[]string{"query"}, "query takes 1 to 2 arguments, got 0"},
		{[]string{"query", th}, "needs a QUERY or --given"},
		{[]string{"closure"}, "closure takes 1 argument(s), got 0"},
		{[]string{"learn", "--iterations"}, "flag needs an argument: --iterations"},
		{[]string{"learn", "--iterations", "many"}, `invalid argument "many" for "--iterations" flag`},
		{[]string{"mln", "map", "x.mln", "--map", "gibbs"}, `invalid argument "gibbs" for "--map" flag: want exact or approx`},
		{[]string{"mln", "examples", "x.mln", "-o", t.TempDir(), "--test", "5"}, "unknown flag: --test"},
		{[]string{"crowd", "table", "x.csv"}, "give the output directory with -o OUT"},
		{[]string{"help", "bogus"}, `unknown help topic "bogus"`},
		{[]string{"help", "mln", "bogus"}, `unknown help topic "mln bogus"`},
	}
	for _, c := range cases {
		out, errs, code := strata(t, "", c.args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 || !strings.HasSuffix(errs, "\n") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and one line containing %q", c.args, code, out, errs, c.want)
		}
	}
}

// TestUsageAlone checks that strata and its command groups alone print
// their usage on stderr and exit with status 2, and that help is on stdout
// with status 0.
func TestUsageAlone(t *testing.T) {
	for _, args := range [][]string{nil, {"mln"}, {"crowd"}, {"bench"}} {
		out, errs, code := strata(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errs, "Usage:") || !strings.Contains(errs, "Available Commands:") {
			t.Errorf("strata %v: exit %d, stdout %q, stderr %q; want the usage on stderr and exit 2", args, code, out, errs)
		}
	}
	out, errs, code := strata(t, "", "help")
	if code != 0 || errs != "" || !strings.Contains(out, "Available Commands:") {
		t.Errorf("strata help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = strata(t, "", "help", "mln", "map")
	if code != 0 || errs != "" || !strings.Contains(out, "strata mln map NET.mln") {
		t.Errorf("strata help mln map: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	out, errs, code = strata(t, "", "--help")
	if code != 0 || errs != "" || !strings.Contains(out, "Available Commands:") {
		t.Errorf("strata --help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestVersion(t *testing.T) {
	out, errs, code := strata(t, "", "--version")
	if code != 0 || errs != "" || !strings.HasPrefix(out, "strata ") || strings.Count(out, "\n") != 1 {
		t.Fatalf("--version: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	// A test binary has build information (its main module is this one),
	// so the fallback is not what prints here.
	if v := version(); v == "(unknown version)" || !strings.Contains(out, v) {
		t.Fatalf("--version printed %q, version() is %q", out, v)
	}
}

// TestFlagAliases checks that the old spellings still work: --out for
// -o/--output, --approx for --map approx, --train for --train-examples and
// --no-weka for --weka=false with a note on stderr, and --background for
// --hard without one.
func TestFlagAliases(t *testing.T) {
	table := writeFile(t, "small.data", mlnTable())
	dir := t.TempDir()
	net := filepath.Join(dir, "small.mln")
	if _, errs, code := strata(t, "", "mln", "learn", table, "--output", net, "--min-leaf", "2"); code != 0 {
		t.Fatalf("mln learn --output: %d %s", code, errs)
	}
	want, _, _ := strata(t, "", "mln", "map", net, "--given", "a1", "--map", "approx", "--flips", "500")
	out, errs, code := strata(t, "", "mln", "map", net, "--given", "a1", "--approx", "--flips", "500")
	if code != 0 || out != want || !strings.HasPrefix(out, "the best world MaxWalkSAT found") || errs != "strata: --approx is deprecated; use --map approx\n" {
		t.Fatalf("--approx: %d %q %q, want %q", code, out, errs, want)
	}
	ex := filepath.Join(dir, "ex")
	out, errs, code = strata(t, "", "mln", "examples", net, "--output", ex, "--train", "30", "--test-examples", "20")
	if code != 0 || !strings.Contains(out, "train: ") || !strings.HasPrefix(errs, "strata: --train is deprecated; use --train-examples\n") {
		t.Fatalf("mln examples --train: %d %q %q", code, out, errs)
	}
	if st, err := os.Stat(filepath.Join(ex, "train.defaults")); err != nil || st.Size() == 0 {
		t.Fatalf("--output of mln examples not written: %v", err)
	}
	hard := writeFile(t, "hard.rules", "!penguin | bird\n")
	withHard, _, _ := strata(t, "penguin -> !flies\nbird -> flies\n", "closure", "-", "--hard", hard)
	out, errs, code = strata(t, "penguin -> !flies\nbird -> flies\n", "closure", "-", "--background", hard)
	if code != 0 || errs != "" || out != withHard || !strings.Contains(out, "1: !penguin | bird") {
		t.Fatalf("closure --background: %d %q %q, want %q", code, out, errs, withHard)
	}
	// crowd table with --out writes where -o writes.
	csv := writeFile(t, "answers.csv", "who,down,call\na,1,run\nb,1,pass\nc,2,run\nd,2,run\ne,1,run\n")
	crowdOut := filepath.Join(dir, "crowd")
	_, errs, code = strata(t, "", "crowd", "table", csv, "--out", crowdOut, "--annotator", "who", "--answer", "call")
	if code != 0 || !strings.Contains(errs, "strata: --out is deprecated; use -o/--output\n") {
		t.Fatalf("crowd table --out: %d %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(crowdOut, "manifest.json")); err != nil {
		t.Fatalf("crowd table --out wrote nothing: %v", err)
	}
}
