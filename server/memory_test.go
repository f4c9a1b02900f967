package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/strata-logic/strata/internal/benchgen"
)

// The memory of a server is measured in a process of its own, this test
// binary run again as the server (TestHelperServer): its peak resident
// size, VmHWM, then counts the server alone, not the clients nor the tests
// run before.

const helperEnv = "STRATA_TEST_SERVER"

// TestHelperServer is the server process of TestConcurrentHugeBodies, not a
// test: it serves on a loopback port, which it prints, with the budget the
// environment gives, tuned as strata serve tunes it, until its standard
// input says "idle". Then it waits for its computations to end, prints
// how long that took, and exits when its standard input is closed.
func TestHelperServer(t *testing.T) {
	cfgText := os.Getenv(helperEnv)
	if cfgText == "" {
		t.Skip("the server process of TestConcurrentHugeBodies")
	}
	var cfg Config
	if err := json.Unmarshal([]byte(cfgText), &cfg); err != nil {
		t.Fatal(err)
	}
	TuneGC()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go http.Serve(ln, s.Handler())
	fmt.Printf("listening %s\n", ln.Addr())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() && in.Text() != "idle" {
	}
	start := time.Now()
	for s.computing.Load() > 0 && time.Since(start) < time.Minute {
		time.Sleep(5 * time.Millisecond)
	}
	fmt.Printf("idle %d %d\n", s.computing.Load(), time.Since(start).Milliseconds())
	for in.Scan() { // until the test has read the peak memory and closes stdin
	}
}

// hugeTheory returns about size bytes of a theory of distinct formulas,
// each over atoms of its own, below the levels of benchgen.Pigeonhole, so
// that no query of a on it is decided within a short budget: the request's
// work ends at its budget, whether parsing, compiling or answering.
func hugeTheory(id, size int) string {
	var b strings.Builder
	b.Grow(size + 4096)
	b.WriteString(benchgen.Pigeonhole(11))
	for i := 0; b.Len() < size-64; i++ {
		fmt.Fprintf(&b, "0.25: !r%d_%d | s%d_%d\n", id, i, id, i)
	}
	return b.String()
}

// TestConcurrentHugeBodies sends 8 queries at once, each on a theory of
// 8 MB of distinct formulas given in its body, to a server with a budget
// of 2 s and the default limits: each must be answered 503 (no query on
// them is decided within a budget, whether parsing, compiling or
// answering), the server must survive them (its work ends, and a small
// query is answered after them), and its peak memory must stay under 1 GB.
// How soon the 503s come depends on the machine's load, and is not
// asserted; the helper's minute of waiting for its work to end is a hang
// guard.
func TestConcurrentHugeBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 64 MB of requests")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the server's peak memory from /proc")
	}
	const (
		clients = 8
		size    = 8_000_000
		budget  = 2 * time.Second
	)
	cfg, _ := json.Marshal(Config{Timeout: budget})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperServer$", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"="+string(cfg))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	addr := waitLine(t, out, "listening ")
	bodies := make([][]byte, clients)
	for i := range bodies {
		bodies[i], _ = json.Marshal(map[string]string{"theory": hugeTheory(i, size), "query": "a -> b"})
		if n := len(bodies[i]); n < size || n > 8<<20 {
			t.Fatalf("a body of %d bytes: want 8 MB, within the default MaxBody", n)
		}
	}
	type result struct {
		status  int
		elapsed time.Duration
		err     error
	}
	results := make([]result, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			res, err := http.Post("http://"+addr+"/api/query", "application/json", bytes.NewReader(bodies[i]))
			if err == nil {
				res.Body.Close()
				results[i] = result{res.StatusCode, time.Since(start), nil}
				return
			}
			results[i] = result{0, time.Since(start), err}
		}()
	}
	wg.Wait()
	small, _ := json.Marshal(map[string]string{"theory": "0.5: a\n", "query": "a"})
	res, err := http.Post("http://"+addr+"/api/query", "application/json", bytes.NewReader(small))
	if err != nil {
		t.Fatalf("the server did not survive the huge bodies: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("a small query after the huge bodies: status %d, want 200", res.StatusCode)
	}
	fmt.Fprintln(stdin, "idle")
	idle := strings.Fields(waitLine(t, out, "idle "))
	hwm := peakKB(t, cmd.Process.Pid)
	stdin.Close()
	cmd.Wait()
	for i, r := range results {
		t.Logf("request %d: %d in %v", i, r.status, r.elapsed.Round(time.Millisecond))
		if r.err != nil || r.status != http.StatusServiceUnavailable {
			t.Errorf("request %d: status %d (%v), want 503", i, r.status, r.err)
		}
	}
	if len(idle) != 2 || idle[0] != "0" {
		t.Errorf("computations still running a minute after the answers: %v", idle)
	} else {
		t.Logf("the computations ended %s ms after the last answer", idle[1])
	}
	t.Logf("server peak memory (VmHWM): %d MB", hwm/1000)
	if hwm > 1_000_000 && !raceOn {
		t.Errorf("server peak memory %d MB, want under 1 GB", hwm/1000)
	}
}

// waitLine waits for a line of the helper's output starting with prefix
// and returns the rest of it.
func waitLine(t *testing.T, out *lockedBuffer, prefix string) string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		for _, line := range strings.Split(out.String(), "\n") {
			if rest, ok := strings.CutPrefix(line, prefix); ok {
				return rest
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the server process did not print %q: %s", prefix, out.String())
	return ""
}

// peakKB reads the peak resident set size of process pid, in kB.
func peakKB(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return kb
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}
