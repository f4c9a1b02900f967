package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// TestInterfacesAgree asks random queries of random theories through the
// library, the command line (run in-process) and the HTTP API, under every
// semantics, and checks that they give the same answer, the same levels
// (the API's level numbers are the library's), the same necessity and
// inconsistency level, and the same explanation, word for word; and the same
// plausible conclusions with the same necessities. The explanation is
// computed once, in the library; the other two only render it.
func TestInterfacesAgree(t *testing.T) {
	apiURL := newAPIServer(t)
	r := rand.New(rand.NewPCG(21, 4))
	theories := 150
	if testing.Short() {
		theories = 30
	}
	beyondPoss, impossible, counters := 0, 0, 0
	for i := range theories {
		text := randTheoryText(r)
		queries := []string{randQueryText(r), randQueryText(r), randQueryText(r)}
		if i == 0 { // the theory of the drift report
			text = "1: !penguin | bird\n0.8: !penguin | !flies\n0.5: !bird | flies\n0.2: !bird | wings\n"
			queries[0] = "penguin -> !flies"
		}
		path := writeFile(t, "t.theory", text)
		for q, query := range queries {
			for _, sem := range possibilistic.AllSemantics {
				name := fmt.Sprintf("theory #%d query %d %q under %v:\n%s", i, q, query, sem, text)
				e := libraryExplain(t, text, query, sem)
				want := jsonview.YesNo(e.Entailed) + "\n" + e.Reason() + "\n"
				out, errs, code := strata(t, "", "query", "--semantics", sem.String(), path, query)
				if code != 0 || out != want {
					t.Fatalf("%s\nthe command line (exit %d, %s) printed\n%s\nthe library says\n%s", name, code, errs, out, want)
				}
				// --json prints what the API answers, field for field.
				cliJSON, errs, code := strata(t, "", "query", "--json", "--semantics", sem.String(), path, query)
				var cliAnswer, apiAnswerRaw any
				if err := json.Unmarshal([]byte(cliJSON), &cliAnswer); code != 0 || err != nil {
					t.Fatalf("%s\nquery --json (exit %d, %s, %v):\n%s", name, code, errs, err, cliJSON)
				}
				post(t, apiURL+"/api/query", map[string]string{"theory": text, "query": query, "semantics": sem.String()}, &apiAnswerRaw)
				if !reflect.DeepEqual(cliAnswer, apiAnswerRaw) {
					got, _ := json.Marshal(cliAnswer)
					want, _ := json.Marshal(apiAnswerRaw)
					t.Fatalf("%s\nquery --json printed\n%s\nthe API answered\n%s", name, got, want)
				}
				a := apiQuery(t, apiURL, text, query, sem)
				level := -1
				if a.DecidingLevel != nil {
					level = *a.DecidingLevel
				}
				wantLevel := e.Level
				if !e.Entailed {
					wantLevel = -1
				}
				aside := a.Explanation.Drowned
				if sem == possibilistic.Lex {
					aside = a.Explanation.PartlySetAside
				}
				if a.Entailed != e.Entailed || level != wantLevel || a.DecidingWeight != e.Necessity ||
					a.Inconsistency != e.Inconsistency || a.Explanation.Text != e.Reason() ||
					!slices.Equal(nonNil(aside), nonNil(e.SetAside)) {
					t.Fatalf("%s\nthe API answered %+v %+v\nthe library %+v\n%s", name, a, a.Explanation, e.Verdict, e.Reason())
				}
				if e.Entailed != (e.Level >= 0 || e.Necessity == 1) || e.Entailed && e.Level >= 0 && e.Necessity != levelWeight(text, e.Level) {
					t.Fatalf("%s\nthe library's level %d does not have the weight of necessity %v", name, e.Level, e.Necessity)
				}
				if sem != possibilistic.Poss && e.Entailed != libraryExplain(t, text, query, possibilistic.Poss).Entailed {
					beyondPoss++
				}
				if e.Inconsistency == 1 {
					impossible++
				}
				if e.Counter != nil {
					counters++
				}
			}
		}
		given := randTermText(r)
		for _, sem := range possibilistic.AllSemantics {
			name := fmt.Sprintf("theory #%d, given %q under %v:\n%s", i, given, sem, text)
			want := libraryConclude(t, text, given, sem)
			out, errs, code := strata(t, "", "query", "--semantics", sem.String(), path, "--given", given)
			if code != 0 || !slices.Equal(cliConclusions(out), want) {
				t.Fatalf("%s\nthe command line (exit %d, %s) printed\n%s\nthe library says %v", name, code, errs, out, want)
			}
			if got := apiConclusions(t, apiURL, text, given, sem); !slices.Equal(got, want) {
				t.Fatalf("%s\nthe API answered %v\nthe library %v", name, got, want)
			}
			cliJSON, _, _ := strata(t, "", "query", "--json", "--semantics", sem.String(), path, "--given", given)
			var cliAnswer, apiAnswerRaw any
			json.Unmarshal([]byte(cliJSON), &cliAnswer)
			post(t, apiURL+"/api/conclusions", map[string]string{"theory": text, "given": given, "semantics": sem.String()}, &apiAnswerRaw)
			if !reflect.DeepEqual(cliAnswer, apiAnswerRaw) {
				t.Fatalf("%s\nquery --given --json printed\n%s\nthe API answered %v", name, cliJSON, apiAnswerRaw)
			}
		}
	}
	t.Logf("%d answers beyond poss, %d impossible evidences, %d counter-examples", beyondPoss, impossible, counters)
	if beyondPoss < theories/4 || impossible == 0 || counters < theories {
		t.Errorf("weak test: %d answers beyond poss, %d impossible evidences, %d counter-examples", beyondPoss, impossible, counters)
	}
}

