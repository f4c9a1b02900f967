package server

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

const birdsRules = `# birds
bird -> flies
bird -> wings
penguin -> bird
penguin -> !flies
`

const birdsCL = `signature
   b, p, f, w

conditionals
birds{
   (f | b),
   (!f | p),
   (b | p),
   (w | b)
}
`

// birds reads birdsRules as the library does.
func birds(t *testing.T) *defaults.Base {
	t.Helper()
	b := &defaults.Base{Vocab: &logic.Vocabulary{}}
	ds, err := defaults.ReadRules(strings.NewReader(birdsRules), "birds.rules", b.Vocab)
	if err != nil {
		t.Fatal(err)
	}
	b.Defaults = ds
	return b
}

func TestBaseZOrdering(t *testing.T) {
	_, ts := newTest(t, Config{})
	var bv baseView
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": birdsRules, "name": "birds.rules"}, &bv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	if bv.Format != "rules" || len(bv.Defaults) != 4 || len(bv.ZOrdering) != 2 {
		t.Fatalf("%+v", bv)
	}
	// Δ1: the bird defaults (lines 2, 3); Δ2: the penguin ones (lines 4, 5).
	for i, d := range bv.Defaults {
		wantRank := 1 + i/2
		if d.Line != i+2 || d.Rank != wantRank {
			t.Errorf("default %d: %+v, want line %d rank %d", i, d, i+2, wantRank)
		}
	}
	if fmt.Sprint(bv.ZOrdering[0].Defaults) != "[0 1]" || fmt.Sprint(bv.ZOrdering[1].Defaults) != "[2 3]" {
		t.Errorf("z-ordering %+v", bv.ZOrdering)
	}
	// Θ_Z's text is what the library writes; its levels, highest first.
	b := birds(t)
	ord, err := defaults.ZOrdering(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if bv.Theory.Text != ord.Theory().String() {
		t.Errorf("Θ_Z:\n%s\nwant\n%s", bv.Theory.Text, ord.Theory().String())
	}
	res, err := ts.Client().Get(ts.URL + "/api/bases/" + bv.ID + "/text")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(text) != ord.Theory().String() {
		t.Errorf("Θ_Z download: %d\n%s", res.StatusCode, text)
	}

	// Every semantics answers as the library does.
	rs, err := defaults.NewReasoner(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"penguin -> !flies", "penguin -> flies", "penguin -> wings", "bird -> flies", "bird, red -> flies", "(w|p)", "penguin, bird -> !flies"}
	for _, name := range []string{"rational", "p", "lex"} {
		sem, _ := defaults.ParseSemantics(name)
		for _, q := range queries {
			var a answerView
			if st := call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": bv.ID, "query": q, "semantics": name}, &a); st != 200 {
				t.Fatalf("%s %s: %d", name, q, st)
			}
			d, err := defaults.ParseQuery(b.Vocab, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := rs.Explain(context.Background(), sem, d)
			if err != nil {
				t.Fatal(err)
			}
			if a.Entailed != want.Entailed || a.Semantics != sem.String() || a.Explanation == nil || a.Explanation.Text != want.Reason() {
				t.Errorf("%s %s: %+v, want %v (%s)", name, q, a, want.Entailed, want.Reason())
			}
		}
	}
	// Rational closure drowns Δ1 for a penguin: penguins have no wings
	// there, and the answer says which Z-level was drowned.
	var a answerView
	call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": bv.ID, "query": "penguin -> wings"}, &a)
	if a.Word != "no" || a.Semantics != "rational" || fmt.Sprint(a.Explanation.DrownedZLevels) != "[1]" {
		t.Errorf("penguin -> wings under rational closure: %+v %+v", a, a.Explanation)
	}
	call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": bv.ID, "query": "penguin -> !flies"}, &a)
	if a.Word != "yes" || a.Explanation.DecidingZLevel != 2 {
		t.Errorf("penguin -> !flies: %+v %+v", a, a.Explanation)
	}
}

func TestBaseCLAndInconsistent(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "birds.cl"), []byte(birdsCL), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ts := newTest(t, Config{Dir: dir})
	var bv baseView
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"path": "birds.cl"}, &bv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	if bv.Format != "cl" || bv.Block != "birds" || len(bv.Defaults) != 4 || bv.Defaults[1].Line != 7 || bv.Defaults[1].Rank != 2 {
		t.Errorf("%+v", bv)
	}
	// The format is recognised from the text too.
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": birdsCL}, &bv); st != 201 || bv.Format != "cl" {
		t.Errorf("cl by its text: %d %s", st, bv.Format)
	}
	var e apiError
	st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": "a -> b\nc -> d\na -> !b\n", "name": "bad.rules"}, &e)
	wantError(t, st, e, 422, 1, 1, "")
	if len(e.Conflict) != 2 || e.Conflict[0].Line != 1 || e.Conflict[1].Line != 3 {
		t.Errorf("conflict %+v", e.Conflict)
	}
	st = call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": "a -> b", "background": "x\n!x"}, &e)
	wantError(t, st, e, 422, 0, 0, "")
	st = call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": "a -> b", "background": "x &"}, &e)
	wantError(t, st, e, 400, 1, 4, "")
	st = call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": "1: a", "format": "cl"}, &e)
	wantError(t, st, e, 400, 0, 0, "default bases")
}

