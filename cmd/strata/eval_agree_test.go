package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/server"
)

// scored is a binary evaluation as one interface reports it: the confusion
// counts and, highest level first, what each level decides and how often
// it is set aside.
type scored struct {
	TP, FN, FP, TN int
	Levels         []eval.Level // highest first
}

// libraryScore is eval.Defaults (levels highest first, as the theory's).
func libraryScore(t *testing.T, theory, pos, neg string, sem possibilistic.Semantics) scored {
	t.Helper()
	v := &logic.Vocabulary{}
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(theory), "t.theory", v)
	if err != nil {
		t.Fatal(err)
	}
	var sets [2][]logic.Rule
	for i, src := range []string{pos, neg} {
		for _, line := range strings.Split(strings.TrimSpace(src), "\n") {
			r, err := logic.ParseRule(v, line)
			if err != nil {
				t.Fatal(err)
			}
			sets[i] = append(sets[i], r)
		}
	}
	r, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		t.Fatal(err)
	}
	b, err := eval.Defaults(context.Background(), r, sem, sets[0], sets[1])
	if err != nil {
		t.Fatal(err)
	}
	s := scored{TP: b.TruePositives, FN: b.FalseNegatives, FP: b.FalsePositives, TN: b.TrueNegatives}
	for i := range b.Levels {
		s.Levels = append(s.Levels, b.Levels[i])
	}
	return s
}

// cliScore runs strata eval and reads its tables.
func cliScore(t *testing.T, theory, pos, neg string, sem possibilistic.Semantics) scored {
	t.Helper()
	out, errs, code := strata(t, "", "eval", writeFile(t, "t.theory", theory), "--pos", writeFile(t, "pos", pos),
		"--neg", writeFile(t, "neg", neg), "--semantics", sem.String())
	if code != 0 {
		t.Fatalf("strata eval: exit %d: %s", code, errs)
	}
	var s scored
	levels := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "positive":
			s.TP, s.FN = atoi(t, f[1]), atoi(t, f[2])
		case len(f) == 3 && f[0] == "negative":
			s.FP, s.TN = atoi(t, f[1]), atoi(t, f[2])
		case len(f) > 0 && f[0] == "weight":
			levels = true
		case levels && len(f) == 5:
			s.Levels = append(s.Levels, eval.Level{DecidesPos: atoi(t, f[2]), DecidesNeg: atoi(t, f[3]), SetAside: atoi(t, f[4])})
		}
	}
	return s
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("not a count: %q", s)
	}
	return n
}

