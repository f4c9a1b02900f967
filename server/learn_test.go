package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func exampleFile(t testing.TB, name string) string {
	t.Helper()
	data, err := static.ReadFile("static/examples/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// trainingSet reads the positive and negative examples pos and neg as the
// library's learner takes them.
func trainingSet(t *testing.T, pos, neg string) (*logic.Vocabulary, *learn.Examples) {
	t.Helper()
	v := &logic.Vocabulary{}
	var rules [2][]logic.Rule
	for i, text := range []string{pos, neg} {
		ds, err := defaults.ReadRules(strings.NewReader(text), "x", v)
		if err != nil {
			t.Fatal(err)
		}
		rules[i] = defaults.Rules(ds)
	}
	train, err := learn.FromRules(v, rules[0], rules[1])
	if err != nil {
		t.Fatal(err)
	}
	return v, train
}

type event struct {
	name string
	data []byte
}

// readEvents reads a Server-Sent Events stream to its end.
func readEvents(t *testing.T, url string) []event {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var evs []event
	var cur event
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = []byte(strings.TrimPrefix(line, "data: "))
		case line == "" && cur.name != "":
			evs = append(evs, cur)
			cur = event{}
		}
	}
	return evs
}

func get(t *testing.T, url string) (int, string, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header.Get("Content-Type"), b
}

func TestLearnRun(t *testing.T) {
	_, ts := newTest(t, Config{})
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	var rv runView
	st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"pos": pos, "neg": neg, "test_pos": pos, "test_neg": neg,
		"iterations": 8, "candidates": 30, "seed": 3, "name": "birds"}, &rv)
	if st != 201 || rv.ID == "" || rv.State != stateRunning {
		t.Fatalf("start: %d %+v", st, rv)
	}
	evs := readEvents(t, ts.URL+"/api/learn/"+rv.ID+"/events")
	if len(evs) < 2 || evs[len(evs)-1].name != "end" {
		t.Fatalf("events %v", evs)
	}
	var end runView
	if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil {
		t.Fatal(err)
	}
	if end.State != stateDone || end.Stop == "" || end.Theory == "" {
		t.Errorf("end %+v", end)
	}
	iters := evs[:len(evs)-1]
	for i, ev := range iters {
		var it learn.Iteration
		if err := json.Unmarshal(ev.data, &it); err != nil || ev.name != "iteration" || it.Iteration != i+1 || math.IsNaN(it.TestAccuracy) {
			t.Errorf("event %d: %s %s %v", i, ev.name, ev.data, err)
		}
	}
	// The same run again from the library gives the same history and
	// theory: the server runs the library's learner with its options.
	v, train := trainingSet(t, pos, neg)
	res, err := learn.Learn(context.Background(), learn.Problem{Vocab: v, Train: train}, learn.Settings{Iterations: 8, Candidates: 30, Seed: 3, Threads: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.History) != len(iters) {
		t.Errorf("%d iterations, the library ran %d", len(iters), len(res.History))
	}
	if want := res.Theory.String(); end.Theory != want {
		t.Errorf("theory\n%s\nthe library learned\n%s", end.Theory, want)
	}
	var status runView
	call(t, "GET", ts.URL+"/api/learn/"+rv.ID, nil, &status)
	if len(status.History) != len(iters) || status.State != stateDone {
		t.Errorf("status %+v", status)
	}
	st, ct, body := get(t, ts.URL+"/api/learn/"+rv.ID+"/theory")
	if st != 200 || string(body) != end.Theory || !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("theory: %d %s", st, body)
	}
	var want bytes.Buffer
	learn.WriteHistoryCSV(&want, res.History)
	st, _, body = get(t, ts.URL+"/api/learn/"+rv.ID+"/history.csv")
	// Elapsed times differ; compare the header and the line count.
	if st != 200 || strings.Count(string(body), "\n") != strings.Count(want.String(), "\n") || !strings.HasPrefix(string(body), "iteration,train_accuracy") {
		t.Errorf("history: %d\n%s", st, body)
	}
	st, _, body = get(t, ts.URL+"/api/learn/"+rv.ID+"/checkpoint")
	if st != 200 || !json.Valid(body) {
		t.Errorf("checkpoint: %d", st)
	}
	var list struct {
		Runs []map[string]any `json:"runs"`
	}
	call(t, "GET", ts.URL+"/api/learn", nil, &list)
	if len(list.Runs) != 1 {
		t.Errorf("runs %+v", list)
	}
}

