package xgboost

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// runner returns XGBoost's runner, or skips the test without it (fails
// when STRATA_REQUIRE_XGBOOST is set, as in CI).
func runner(t *testing.T) *Runner {
	t.Helper()
	r, err := Find()
	if err != nil {
		if os.Getenv("STRATA_REQUIRE_XGBOOST") != "" {
			t.Fatalf("STRATA_REQUIRE_XGBOOST is set: %v", err)
		}
		t.Skip(err)
	}
	return r
}

// TestClassify learns three classes that the first two features decide
// (class = 2a + b, capped at 2) with a noise feature, and predicts rows it
// has seen and a missing value.
func TestClassify(t *testing.T) {
	r := runner(t)
	var train strings.Builder
	for i := range 60 {
		a, b, noise := i%2, i/2%2, i/4%2
		fmt.Fprintf(&train, "%d,%d,%d,%d\n", min(2*a+b, 2), a, b, noise)
	}
	test := "0,0,1\n0,1,0\n1,0,0\n1,1,1\n"
	pred, err := r.Classify(context.Background(), t.TempDir(),
		func(w io.Writer) error { _, err := io.WriteString(w, train.String()); return err },
		func(w io.Writer) error { _, err := io.WriteString(w, test); return err }, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 2, 2}; fmt.Sprint(pred) != fmt.Sprint(want) {
		t.Errorf("predictions %v, want %v", pred, want)
	}
}

// TestClassifyErrors: a class number out of range fails with XGBoost's
// message; a cancelled context ends the run.
func TestClassifyErrors(t *testing.T) {
	r := runner(t)
	rows := func(s string) Matrix { return func(w io.Writer) error { _, err := io.WriteString(w, s); return err } }
	if _, err := r.Classify(context.Background(), t.TempDir(), rows("5,1\n0,0\n"), rows("1\n"), 2, 1); err == nil || !strings.Contains(err.Error(), "xgboost") {
		t.Errorf("class 5 of 2: error %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Classify(ctx, t.TempDir(), rows("1,1\n0,0\n"), rows("1\n"), 2, 1); err == nil {
		t.Error("a cancelled context: no error")
	}
}

// TestFindTakesStrataPythonAlone: STRATA_PYTHON, when set, is the only
// Python tried, so that one without xgboost hides XGBoost even where
// /usr/bin/python3 has it (CI's run without the optional tools).
func TestFindTakesStrataPythonAlone(t *testing.T) {
	dir := t.TempDir()
	fake := dir + "/python"
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("STRATA_PYTHON", fake)
	if r, err := Find(); err != nil || r.Python != fake {
		t.Errorf("STRATA_PYTHON=%s that imports everything: %v, %v", fake, r, err)
	}
	t.Setenv("STRATA_PYTHON", dir+"/none")
	if r, err := Find(); !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), dir+"/none") {
		t.Errorf("STRATA_PYTHON naming no Python: %v, %v; want ErrNotInstalled naming it", r, err)
	}
}