// randTheoryText draws a theory over the atoms a to e: 5 to 12 clauses and
// a few other formulas on two to four levels, and a level of weight 1 one
// time in three.
func randTheoryText(r *rand.Rand) string {
	weights := []string{"0.8", "0.6", "0.5", "0.3", "0.2"}
	r.Shuffle(len(weights), func(i, j int) { weights[i], weights[j] = weights[j], weights[i] })
	weights = weights[:2+r.IntN(3)]
	if r.IntN(3) == 0 {
		weights = append(weights, "1")
	}
	var b strings.Builder
	for range 5 + r.IntN(8) {
		w := weights[r.IntN(len(weights))]
		if r.IntN(6) == 0 {
			fmt.Fprintf(&b, "%s: (%s) -> %s\n", w, randLit(r), randLit(r))
			continue
		}
		lits := make([]string, 1+r.IntN(3))
		for k := range lits {
			lits[k] = randLit(r)
		}
		fmt.Fprintf(&b, "%s: %s\n", w, strings.Join(lits, " | "))
	}
	return b.String()
}

func randLit(r *rand.Rand) string {
	l := string(rune('a' + r.IntN(5)))
	if r.IntN(2) == 0 {
		return "!" + l
	}
	return l
}

// randTermText draws evidence: one to three literals.
func randTermText(r *rand.Rand) string {
	lits := make([]string, 1+r.IntN(3))
	for k := range lits {
		lits[k] = randLit(r)
	}
	return strings.Join(lits, ", ")
}

// randQueryText draws a default α -> β, or a plain formula.
func randQueryText(r *rand.Rand) string {
	if r.IntN(8) == 0 {
		return randLit(r) + " | " + randLit(r)
	}
	beta := randLit(r)
	if r.IntN(4) == 0 {
		beta += " | " + randLit(r)
	}
	return randTermText(r) + " -> " + beta
}

// libraryExplain asks the library, as the command line does: read, parse,
// compile, explain.
func libraryExplain(t *testing.T, text, query string, sem possibilistic.Semantics) possibilistic.Explanation {
	t.Helper()
	ctx := context.Background()
	th, err := possibilistic.ReadText(ctx, strings.NewReader(text), "t.theory", nil)
	if err != nil {
		t.Fatal(err)
	}
	rule, err := logic.ParseQuery(th.Vocab, query)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		t.Fatal(err)
	}
	e, err := rs.Explain(ctx, sem, rule.Antecedent, rule.Consequent)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// conclusion is a plausible conclusion as text, with its necessity.
type conclusion struct {
	Literal   string  `json:"literal"`
	Necessity float64 `json:"necessity"`
}

func libraryConclude(t *testing.T, text, given string, sem possibilistic.Semantics) []conclusion {
	t.Helper()
	ctx := context.Background()
	th, err := possibilistic.ReadText(ctx, strings.NewReader(text), "t.theory", nil)
	if err != nil {
		t.Fatal(err)
	}
	alpha, err := logic.ParseEvidence(th.Vocab, given)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := rs.Conclude(ctx, sem, alpha)
	if err != nil {
		t.Fatal(err)
	}
	out := []conclusion{}
	for _, c := range cs {
		out = append(out, conclusion{th.Vocab.LitString(c.Lit), c.Necessity})
	}
	return out
}

// cliConclusions reads the conclusions strata query --given lists.
func cliConclusions(out string) []conclusion {
	cs := []conclusion{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[1] == "necessity" {
			var n float64
			fmt.Sscan(f[2], &n)
			cs = append(cs, conclusion{f[0], n})
		}
	}
	return cs
}

// apiAnswer is the part of POST /api/query's answer the test compares.
type apiAnswer struct {
	Entailed       bool    `json:"entailed"`
	DecidingLevel  *int    `json:"deciding_level"`
	DecidingWeight float64 `json:"deciding_weight"`
	Inconsistency  float64 `json:"inconsistency"`
	Explanation    struct {
		Text           string `json:"text"`
		Drowned        []int  `json:"drowned"`
		PartlySetAside []int  `json:"partly_set_aside"`
	} `json:"explanation"`
}

func apiQuery(t *testing.T, url, text, query string, sem possibilistic.Semantics) apiAnswer {
	t.Helper()
	var a apiAnswer
	post(t, url+"/api/query", map[string]string{"theory": text, "query": query, "semantics": sem.String()}, &a)
	return a
}

func apiConclusions(t *testing.T, url, text, given string, sem possibilistic.Semantics) []conclusion {
	t.Helper()
	var out struct {
		Conclusions []conclusion `json:"conclusions"`
	}
	post(t, url+"/api/conclusions", map[string]string{"theory": text, "given": given, "semantics": sem.String()}, &out)
	return out.Conclusions
}

func post(t *testing.T, url string, body, out any) {
	t.Helper()
	data, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated {
		var e bytes.Buffer
		e.ReadFrom(res.Body)
		t.Fatalf("POST %s %s: %d %s", url, data, res.StatusCode, e.String())
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

// levelWeight returns the weight of level j of the theory text (highest
// first, as the library numbers levels).
func levelWeight(text string, j int) float64 {
	th, err := possibilistic.ReadText(context.Background(), strings.NewReader(text), "t", nil)
	if err != nil || j >= len(th.Levels) {
		return -1
	}
	return th.Levels[j].Weight
}

// nonNil makes nil and empty lists equal.
func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
