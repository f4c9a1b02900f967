package weka

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/fileutil"
)

// find returns a Runner, or skips the test when Weka is missing (fails it
// when STRATA_REQUIRE_WEKA is set).
func find(t *testing.T) *Runner {
	t.Helper()
	r, err := Find()
	if err != nil {
		if os.Getenv("STRATA_REQUIRE_WEKA") != "" {
			t.Fatalf("STRATA_REQUIRE_WEKA is set: %v", err)
		}
		t.Skipf("%v; skipping", err)
	}
	return r
}

const j48Report = `
J48 pruned tree
------------------

a = 0: none (23.0/1.0)
a = 1: x (19.0/1.0)

Number of Leaves  : 	2

Size of the tree : 	3


Time taken to build model: 0.01 seconds

=== Error on test data ===

Correctly Classified Instances          92               92      %
Incorrectly Classified Instances         8                8      %
Kappa statistic                          0.8739
Total Number of Instances              100     
`

func TestParse(t *testing.T) {
	r, err := parse(j48Report)
	if err != nil {
		t.Fatal(err)
	}
	if r.Correct != 92 || r.Total != 100 || r.Accuracy() != 0.92 || r.TreeSize != 3 || r.Leaves != 2 {
		t.Fatalf("%+v", r)
	}
	if _, err := parse("Weka exception: No source has been specified\n\nGeneral options:\n"); err == nil || err.Error() != "Weka exception: No source has been specified" {
		t.Fatalf("exception: %v", err)
	}
	if _, err := parse("Error: Could not find or load main class weka\n"); err == nil || !strings.Contains(err.Error(), "Could not find or load main class") {
		t.Fatalf("java error: %v", err)
	}
	if _, err := parse("=== Error on test data ===\n\nTotal Number of Instances 3\n"); err == nil {
		t.Fatal("report without a count accepted")
	}
}

// writeARFF writes a table whose class is x exactly when a = 1, with b as
// noise, so that the best tree has three nodes.
func writeARFF(t *testing.T, dir, name string, n int) string {
	t.Helper()
	a := &ARFF{Relation: "t", Attributes: []Attribute{
		{Name: "a", Values: []string{"0", "1"}}, {Name: "b", Values: []string{"0", "1"}},
		{Name: "class", Values: []string{"x", "y", "none"}}}}
	for i := 0; i < n; i++ {
		class := "y"
		if i%2 == 1 {
			class = "x"
		}
		a.Rows = append(a.Rows, []string{fmt.Sprint(i % 2), fmt.Sprint(i / 2 % 2), class})
	}
	p := filepath.Join(dir, name)
	if err := fileutil.WriteAtomic(p, a.Write); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRun(t *testing.T) {
	r := find(t)
	dir := t.TempDir()
	train, test := writeARFF(t, dir, "train.arff", 40), writeARFF(t, dir, "test.arff", 10)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, c := range Baselines {
		res, err := r.Run(ctx, c, train, test)
		if err != nil {
			t.Fatal(err)
		}
		if res.Correct != 10 || res.Total != 10 {
			t.Errorf("%s: %d of %d right, want 10 of 10", c.Name, res.Correct, res.Total)
		}
		switch c.Name {
		case "C4.5":
			if res.TreeSize != 3 || res.Leaves != 2 {
				t.Errorf("J48 tree: %d nodes, %d leaves; want 3, 2\n%s", res.TreeSize, res.Leaves, res.Report)
			}
		case "RIPPER":
			if res.Rules != 2 {
				t.Errorf("JRip: %d rules, want 2\n%s", res.Rules, res.Report)
			}
		}
	}
	if _, err := r.Run(ctx, J48, train, filepath.Join(dir, "missing.arff")); err == nil {
		t.Fatal("a missing test file gave no error")
	}
}

func TestFindWithoutWeka(t *testing.T) {
	t.Setenv("WEKA_JAR", filepath.Join(t.TempDir(), "weka.jar"))
	if _, err := Find(); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Find with a missing jar: %v", err)
	}
}
