// Package xgboost runs XGBoost's classifier (Debian's python3-xgboost,
// installed by bench/install-xgboost.sh) through a Python interpreter: the
// benchmarks' gradient-boosting baseline, with XGBClassifier's default
// settings (100 rounds, learning rate 0.3, depth 6).
package xgboost

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/internal/fileutil"
)

//go:embed classify.py
var script string

// Runner runs XGBoost through a Python interpreter that imports it.
type Runner struct {
	Python string
}

// ErrNotInstalled is returned by Find when no Python imports xgboost.
var ErrNotInstalled = errors.New("xgboost is not installed (run bench/install-xgboost.sh, or set STRATA_PYTHON to a Python that imports xgboost)")

// Find finds a Python that imports xgboost: STRATA_PYTHON alone when it is
// set (so that it can also hide XGBoost, as CI's run without the optional
// tools does), else Debian's /usr/bin/python3, else python3 on the PATH.
func Find() (*Runner, error) {
	cands := []string{os.Getenv("STRATA_PYTHON")}
	if cands[0] == "" {
		cands = []string{"/usr/bin/python3"}
		// -I in Classify: the script's folder is not searched for modules,
		// so no file there can stand in for xgboost.
		if p, err := exec.LookPath("python3"); err == nil {
			cands = append(cands, p)
		}
	}
	for _, p := range cands {
		if exec.Command(p, "-c", "import xgboost").Run() == nil {
			return &Runner{Python: p}, nil
		}
	}
	if p := os.Getenv("STRATA_PYTHON"); p != "" {
		return nil, fmt.Errorf("%w: STRATA_PYTHON=%s does not import it", ErrNotInstalled, p)
	}
	return nil, ErrNotInstalled
}

// A Matrix writes rows of numbers, comma-separated, one row a line: the
// class number first when it is a training matrix, then the features
// ("nan" for a missing value).
type Matrix func(w io.Writer) error

// Classify trains XGBoost on the training matrix, whose class numbers are
// below classes, and returns the predicted class number of every row of the
// test matrix (features alone), in order. The matrices and the script are
// written into dir; threads bounds XGBoost's threads (at least one).
func (r *Runner) Classify(ctx context.Context, dir string, train, test Matrix, classes, threads int) ([]int, error) {
	trainPath, testPath := filepath.Join(dir, "xgb-train.csv"), filepath.Join(dir, "xgb-test.csv")
	if err := fileutil.WriteAtomic(trainPath, train); err != nil {
		return nil, err
	}
	if err := fileutil.WriteAtomic(testPath, test); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "xgbclassify.py")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, r.Python, "-I", path, trainPath, testPath, strconv.Itoa(classes), strconv.Itoa(max(threads, 1)))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("xgboost: %v: %s", err, strings.TrimSpace(errb.String()))
	}
	var pred []int
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		k, err := strconv.Atoi(strings.TrimSpace(sc.Text()))
		if err != nil || k < 0 || k >= classes {
			return nil, fmt.Errorf("xgboost: prediction %q is not a class number", sc.Text())
		}
		pred = append(pred, k)
	}
	return pred, sc.Err()
}
