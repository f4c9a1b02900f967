package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// dataEnv names the environment variable that says where the public data
// are when --data does not.
const dataEnv = "STRATA_DATA"

// defaultData is the data directory of a checkout: ../shared/data beside
// the repository, from its root.
var defaultData = filepath.Join("..", "shared", "data")

// dataUsage describes --data on the bench commands.
const dataUsage = "the public data directory (default: $" + dataEnv + ", else ../shared/data from the current directory; see docs/data.md)"

// findData returns the data directory of a bench command: --data, else
// $STRATA_DATA, else ../shared/data. It checks that each of needs (paths
// inside it) exists, and otherwise says what is missing and how to give
// the data, before anything is written.
func findData(flag string, needs ...string) (string, error) {
	dir, from := flag, "--data"
	if dir == "" {
		dir, from = os.Getenv(dataEnv), "$"+dataEnv
	}
	if dir == "" {
		dir, from = defaultData, "the default ../shared/data"
	}
	abs, _ := filepath.Abs(dir)
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return "", fmt.Errorf("no data directory at %s (%s, %s): give the public data with --data DIR or $%s (docs/data.md says what it holds and where it comes from)", dir, from, abs, dataEnv)
	}
	for _, n := range needs {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			return "", fmt.Errorf("the data directory %s (%s) has no %s: give the public data with --data DIR or $%s (docs/data.md)", dir, from, n, dataEnv)
		}
	}
	return dir, nil
}

// removeIfEmpty removes dir, which a failed run made, when it holds
// nothing but empty directories: a run that wrote nothing leaves nothing.
func removeIfEmpty(dir string) {
	empty := true
	var dirs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			empty = false
			return filepath.SkipAll
		}
		dirs = append(dirs, p)
		return nil
	})
	if !empty {
		return
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Remove(dirs[i])
	}
}

// runInDir runs a command that writes the directory dir: when the run
// fails, the directories it made on the way to dir (those that did not
// exist before) are removed if it left them empty.
func runInDir(dir string, run func() error) error {
	made := "" // the highest directory on the way to dir that does not exist
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = d
		if filepath.Dir(d) == d {
			break
		}
	}
	err := run()
	if err != nil && made != "" {
		removeIfEmpty(made)
	}
	return err
}
