package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/server"
)

// TestServeShutdown runs strata serve's loop, starts a learning run that
// would go on for long, follows its events, and stops the server as a
// SIGINT would: the run is cancelled, its event stream ends, its checkpoint
// is written and serve returns without error.
func TestServeShutdown(t *testing.T) {
	cps := t.TempDir()
	app, err := server.New(server.Config{CheckpointDir: cps})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, app) }()
	url := "http://" + ln.Addr().String()

	var pos, neg strings.Builder
	for _, a := range []string{"a", "b", "c", "d", "e", "f"} {
		pos.WriteString(a + " -> x\n" + a + ", y -> !x\n")
		neg.WriteString(a + " -> !x\n" + a + ", y -> x\n" + a + " -> y\n")
	}
	pos.WriteString("z -> w\n") // and also a negative: no theory fits all
	neg.WriteString("z -> w\n")
	body, _ := json.Marshal(map[string]any{"pos": pos.String(), "neg": neg.String(), "iterations": 1000000, "patience": 0, "candidates": 5})
	res, err := http.Post(url+"/api/learn", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	var rv struct{ ID string }
	json.NewDecoder(res.Body).Decode(&rv)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("start: %d", res.StatusCode)
	}
	events, err := http.Get(url + "/api/learn/" + rv.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	sc := bufio.NewScanner(events.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "event: iteration") {
	}
	stop() // as SIGINT or SIGTERM do
	last, data := "", ""
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "event: ") {
			last = sc.Text()
		}
		if strings.HasPrefix(sc.Text(), "data: ") {
			data = sc.Text()
		}
	}
	if last != "event: end" || !strings.Contains(data, `"state":"cancelled"`) {
		t.Errorf("the event stream ended with %q %s", last, data)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not return")
	}
	if _, err := os.Stat(filepath.Join(cps, rv.ID+".checkpoint.json")); err != nil {
		t.Errorf("no checkpoint: %v", err)
	}
}

func TestServeUsage(t *testing.T) {
	if _, stderr, code := strata(t, "", "serve", "extra"); code != 2 || !strings.Contains(stderr, "serve takes 0 argument") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	cps := filepath.Join(t.TempDir(), "checkpoints")
	if _, stderr, code := strata(t, "", "serve", "--dir", filepath.Join(t.TempDir(), "missing"), "--checkpoints", cps); code != 1 || !strings.Contains(stderr, "--dir") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(cps); err == nil {
		t.Error("a server that failed to start made its checkpoint directory")
	}
}