func TestEval(t *testing.T) {
	_, ts := newTest(t, Config{})
	pos := "bird -> flies\npenguin -> !flies\npenguin -> wings\nbird -> wings\n"
	neg := "penguin -> flies\nbird -> !wings\nbird -> penguin\n"
	th := readTheory(t, penguin)
	for _, sem := range possibilistic.AllSemantics {
		var ev jsonview.Eval
		if st := call(t, "POST", ts.URL+"/api/eval", map[string]string{"theory": penguin, "pos": pos, "neg": neg, "semantics": sem.String()}, &ev); st != 200 {
			t.Fatalf("%s: %d", sem, st)
		}
		rs := libReasoner(t, th)
		var tp, fp int
		for i, set := range []string{pos, neg} {
			for _, line := range strings.Split(strings.TrimSpace(set), "\n") {
				r, _ := logic.ParseRule(th.Vocab, line)
				if rs.entails(sem, r.Antecedent, r.Consequent) {
					if i == 0 {
						tp++
					} else {
						fp++
					}
				}
			}
		}
		if ev.TP != tp || ev.FP != fp || ev.FN != 4-tp || ev.TN != 3-fp || ev.Examples != 7 || ev.Semantics != sem.String() {
			t.Errorf("%s: %+v, want TP %d FP %d", sem, ev, tp, fp)
		}
		decided := 0
		for _, l := range ev.Levels {
			decided += l.DecidesPos + l.DecidesNeg
		}
		if decided > tp+fp || len(ev.Levels) != 2 {
			t.Errorf("%s: levels %+v", sem, ev.Levels)
		}
	}
	// penguin -> wings is lost to drowning under poss and kept by lex.
	var p, l jsonview.Eval
	call(t, "POST", ts.URL+"/api/eval", map[string]string{"theory": penguin, "pos": pos, "neg": neg}, &p)
	call(t, "POST", ts.URL+"/api/eval", map[string]string{"theory": penguin, "pos": pos, "neg": neg, "semantics": "lex"}, &l)
	if p.TP != 3 || l.TP != 4 {
		t.Errorf("TP poss %d lex %d, want 3 and 4", p.TP, l.TP)
	}
}

// TestBaseDegrees checks that an answer on a default base gives the
// degrees of the library's answer: under rational closure the deciding
// level and weight and the inconsistency level of its verdict on Θ_Z,
// with the explanation or without it, alone or in a batch; under the
// other semantics, which have none, no such fields at all (not zeros).
func TestBaseDegrees(t *testing.T) {
	_, ts := newTest(t, Config{})
	var bv baseView
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": birdsRules}, &bv); st != 201 {
		t.Fatalf("load: %d", st)
	}
	b := birds(t)
	rs, err := defaults.NewReasoner(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"penguin -> !flies", "penguin -> wings", "penguin -> bird", "bird -> flies", "bird -> !flies", "flies -> bird", "penguin & flies -> wings"}
	inconsistent := 0
	for _, sem := range defaults.AllSemantics {
		var batch struct {
			Answers []map[string]any `json:"answers"`
		}
		if st := call(t, "POST", ts.URL+"/api/batch", map[string]any{"theory_id": bv.ID, "queries": queries, "semantics": sem.String()}, &batch); st != 200 || len(batch.Answers) != len(queries) {
			t.Fatalf("batch under %v: %d, %d answers", sem, st, len(batch.Answers))
		}
		for i, q := range queries {
			d, err := defaults.ParseQuery(b.Vocab, q)
			if err != nil {
				t.Fatal(err)
			}
			want, err := rs.Explain(context.Background(), sem, d)
			if err != nil {
				t.Fatal(err)
			}
			answers := map[string]map[string]any{"batch": batch.Answers[i]}
			for _, explain := range []bool{true, false} {
				var a map[string]any
				if st := call(t, "POST", ts.URL+"/api/query", map[string]any{"theory_id": bv.ID, "query": q, "semantics": sem.String(), "explain": explain}, &a); st != 200 {
					t.Fatalf("%s under %v: %d", q, sem, st)
				}
				answers[fmt.Sprintf("explain %v", explain)] = a
			}
			for how, a := range answers {
				name := fmt.Sprintf("%s under %v (%s)", q, sem, how)
				if a["entailed"] != want.Entailed {
					t.Errorf("%s: entailed %v, the library says %v", name, a["entailed"], want.Entailed)
				}
				if sem != defaults.Rational {
					for _, k := range []string{"deciding_level", "deciding_weight", "inconsistency"} {
						if v, ok := a[k]; ok {
							t.Errorf("%s: %s %v, but %v has no degrees", name, k, v, sem)
						}
					}
					continue
				}
				vd := want.Verdict
				var level any
				if vd.Entailed && vd.Level >= 0 {
					level = float64(vd.Level)
				}
				if a["deciding_level"] != level || a["deciding_weight"] != vd.Necessity || a["inconsistency"] != vd.Inconsistency {
					t.Errorf("%s: level %v weight %v inconsistency %v, the library says %v %v %v",
						name, a["deciding_level"], a["deciding_weight"], a["inconsistency"], level, vd.Necessity, vd.Inconsistency)
				}
				if vd.Inconsistency > 0 {
					inconsistent++
				}
			}
		}
	}
	if inconsistent == 0 {
		t.Error("no query had a positive inconsistency level: the test checks nothing there")
	}
}