// longRun starts a run that does not end by itself for a long time.
func longRun(t *testing.T, url string) (int, runView, apiError) {
	t.Helper()
	body := map[string]any{"pos": exampleFile(t, "birds.pos"), "neg": exampleFile(t, "birds.neg"),
		"iterations": 1000000, "patience": 0, "candidates": 20}
	res, err := http.Post(url+"/api/learn", "application/json", strings.NewReader(mustJSON(t, body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	var rv runView
	var e apiError
	if res.StatusCode == 201 {
		json.Unmarshal(data, &rv)
	} else {
		json.Unmarshal(data, &e)
	}
	return res.StatusCode, rv, e
}

func mustJSON(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLearnCancelAndCap(t *testing.T) {
	_, ts := newTest(t, Config{MaxRuns: 1})
	st, rv, _ := longRun(t, ts.URL)
	if st != 201 {
		t.Fatalf("start: %d", st)
	}
	st, _, e := longRun(t, ts.URL)
	if st != 429 || !strings.Contains(e.Message, "limit") {
		t.Errorf("a second run beyond the cap: %d %+v", st, e)
	}
	// The checkpoint exists only once the run stops.
	var ce apiError
	if st := call(t, "GET", ts.URL+"/api/learn/"+rv.ID+"/checkpoint", nil, &ce); st != 409 {
		t.Errorf("checkpoint of a running run: %d", st)
	}
	var after runView
	if st := call(t, "POST", ts.URL+"/api/learn/"+rv.ID+"/cancel", nil, &after); st != 200 || after.State != stateCancelled {
		t.Errorf("cancel: %d %+v", st, after)
	}
	evs := readEvents(t, ts.URL+"/api/learn/"+rv.ID+"/events")
	if len(evs) == 0 || evs[len(evs)-1].name != "end" || !strings.Contains(string(evs[len(evs)-1].data), `"cancelled"`) {
		t.Errorf("events after cancel end with %v", evs[len(evs)-1])
	}
	if st, _, _ := longRun(t, ts.URL); st != 201 {
		t.Errorf("a run after cancelling the first: %d", st)
	}
	for _, c := range []struct {
		body     map[string]any
		status   int
		contains string
	}{
		{map[string]any{"pos": "a -> b"}, 400, "neg"},
		{map[string]any{"pos": "a -> b", "neg": "a -> !b", "timeout": "soon"}, 400, "duration"},
		{map[string]any{"pos": "a -> b", "neg": "a -> !b", "test_pos": "a -> b"}, 400, "both"},
		{map[string]any{"pos": "a | c -> b", "neg": "a -> !b"}, 400, "conjunction"},
	} {
		var e apiError
		st := call(t, "POST", ts.URL+"/api/learn", c.body, &e)
		wantError(t, st, e, c.status, 0, 0, c.contains)
	}
}

// TestCloseWritesCheckpoints checks the graceful shutdown: Close cancels
// the running runs and writes checkpoints that the library resumes.
func TestCloseWritesCheckpoints(t *testing.T) {
	cps := filepath.Join(t.TempDir(), "checkpoints") // made when first needed
	s, err := New(Config{CheckpointDir: cps, MaxRuns: 2})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	var ids []string
	for range 2 {
		st, rv, _ := longRun(t, ts.URL)
		if st != 201 {
			t.Fatalf("start: %d", st)
		}
		ids = append(ids, rv.ID)
	}
	// Wait for an iteration of each, so that the checkpoints hold some.
	for _, id := range ids {
		for deadline := time.Now().Add(hangGuard); ; {
			var rv runView
			call(t, "GET", ts.URL+"/api/learn/"+id, nil, &rv)
			if len(rv.History) > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("no iteration in %v", hangGuard)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		data, err := os.ReadFile(filepath.Join(cps, id+".checkpoint.json"))
		if err != nil {
			t.Fatal(err)
		}
		v := &logic.Vocabulary{}
		train := &learn.Examples{}
		for i, name := range []string{"birds.pos", "birds.neg"} {
			ds, _ := defaults.ReadRules(strings.NewReader(exampleFile(t, name)), name, v)
			train.AddRules(defaults.Rules(ds), i == 0, v, name)
		}
		plan, err := learn.NewPlan(learn.Problem{Vocab: v, Train: train}, learn.Settings{Candidates: 20, Resume: data})
		if err != nil {
			t.Fatalf("resume %s: %v", id, err)
		}
		_, hist := plan.Start()
		var rv runView
		call(t, "GET", ts.URL+"/api/learn/"+id, nil, &rv)
		if rv.State != stateCancelled || len(hist) != len(rv.History) {
			t.Errorf("%s: state %s, %d iterations; the checkpoint holds %d", id, rv.State, len(rv.History), len(hist))
		}
	}
	if st, _, e := longRun(t, ts.URL); st != 503 {
		t.Errorf("a run after Close: %d %+v", st, e)
	}

	// A new server resumes a run from its checkpoint, given the same
	// examples: the history goes on from where it stopped.
	_, ts2 := newTest(t, Config{CheckpointDir: cps})
	var before runView
	call(t, "GET", ts.URL+"/api/learn/"+ids[0], nil, &before)
	body := map[string]any{"pos": exampleFile(t, "birds.pos"), "neg": exampleFile(t, "birds.neg"),
		"iterations": 1000000, "patience": 0, "candidates": 20, "resume": ids[0]}
	var rv runView
	if st := call(t, "POST", ts2.URL+"/api/learn", body, &rv); st != 201 || len(rv.History) != len(before.History) {
		t.Fatalf("resume: %d, %d iterations, want %d", st, len(rv.History), len(before.History))
	}
	for deadline := time.Now().Add(hangGuard); len(rv.History) <= len(before.History) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		call(t, "GET", ts2.URL+"/api/learn/"+rv.ID, nil, &rv)
	}
	call(t, "POST", ts2.URL+"/api/learn/"+rv.ID+"/cancel", nil, &rv)
	if len(rv.History) <= len(before.History) || rv.History[len(before.History)].Iteration != len(before.History)+1 {
		t.Errorf("the resumed run has %d iterations after %d", len(rv.History), len(before.History))
	}
	for resume, status := range map[string]int{"../" + ids[0]: 400, "r-0123456789abcdef": 404} {
		body["resume"] = resume
		var e apiError
		if st := call(t, "POST", ts2.URL+"/api/learn", body, &e); st != status {
			t.Errorf("resume %q: %d %+v", resume, st, e)
		}
	}
	// Other examples do not resume the checkpoint.
	body["resume"] = ids[0]
	body["pos"] = "a -> b"
	var e apiError
	if st := call(t, "POST", ts2.URL+"/api/learn", body, &e); st != 400 || e.Field != "resume" {
		t.Errorf("resume on other examples: %d %+v", st, e)
	}
}

// TestLearnUnderSemantics: a run started with "semantics": "lex" is the
// library's learner under lex (same history and theory), and an unknown
// semantics is refused naming the field.
func TestLearnUnderSemantics(t *testing.T) {
	_, ts := newTest(t, Config{})
	pos, neg := exampleFile(t, "birds.pos"), exampleFile(t, "birds.neg")
	var e apiError
	st := call(t, "POST", ts.URL+"/api/learn", map[string]any{"pos": pos, "neg": neg, "semantics": "drowning"}, &e)
	if st != http.StatusBadRequest || e.Field != "semantics" {
		t.Fatalf("unknown semantics: %d %+v", st, e)
	}
	var rv runView
	st = call(t, "POST", ts.URL+"/api/learn", map[string]any{"pos": pos, "neg": neg,
		"iterations": 6, "candidates": 20, "seed": 5, "semantics": "lex"}, &rv)
	if st != 201 {
		t.Fatalf("start: %d %+v", st, rv)
	}
	evs := readEvents(t, ts.URL+"/api/learn/"+rv.ID+"/events")
	var end runView
	if err := json.Unmarshal(evs[len(evs)-1].data, &end); err != nil {
		t.Fatal(err)
	}
	v, train := trainingSet(t, pos, neg)
	res, err := learn.Learn(context.Background(), learn.Problem{Vocab: v, Train: train}, learn.Settings{Iterations: 6, Candidates: 20, Seed: 5, Threads: 1, Semantics: possibilistic.Lex}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := res.Theory.String(); end.Theory != want {
		t.Errorf("lex run's theory\n%s\nthe library learned under lex\n%s", end.Theory, want)
	}
}