// httpScore posts to the server's /api/eval.
func httpScore(t *testing.T, url, theory, pos, neg string, sem possibilistic.Semantics) scored {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"theory": theory, "pos": pos, "neg": neg, "semantics": sem.String()})
	res, err := http.Post(url+"/api/eval", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		TP     int `json:"true_positives"`
		FN     int `json:"false_negatives"`
		FP     int `json:"false_positives"`
		TN     int `json:"true_negatives"`
		Levels []struct {
			DecidesPos int `json:"decides_pos"`
			DecidesNeg int `json:"decides_neg"`
			SetAside   int `json:"set_aside"`
		} `json:"levels"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("POST /api/eval: %s %v", res.Status, err)
	}
	s := scored{TP: v.TP, FN: v.FN, FP: v.FP, TN: v.TN}
	for _, l := range v.Levels {
		s.Levels = append(s.Levels, eval.Level{DecidesPos: l.DecidesPos, DecidesNeg: l.DecidesNeg, SetAside: l.SetAside})
	}
	return s
}

// newAPIServer starts the HTTP API for the test and returns its URL.
func newAPIServer(t *testing.T) string {
	t.Helper()
	s, err := server.New(server.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close(context.Background()) })
	return ts.URL
}

// agree scores one theory through the library, strata eval and the
// server, and reports a difference.
func agree(t *testing.T, url, theory, pos, neg string, sem possibilistic.Semantics) scored {
	t.Helper()
	lib := libraryScore(t, theory, pos, neg, sem)
	cli := cliScore(t, theory, pos, neg, sem)
	web := httpScore(t, url, theory, pos, neg, sem)
	if fmt.Sprint(lib) != fmt.Sprint(cli) || fmt.Sprint(lib) != fmt.Sprint(web) {
		t.Fatalf("%s:\n%s\npos:\n%s\nneg:\n%s\nlibrary %+v\nstrata eval %+v\nserver %+v", sem, theory, pos, neg, lib, cli, web)
	}
	// strata eval --json prints what the server answers, field for field.
	out, errs, code := strata(t, "", "eval", "--json", writeFile(t, "t.theory", theory), "--pos", writeFile(t, "pos", pos),
		"--neg", writeFile(t, "neg", neg), "--semantics", sem.String())
	var cliJSON, webJSON any
	if err := json.Unmarshal([]byte(out), &cliJSON); code != 0 || err != nil {
		t.Fatalf("strata eval --json: exit %d %s %v\n%s", code, errs, err, out)
	}
	body, _ := json.Marshal(map[string]string{"theory": theory, "pos": pos, "neg": neg, "semantics": sem.String()})
	res, err := http.Post(url+"/api/eval", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	json.NewDecoder(res.Body).Decode(&webJSON)
	if !reflect.DeepEqual(cliJSON, webJSON) {
		t.Fatalf("%s: strata eval --json printed\n%s\nthe server answered %v", sem, out, webJSON)
	}
	return lib
}

// The evaluation is the library's: strata eval and the server report the
// same counts. Under linear the evidence penguin skips only the level of
// weight 0.5, and penguin -> wings is decided at 0.2; under poss both
// levels below 0.8 drown.
func TestEvalAgreesEverywhere(t *testing.T) {
	url := newAPIServer(t)
	theory := "1: !penguin | bird\n0.8: !penguin | !flies\n0.5: !bird | flies\n0.2: !bird | wings\n"
	pos := "penguin -> wings\npenguin -> bird\nbird -> flies\n"
	neg := "penguin -> flies\nbird -> !wings\n"
	want := map[possibilistic.Semantics]scored{
		possibilistic.Poss:   {TP: 2, FN: 1, TN: 2, Levels: []eval.Level{{DecidesPos: 1}, {}, {DecidesPos: 1, SetAside: 3}, {SetAside: 3}}},
		possibilistic.Linear: {TP: 3, TN: 2, Levels: []eval.Level{{DecidesPos: 1}, {}, {DecidesPos: 1, SetAside: 3}, {DecidesPos: 1}}},
		possibilistic.Lex:    {TP: 3, TN: 2, Levels: []eval.Level{{DecidesPos: 1}, {}, {DecidesPos: 1, SetAside: 3}, {DecidesPos: 1}}},
	}
	for _, sem := range possibilistic.AllSemantics {
		if got := agree(t, url, theory, pos, neg, sem); fmt.Sprint(got) != fmt.Sprint(want[sem]) {
			t.Errorf("%s: %+v, want %+v", sem, got, want[sem])
		}
	}
}

// On random theories and defaults, the library, strata eval and the server
// agree under every semantics.
func TestEvalAgreesEverywhereOnRandomTheories(t *testing.T) {
	url := newAPIServer(t)
	atoms := []string{"a", "b", "c", "d"}
	lit := func(rng *rand.Rand) string {
		a := atoms[rng.IntN(len(atoms))]
		if rng.IntN(2) == 0 {
			return "!" + a
		}
		return a
	}
	rng := rand.New(rand.NewPCG(21, 1))
	trials := 30
	if testing.Short() {
		trials = 8
	}
	for range trials {
		var th strings.Builder
		weights := []string{"1", "0.8", "0.6", "0.4", "0.2"}
		for range 2 + rng.IntN(5) {
			var c []string
			for range 1 + rng.IntN(3) {
				c = append(c, lit(rng))
			}
			fmt.Fprintf(&th, "%s: %s\n", weights[rng.IntN(len(weights))], strings.Join(c, " | "))
		}
		var sets [2]strings.Builder
		for i := range sets {
			for range 1 + rng.IntN(6) {
				var alpha []string
				for range rng.IntN(3) {
					alpha = append(alpha, lit(rng))
				}
				fmt.Fprintf(&sets[i], "%s -> %s\n", strings.Join(alpha, ", "), lit(rng))
			}
		}
		for _, sem := range possibilistic.AllSemantics {
			agree(t, url, th.String(), sets[0].String(), sets[1].String(), sem)
		}
	}
}
