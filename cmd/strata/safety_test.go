package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLearnUnitHardRule is the command: a hard rule that entails a
// negative example's consequent made learn stop with an internal error.
func TestLearnUnitHardRule(t *testing.T) {
	p := writeFile(t, "p", "b -> !c\n")
	n := writeFile(t, "n", "c -> h\n")
	h := writeFile(t, "h", "h\n")
	out, errs, code := strata(t, "", "learn", "--pos", p, "--neg", n, "--hard", h)
	if code != 0 || !strings.Contains(out, "!c") || !strings.Contains(errs, "training accuracy: 0.5000") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestStrataProcess is not a test: TestLearnCtrlCStress runs the test
// binary as strata in a child process through it (the arguments follow
// "--"), so that the child can be sent real signals.
func TestStrataProcess(t *testing.T) {
	if os.Getenv("STRATA_TEST_PROCESS") != "1" {
		t.Skip("runs only as the child process of a signal test")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// strataProcess starts strata in a child process with stderr piped.
func strataProcess(t *testing.T, args ...string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestStrataProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "STRATA_TEST_PROCESS=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stderr
}

// TestLearnCtrlCStress interrupts strata learn with SIGINT many times, at
// random iterations and at random moments inside them, resumes each time
// from the checkpoint, and requires the theory of an uninterrupted run (the
// README's promise: "as if the run had not stopped").
func TestLearnCtrlCStress(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	dir := t.TempDir()
	want, cp := filepath.Join(dir, "straight.theory"), filepath.Join(dir, "run.checkpoint")
	common := []string{"learn", "--iterations", "16", "--patience", "0", "--threads", "2", "--seed", "3", "-v"}
	if _, errs, code := strata(t, "", append(common, "-o", want)...); code != 0 {
		t.Fatalf("straight run: exit %d: %s", code, errs)
	}
	got := filepath.Join(dir, "resumed.theory")
	r := rand.New(rand.NewPCG(14, 5))
	interrupts := 0
	for run := 0; ; run++ {
		if run > 200 {
			t.Fatal("no end after 200 runs")
		}
		args := append(common, "-o", got, "--checkpoint", cp)
		if _, err := os.Stat(cp); err == nil {
			args = append(args, "--resume", cp)
		}
		cmd, stderr := strataProcess(t, args...)
		// Interrupt after 0 or 1 iterations of this run, 0-20 ms into
		// the next one.
		wait, sent := r.IntN(2), false
		var log strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.WriteString(line + "\n")
			if !sent && strings.HasPrefix(line, "iteration ") {
				if wait--; wait < 0 {
					time.Sleep(time.Duration(r.IntN(20)) * time.Millisecond)
					cmd.Process.Signal(os.Interrupt)
					sent = true
				}
			}
		}
		finished := strings.Contains(log.String(), "stopped: iteration limit reached after 16 iterations")
		if err := cmd.Wait(); err != nil && !(finished && interruptedBySignal(err)) {
			// A signal sent in the last microseconds, after the
			// command has written everything and let go of the
			// signal, ends the process by the default action; the
			// output is complete then and the check below reads it.
			t.Fatalf("run %d: %v\n%s", run, err, log.String())
		}
		if strings.Contains(log.String(), "stopped: interrupted") {
			interrupts++
			continue
		}
		if !finished {
			t.Fatalf("run %d ended unexpectedly:\n%s", run, log.String())
		}
		break
	}
	if interrupts < 5 {
		t.Fatalf("only %d interruptions; the test does not stress resumption", interrupts)
	}
	a, _ := os.ReadFile(want)
	b, _ := os.ReadFile(got)
	if len(a) == 0 || string(a) != string(b) {
		t.Fatalf("after %d interruptions:\n%s\nstraight run:\n%s", interrupts, b, a)
	}
	t.Logf("%d interruptions", interrupts)
}

// interruptedBySignal reports whether a child process ended by SIGINT.
func interruptedBySignal(err error) bool {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return false
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGINT
}

// TestOutputThroughLink: -o and --checkpoint write through a symbolic
// link (the issue: the link was replaced by a regular file).
func TestOutputThroughLink(t *testing.T) {
	dir := t.TempDir()
	rules := writeFile(t, "penguins.rules", penguinRules)
	real := filepath.Join(dir, "real.theory")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "out.theory")
	if err := os.Symlink("real.theory", link); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := strata(t, "", "closure", rules, "-o", link); code != 0 {
		t.Fatalf("closure -o link: exit %d: %s", code, errs)
	}
	cpReal := filepath.Join(dir, "real.checkpoint")
	cpLink := filepath.Join(dir, "run.checkpoint")
	if err := os.Symlink("real.checkpoint", cpLink); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, "p", "b -> !c\n")
	n := writeFile(t, "n", "c -> h\n")
	if _, errs, code := strata(t, "", "learn", "--pos", p, "--neg", n, "--checkpoint", cpLink, "--iterations", "2"); code != 0 {
		t.Fatalf("learn --checkpoint link: exit %d: %s", code, errs)
	}
	for _, l := range []string{link, cpLink} {
		if st, err := os.Lstat(l); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s was replaced: %v", l, err)
		}
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), "flies") {
		t.Fatalf("link's target holds %q", b)
	}
	if b, _ := os.ReadFile(cpReal); !strings.Contains(string(b), `"fingerprint"`) {
		t.Fatalf("checkpoint link's target holds %q", b)
	}
}

