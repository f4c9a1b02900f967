package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
		{[]string{"crowd", "table", "x.csv"}, "give the output directory with -o DIR"},
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
	timings := func(s string) string { return durationRE.ReplaceAllString(s, "<duration>") }
	if code != 0 || timings(out) != timings(want) || !strings.HasPrefix(out, "the best world MaxWalkSAT found") || errs != "strata: --approx is deprecated; use --map approx\n" {
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
	_, errs, code = strata(t, "", "bench", "map", "--no-weka", "--data", t.TempDir(), "-o", t.TempDir(), "--datasets", "chess")
	if code == 0 || !strings.HasPrefix(errs, "strata: --no-weka is deprecated; use --weka=false\n") || strings.Contains(errs, "Weka") {
		t.Fatalf("bench map --no-weka: %d %q", code, errs)
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

// TestFlagVocabulary walks the command tree and checks the README's flag
// table: one spelling and one meaning per flag everywhere.
func TestFlagVocabulary(t *testing.T) {
	files := map[string]bool{"pos": true, "neg": true, "test-pos": true, "test-neg": true, "hard": true, "test": true, "train": true}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			where := c.CommandPath() + " --" + f.Name
			if f.Hidden {
				if len(f.Annotations[deprecatedNote]) == 0 && f.Name != "background" {
					t.Errorf("%s: hidden but neither deprecated nor a documented alias", where)
				}
				return
			}
			switch {
			case f.Shorthand == "o" && f.Name != "output", f.Name == "output" && f.Shorthand != "o":
				t.Errorf("%s (-%s): -o is --output everywhere", where, f.Shorthand)
			case f.Name == "out" || f.Name == "no-weka" || f.Name == "approx":
				t.Errorf("%s: an old spelling is visible", where)
			case f.Name == "java-memory" && f.DefValue != defaultJavaMemory:
				t.Errorf("%s: default %s, want %s everywhere", where, f.DefValue, defaultJavaMemory)
			case f.Name == "map" && f.Value.Type() != "exact|approx":
				t.Errorf("%s: type %s, want exact|approx", where, f.Value.Type())
			case files[f.Name] && f.Value.Type() != "string":
				t.Errorf("%s names data, so it takes a file, not a %s", where, f.Value.Type())
			case f.Name == "java-memory" && c.LocalFlags().Lookup("weka") == nil:
				t.Errorf("%s: a command that runs Weka has --weka", where)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
}
