package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

// TestBenchCrowdQuick runs the small reproduction through the command line
// (the library test crowd/repro covers the baselines and checks the files in
// depth).
func TestBenchCrowdQuick(t *testing.T) {
	data := shared.Data(t, "football/fourth_down")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "bench", "crowd", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data,
		"--domains", "fourth_down", "--seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "Football (4th down)") || !strings.Contains(stdout, "Poss.") || strings.Contains(stdout, "NaN") {
		t.Errorf("stdout lacks the table:\n%s", stdout)
	}
	for _, step := range []string{"fourth_down: reading football/fourth_down", "choosing the number of iterations", "learning on all", "wrote "} {
		if !strings.Contains(stderr, step) {
			t.Errorf("stderr lacks progress %q:\n%s", step, stderr)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "`strata bench crowd --data " + data + " --domains fourth_down --output " + out + " --quick --seed 3 --weka=false --xgboost=false` (seed 3)"
	if !strings.Contains(string(md), want) {
		t.Errorf("results.md does not record the command %s:\n%s", want, md)
	}
	if _, err := os.Stat(filepath.Join(out, "fourth_down.theory")); err != nil {
		t.Error(err)
	}
}

// TestBenchCrowdRuns runs the small reproduction twice through the command
// line: one directory per seed, the summary, and the JSON of both runs.
func TestBenchCrowdRuns(t *testing.T) {
	data := shared.Data(t, "football/fourth_down")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, code := strata(t, "", "bench", "crowd", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data,
		"--domains", "fourth_down", "--seed", "3", "--runs", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"test accuracy over 2 runs (seeds 3 to 4)", "Football (4th down)", "(no baseline ran)", "see summary.md"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "run 2 of 2: seed 4") {
		t.Errorf("stderr lacks the runs' progress:\n%s", stderr)
	}
	for _, f := range []string{"summary.md", "seed3/results.md", "seed4/results.md", "seed4/fourth_down.theory"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "seed4", "results.md"))
	if err != nil || !strings.Contains(string(md), "(seed 4)") {
		t.Errorf("the second run's results.md does not say its seed: %v\n%s", err, md)
	}
	stdout, stderr, code = strata(t, "", "bench", "crowd", "--quick", "--weka=false", "--xgboost=false", "-o", out, "--data", data,
		"--domains", "fourth_down", "--runs", "2", "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, stderr)
	}
	var got repeatJSON
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Seeds) != 2 || len(got.Runs) != 2 || len(got.Rows) != 1 || got.Rows[0].Judged != 0 || got.Runs[1].Output != filepath.Join(out, "seed2") {
		t.Errorf("JSON %+v", got)
	}
}

func TestBenchCrowdUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "crowd", "extra"},
		{"bench", "crowd", "--test-fraction", "0"},
		{"bench", "crowd", "--iterations", "-2", "--weka=false"},
		{"bench", "crowd", "--seed", "x"},
	} {
		_, stderr, code := strata(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "strata: ") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
	_, stderr, code := strata(t, "", "bench", "crowd", "--weka=false", "--data", t.TempDir(), "-o", t.TempDir(), "--domains", "chess")
	if code != 1 || !strings.Contains(stderr, `unknown domain "chess"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