// TestLearnCounts: negative counts are usage errors (--candidates -5
// panicked); a zero has no effect (--iterations 0: no limit; --patience 0:
// never), but --candidates 0 means the default.
func TestLearnCounts(t *testing.T) {
	for _, c := range []struct{ flag, value, want string }{
		{"--iterations", "-5", "--iterations -5: give a whole number of at least 0 (0: no limit)"},
		{"--candidates", "-5", "--candidates -5: give a whole number of at least 0 (0: the default)"},
		{"--patience", "-1", "--patience -1: give a whole number of at least 0 (0: never)"},
		{"--validation-patience", "-1", "--validation-patience -1: give a whole number of at least 0 (0: never)"},
		{"--timeout", "-1s", "--timeout -1s: give a duration of at least 0s (0: no limit)"},
		{"--threads", "-1", "--threads -1: give a whole number of at least 0 (0: all CPUs)"},
		{"--validation", "-0.5", "--validation -0.5: give a number of at least 0 and below 1"},
	} {
		out, errs, code := strata(t, "", "learn", c.flag, c.value)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("learn %s %s: exit %d, stdout %q, stderr %q", c.flag, c.value, code, out, errs)
		}
	}
	p := writeFile(t, "p", "a -> b\nc -> d\n")
	n := writeFile(t, "n", "a -> d\n")
	_, errs, code := strata(t, "", "learn", "--pos", p, "--neg", n, "--patience", "0", "--iterations", "12")
	if code != 0 || !strings.Contains(errs, "after 12 iterations") && !strings.Contains(errs, "every training example") {
		t.Fatalf("--patience 0: exit %d: %s", code, errs)
	}
	// --iterations 0 has no limit: the learner stops by its patience; and
	// --candidates 0 is --candidates 100.
	_, errs, code = strata(t, "", "learn", "--pos", p, "--neg", n, "--iterations", "0", "--patience", "2")
	if code != 0 || !strings.Contains(errs, "stopped: no improvement") && !strings.Contains(errs, "every training example") {
		t.Fatalf("--iterations 0: exit %d: %s", code, errs)
	}
	zero, _, _ := strata(t, "", "learn", "--candidates", "0", "--iterations", "5")
	hundred, _, _ := strata(t, "", "learn", "--candidates", "100", "--iterations", "5")
	if zero != hundred || zero == "" {
		t.Fatalf("--candidates 0 learned\n%s\n--candidates 100\n%s", zero, hundred)
	}
}

// TestLearnStopsPromptly: with a hard rule whose CNF has 8192 clauses,
// SIGINT after the first iteration ends learn, interrupted, with its
// theory (it once spent about 17 s, in the removal of implied rules, which
// examined every hard clause against all the others). The time it took is
// logged, not asserted: a loaded machine takes longer.
func TestLearnStopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	var disj []string
	for i := range 13 {
		disj = append(disj, fmt.Sprintf("(a%d & b%d)", i, i))
	}
	hard := writeFile(t, "slow.hard", strings.Join(disj, " | ")+"\n")
	r := rand.New(rand.NewPCG(10, 1))
	var pos, neg strings.Builder
	lit := func() string {
		s := fmt.Sprintf("%c%d", "ab"[r.IntN(2)], r.IntN(13))
		if r.IntN(2) == 0 {
			s = "!" + s
		}
		return s
	}
	for range 100 {
		fmt.Fprintf(&pos, "%s -> %s\n", lit(), lit())
		fmt.Fprintf(&neg, "%s -> %s\n", lit(), lit())
	}
	p, n := writeFile(t, "p", pos.String()), writeFile(t, "n", neg.String())
	cmd, stderr := strataProcess(t, "learn", "--pos", p, "--neg", n, "--hard", hard, "--iterations", "1000", "--patience", "0", "-v", "-o", filepath.Join(t.TempDir(), "out.theory"))
	sc := bufio.NewScanner(stderr)
	var log strings.Builder
	var sent time.Time
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if sent.IsZero() && strings.HasPrefix(sc.Text(), "iteration ") {
			cmd.Process.Signal(os.Interrupt)
			sent = time.Now()
		}
	}
	err := cmd.Wait()
	took := time.Since(sent)
	if err != nil || sent.IsZero() || !strings.Contains(log.String(), "stopped: interrupted") {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Logf("stopped %v after SIGINT (of 1000 iterations)", took)
}

// TestLearnInterruptedValidation: SIGINT while --folds chooses the number
// of iterations ends learn with a message that nothing was written, and
// writes nothing.
func TestLearnInterruptedValidation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := t.TempDir()
	out, cp := filepath.Join(dir, "out.theory"), filepath.Join(dir, "cp.json")
	cmd, stderr := strataProcess(t, "learn", "--folds", "3", "--iterations", "100000", "--patience", "0", "-v", "-o", out, "--checkpoint", cp)
	sc := bufio.NewScanner(stderr)
	var log strings.Builder
	sent := false
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if !sent && strings.HasPrefix(sc.Text(), "iteration ") {
			cmd.Process.Signal(os.Interrupt)
			sent = true
		}
	}
	err := cmd.Wait()
	if !sent || err == nil || !strings.Contains(log.String(), "interrupted while choosing the number of iterations") {
		t.Fatalf("exit %v\n%s", err, log.String())
	}
	for _, f := range []string{out, cp} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s written (%v)", f, err)
		}
	}
}
