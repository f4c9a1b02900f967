package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain runs strata's main instead of the tests when STRATA_MAIN_ARGS
// holds a command line (a JSON list), so that a test can run the command
// as a process with its standard output closed.
func TestMain(m *testing.M) {
	if a := os.Getenv("STRATA_MAIN_ARGS"); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			panic(err)
		}
		os.Args = append([]string{"strata"}, args...)
		main()
	}
	os.Exit(m.Run())
}

// mainWith runs strata as a process with the command line args, through
// sh so that redirect (">&-", "> /dev/null") applies to its standard
// output, and returns its standard error and exit status.
func mainWith(t *testing.T, redirect string, args ...string) (string, int) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(args)
	cmd := exec.Command("sh", "-c", `exec "$0" `+redirect, exe)
	cmd.Env = append(os.Environ(), "STRATA_MAIN_ARGS="+string(a))
	var errb strings.Builder
	cmd.Stderr = &errb
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return errb.String(), cmd.ProcessState.ExitCode()
}

// TestClosedStdoutFails: a command whose result cannot be written fails,
// whether standard output was closed (strata query … >&-) or the write
// fails (/dev/full); writing to /dev/null on purpose succeeds, opened for
// writing (> /dev/null) or for reading and writing (1<> /dev/null, as
// Python's subprocess.DEVNULL opens it), and so does a command that prints
// nothing.
func TestClosedStdoutFails(t *testing.T) {
	if !detectsClosedStdout {
		t.Skip("closed standard output is detected on Linux, in a build with cgo")
	}
	dir := t.TempDir()
	if _, errs, code := strata(t, "", "examples", dir); code != 0 {
		t.Fatal(errs)
	}
	ex := func(name string) string { return dir + "/" + name }
	commands := [][]string{
		{"query", "--json", ex("penguin.theory"), "penguin -> flies"},
		{"query", ex("penguin.theory"), "--given", "penguin"},
		{"show", ex("penguin.theory")},
		{"closure", ex("penguins.rules")},
		{"entails", ex("penguins.rules"), "penguin -> flies"},
		{"predict", ex("loans.theory"), "--table", ex("applicants.csv")},
		{"eval", ex("penguin.theory"), "--pos", ex("penguins.rules"), "--neg", ex("penguins.rules")},
		{"query", "--help"},
	}
	for _, args := range commands {
		if errs, code := mainWith(t, ">&-", args...); code != 1 || !strings.Contains(errs, "standard output is closed") {
			t.Errorf("%v >&-: exit %d, %q", args, code, errs)
		}
		if errs, code := mainWith(t, "> /dev/full", args...); code != 1 || !strings.Contains(errs, "write standard output: no space left on device") {
			t.Errorf("%v > /dev/full: exit %d, %q", args, code, errs)
		}
		for _, null := range []string{"> /dev/null", "1<> /dev/null"} {
			if errs, code := mainWith(t, null, args...); code != 0 {
				t.Errorf("%v %s: exit %d, %q", args, null, code, errs)
			}
		}
	}
	// Nothing to write: nothing lost.
	if errs, code := mainWith(t, ">&-", "closure", ex("penguins.rules"), "-o", dir+"/t.theory"); code != 0 {
		t.Errorf("closure -o FILE >&-: exit %d, %q", code, errs)
	}
}
