package main

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

func answer(t *testing.T, out []byte) response {
	t.Helper()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *callError      `json:"error"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("answer is not JSON: %v: %s", err, out)
	}
	return response{Result: r.Result, Error: r.Error}
}

func TestPanicIsAnErrorOfKindPanic(t *testing.T) {
	methods["test.panic"] = func(context.Context, []byte) (any, error) { panic("boom") }
	defer delete(methods, "test.panic")
	r := answer(t, call("test.panic", []byte(`{}`), 0))
	if r.Error == nil || r.Error.Kind != "panic" || !strings.Contains(r.Error.Message, "boom") {
		t.Fatalf("got %+v, want an error of kind panic naming the panic", r.Error)
	}
}

func loans(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../cmd/strata/examples/loans.csv")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func learnRequestJSON(t *testing.T, csv string, s learnSettings) []byte {
	t.Helper()
	b, err := json.Marshal(learnRequest{tableRequest: tableRequest{Table: csv, Name: "loans.csv", Categorical: []string{"decision"}}, Label: "decision", Settings: s})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCancelledJobAnswersCancelled(t *testing.T) {
	job := jobs.begin()
	jobs.cancel(job)
	// No iteration limit, no patience: only the cancellation ends it.
	r := answer(t, call("table.learn", learnRequestJSON(t, loans(t), learnSettings{Semantics: "poss", Choose: "one-se"}), job))
	if r.Error == nil || r.Error.Kind != "cancelled" {
		t.Fatalf("got %+v, want kind cancelled", r.Error)
	}
	if n, _ := jobs.live(); n != 0 {
		t.Fatalf("%d jobs left registered after their call", n)
	}
}

func TestLearnPredictRoundTrip(t *testing.T) {
	csv := loans(t)
	r := answer(t, call("table.learn", learnRequestJSON(t, csv, learnSettings{Semantics: "lex", Choose: "one-se", Iterations: 20, Patience: 5, Grow: 10, Tally: true, Seed: 1}), 0))
	if r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	var la learnAnswer
	if err := json.Unmarshal(r.Result.(json.RawMessage), &la); err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(predictRequest{tableRequest: tableRequest{Table: csv, Name: "loans.csv"}, Theory: la.Theory, Label: "decision", Semantics: "lex"})
	for _, m := range []string{"table.predict", "table.answers", "table.degrees"} {
		if r := answer(t, call(m, req, 0)); r.Error != nil {
			t.Fatalf("%s: %s", m, r.Error.Message)
		}
	}
}

func TestBadTableIsPositioned(t *testing.T) {
	req, _ := json.Marshal(predictRequest{tableRequest: tableRequest{Table: "income,debts\n12,yes\nlots,no\n", Name: "X"},
		Theory: "1: decision=a | decision=b\n1: !decision=a | !decision=b\n0.5: income <= 20 -> decision=a\n", Label: "decision", Semantics: "poss"})
	r := answer(t, call("table.predict", req, 0))
	if r.Error == nil || r.Error.Kind != "parse" || r.Error.Line != 3 || !strings.Contains(r.Error.Detail, `column "income"`) {
		t.Fatalf("got %+v, want a parse error on line 3 naming column income", r.Error)
	}
}

func TestHandlesAreReleased(t *testing.T) {
	req, _ := json.Marshal(openTheoryRequest{Text: "1: !penguin | bird\n0.5: !bird | flies\n"})
	r := answer(t, call("theory.open", req, 0))
	if r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	var oa struct{ Handle int64 }
	json.Unmarshal(r.Result.(json.RawMessage), &oa)
	q, _ := json.Marshal(queryRequest{Handle: oa.Handle, Query: "bird -> flies", Semantics: "poss"})
	if r := answer(t, call("theory.query", q, 0)); r.Error != nil {
		t.Fatal(r.Error.Message)
	}
	handles.release(oa.Handle)
	if r := answer(t, call("theory.query", q, 0)); r.Error == nil || r.Error.Kind != "request" {
		t.Fatalf("a released handle answered %+v", r)
	}
	if _, n := handles.live(); n != 0 {
		t.Fatalf("%d handles left", n)
	}
}

// FuzzCall sends any request to any method: the answer is JSON and never a
// recovered panic (a bug of the library or of the glue).
func FuzzCall(f *testing.F) {
	csv := "a,b,class\n1,x,p\n2,y,q\n3,x,p\n,?,q\n"
	f.Add("table.learn", `{"table":"`+strings.ReplaceAll(csv, "\n", `\n`)+`","label":"class","settings":{"semantics":"poss","choose":"one-se","iterations":3}}`)
	f.Add("table.predict", `{"table":"a,b\n1,x\n","theory":"1: class=p | class=q\n0.5: a <= 1 -> class=p\n","semantics":"lex","explain":true}`)
	f.Add("table.degrees", `{"table":"a\n5\n","theory":"1: c=p | c=q\n","semantics":"linear"}`)
	f.Add("table.rules", `{"theory":"0.5: a=1 & b <= 2 -> c=x\n0.2: q\n","label":"c"}`)
	f.Add("table.folds", `{"table":"class\na\nb\na\nb\n","label":"class","k":2,"seed":3}`)
	f.Add("theory.open", `{"text":"1: a | b\n0.5: !a\n"}`)
	f.Add("base.open", `{"text":"bird -> flies\npenguin -> !flies\npenguin -> bird\n"}`)
	f.Add("base.open", `{"text":"signature\n a, b\nconditionals\nkb{ (b|a) }\n","format":"cl"}`)
	names := []string{}
	for n := range methods {
		names = append(names, n)
	}
	f.Fuzz(func(t *testing.T, method, req string) {
		if _, ok := methods[method]; !ok && len(names) > 0 {
			method = names[len(method)%len(names)]
		}
		// A request may ask to learn with no limit: a job bounds it.
		job := jobs.begin()
		stop := time.AfterFunc(2*time.Second, func() { jobs.cancel(job) })
		r := answer(t, call(method, []byte(req), job))
		stop.Stop()
		if r.Error != nil && r.Error.Kind == "panic" {
			t.Fatalf("%s %q: %s", method, req, r.Error.Message)
		}
		handles.mu.Lock() // the handles of theory.open and base.open
		handles.objs = nil
		handles.mu.Unlock()
	})
}
