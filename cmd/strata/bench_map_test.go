package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

// TestBenchMapQuick runs the small reproduction through the command line
// (the library test mln/repro covers the baselines and checks the files in
// depth).
func TestBenchMapQuick(t *testing.T) {
	data := shared.Data(t, "debd/nltcs/nltcs.train.data")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "bench", "map", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data,
		"--seed", "3", "--train-examples", "80", "--test-examples", "60")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "NLTCS") || !strings.Contains(stdout, "Poss.") || strings.Contains(stdout, "NaN") {
		t.Errorf("stdout lacks the table:\n%s", stdout)
	}
	for _, step := range []string{"nltcs: learning the network from debd/nltcs/nltcs.train.data", "drawing 80 + 60 examples",
		"nltcs labelling: 140 of 140", "choosing the number of iterations", "learning on all 80 training examples", "wrote "} {
		if !strings.Contains(stderr, step) {
			t.Errorf("stderr lacks progress %q:\n%s", step, stderr)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "`strata bench map --data " + data + " --output " + out + " --quick --seed 3 --test-examples 60 --train-examples 80 --weka=false --xgboost=false` (seed 3)"
	if !strings.Contains(string(md), want) {
		t.Errorf("results.md does not record the command %s:\n%s", want, md)
	}
	for _, f := range []string{"nltcs.theory", "nltcs/nltcs.mln", "nltcs/train.arff", "nltcs/test.defaults"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestBenchMapUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "map", "extra"},
		{"bench", "map", "--map", "gibbs", "--weka=false"},
		{"bench", "map", "--iterations", "-2", "--weka=false"},
		{"bench", "map", "--max-evidence", "0", "--weka=false"},
		{"bench", "map", "--seed", "x"},
	} {
		_, stderr, code := strata(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "strata: ") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
	data := t.TempDir()
	os.Mkdir(filepath.Join(data, "debd"), 0o755)
	_, stderr, code := strata(t, "", "bench", "map", "--weka=false", "--data", data, "-o", t.TempDir(), "--datasets", "chess")
	if code != 1 || !strings.Contains(stderr, `unknown dataset "chess"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestBenchData checks where the bench commands look for the data: --data,
// else $STRATA_DATA, else ../shared/data; without them they say how to give
// the data, and leave no output directory behind.
func TestBenchData(t *testing.T) {
	t.Setenv(dataEnv, "")
	t.Chdir(t.TempDir()) // no ../shared/data here
	out := filepath.Join(t.TempDir(), "new", "bench")
	for _, args := range [][]string{
		{"bench", "map", "--weka=false", "-o", out},
		{"bench", "crowd", "--weka=false", "-o", out},
		{"bench", "map", "--weka=false", "-o", out, "--data", "nowhere"},
	} {
		_, stderr, code := strata(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "give the public data with --data DIR or $STRATA_DATA") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
		if _, err := os.Stat(filepath.Dir(out)); err == nil {
			t.Errorf("%v left %s behind", args, filepath.Dir(out))
		}
	}
	data := t.TempDir()
	os.Mkdir(filepath.Join(data, "debd"), 0o755)
	t.Setenv(dataEnv, data)
	_, stderr, code := strata(t, "", "bench", "map", "--weka=false", "-o", out, "--datasets", "nltcs")
	if code != 1 || !strings.Contains(stderr, "nltcs") || strings.Contains(stderr, "STRATA_DATA") {
		t.Errorf("$STRATA_DATA with an empty debd/: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Dir(out)); err == nil {
		t.Errorf("a failed run left the empty %s behind", filepath.Dir(out))
	}
	if _, stderr, code = strata(t, "", "bench", "map", "-o", "-"); code != 2 {
		t.Errorf("-o -: exit %d, stderr %q", code, stderr)
	}
}

// TestBenchChecksArgumentsBeforeTools runs the benches on a machine
// without Weka and XGBoost (both hidden): an argument or data error is
// reported as such, not as a missing tool, and a missing tool is reported
// before any work, leaving no output behind.
func TestBenchChecksArgumentsBeforeTools(t *testing.T) {
	t.Setenv("WEKA_JAR", filepath.Join(t.TempDir(), "no-weka.jar"))
	t.Setenv("STRATA_PYTHON", filepath.Join(t.TempDir(), "no-python"))
	data := t.TempDir()
	os.MkdirAll(filepath.Join(data, "debd", "nltcs"), 0o755)
	suite := t.TempDir()
	os.WriteFile(filepath.Join(suite, "datasets.tsv"), []byte("name\tkind\tfiles\tlabel\tpositive\tfeatures\tnumeric\nsmall\tbinary\tsmall.csv\tclass\tyes\tx\tx\n"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bench", "map", "--iterations", "-2"}, 2, "--iterations"},
		{[]string{"bench", "crowd", "--test-fraction", "0"}, 2, "--test-fraction"},
		{[]string{"bench", "map", "--data", data, "--datasets", "chess"}, 1, `unknown dataset "chess"`},
		{[]string{"bench", "map", "--data", data, "--datasets", "nltcs"}, 1, "dataset nltcs"},
		{[]string{"bench", "crowd", "--data", t.TempDir(), "--domains", "chess"}, 1, `unknown domain "chess"`},
		{[]string{"bench", "tabular", "--data", suite, "--datasets", "chess"}, 1, `no table "chess"`},
	} {
		_, stderr, code := strata(t, "", append(c.args, "-o", out)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
	// Valid arguments: the tools are looked for before any file is read
	// (these are empty) or written.
	for _, f := range []string{"nltcs.train.data", "nltcs.test.data"} {
		os.WriteFile(filepath.Join(data, "debd", "nltcs", f), nil, 0o644)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "map", "--data", data, "--datasets", "nltcs"}, "weka is not installed"},
		{[]string{"bench", "map", "--data", data, "--datasets", "nltcs", "--weka=false"}, "xgboost is not installed"},
	} {
		_, stderr, code := strata(t, "", append(c.args, "-o", out)...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: a missing tool left %s behind", c.args, out)
		}
	}
}
