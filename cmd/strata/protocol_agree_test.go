package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// strata learn's flags and the server's fields of the same names mean the
// same (the learning protocol's settings): on the same examples they learn
// the same theory, with their own defaults where one is absent, without a
// held-out part, with one (--folds 1 and --validation alone), and by
// cross-validation with pruning and both patiences.
func TestLearnAgreesWithServer(t *testing.T) {
	if testing.Short() {
		t.Skip("learns eight theories")
	}
	url := newAPIServer(t)
	pos, neg := "examples/animals/train.defaults", "examples/animals/train.nondefaults"
	base := []string{"--pos", pos, "--neg", neg, "--seed", "3", "--candidates", "30"}
	for _, c := range []struct {
		flags  []string
		fields map[string]any
	}{
		{nil, nil},
		{[]string{"--folds", "1", "--iterations", "15"}, map[string]any{"folds": 1, "iterations": 15}},
		{[]string{"--validation", "0.2", "--iterations", "15"}, map[string]any{"validation": 0.2, "iterations": 15}},
		{[]string{"--folds", "3", "--prune", "--patience", "0", "--validation-patience", "4", "--iterations", "0"},
			map[string]any{"folds": 3, "prune": true, "patience": 0, "validation_patience": 4, "iterations": 0}},
	} {
		out, errs, code := strata(t, "", append(append([]string{"learn"}, base...), c.flags...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.flags, code, errs)
		}
		body := map[string]any{"pos": readFile(t, pos), "neg": readFile(t, neg), "seed": 3, "candidates": 30}
		for k, v := range c.fields {
			body[k] = v
		}
		served := learnOnServer(t, url, body)
		if a, b := canonical(t, out), canonical(t, served); a != b {
			t.Errorf("%v: strata learn\n%s\nthe server, %v\n%s", c.flags, a, c.fields, b)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// learnOnServer starts a learning run and waits for its theory.
func learnOnServer(t *testing.T, url string, body map[string]any) string {
	t.Helper()
	data, _ := json.Marshal(body)
	res, err := http.Post(url+"/api/learn", "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var run struct {
		ID     string `json:"id"`
		State  string `json:"state"`
		Error  string `json:"error"`
		Theory string `json:"theory"`
	}
	err = json.NewDecoder(res.Body).Decode(&run)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("POST /api/learn %v: %s %v", body, res.Status, err)
	}
	for deadline := time.Now().Add(time.Minute); run.State == "running" || run.State == ""; {
		if time.Now().After(deadline) {
			t.Fatalf("run %s still running after a minute", run.ID)
		}
		time.Sleep(20 * time.Millisecond)
		res, err := http.Get(url + "/api/learn/" + run.ID)
		if err != nil {
			t.Fatal(err)
		}
		err = json.NewDecoder(res.Body).Decode(&run)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	if run.State != "done" {
		t.Fatalf("run %s: %s %s", run.ID, run.State, run.Error)
	}
	return run.Theory
}

// canonical reads a theory and writes it back.
func canonical(t *testing.T, text string) string {
	t.Helper()
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(text), "theory", &logic.Vocabulary{})
	if err != nil {
		t.Fatalf("%v:\n%s", err, text)
	}
	return th.String()
}
