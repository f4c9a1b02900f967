package server

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
)

// birdsBase is the explorer's birds example.
const birdsBase = `bird -> flies
bird -> wings
penguin -> bird
penguin -> !flies
ostrich -> bird
ostrich -> !flies
penguin, zoo -> fed
`

// TestCompare: a query under every semantics at once answers as POST
// /api/query does under each (explanations included), in the documented
// order, and says whether they agree; on the birds base penguin -> wings
// is the known disagreement (no under System P and rational closure, yes
// under System W, lexicographic closure and c-inference).
func TestCompare(t *testing.T) {
	_, ts := newTest(t, Config{})
	var base baseView
	if st := call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": birdsBase}, &base); st != 201 {
		t.Fatalf("load: %d", st)
	}
	var th theoryView
	if st := call(t, "POST", ts.URL+"/api/theories", map[string]string{"text": penguin}, &th); st != 201 {
		t.Fatalf("load: %d", st)
	}
	for _, c := range []struct {
		id, query string
		want      string // semantics:answer, in order
		agree     bool
	}{
		{base.ID, "penguin -> wings", "p:no rational:no w:yes lex:yes c:yes", false},
		{base.ID, "penguin -> !flies", "p:yes rational:yes w:yes lex:yes c:yes", true},
		{base.ID, "penguin, zoo -> flies", "p:no rational:no w:no lex:no c:no", true},
		{th.ID, "penguin -> wings", "poss:no linear:no lex:yes", false},
		{th.ID, "bird -> flies", "poss:yes linear:yes lex:yes", true},
	} {
		var cv compareView
		if st := call(t, "POST", ts.URL+"/api/compare", map[string]string{"theory_id": c.id, "query": c.query}, &cv); st != 200 {
			t.Fatalf("%s: %d", c.query, st)
		}
		var got []string
		for _, a := range cv.Answers {
			got = append(got, a.Semantics+":"+a.Word)
			// The same answer, field for field, as the query alone.
			var one json.RawMessage
			call(t, "POST", ts.URL+"/api/query", map[string]string{"theory_id": c.id, "query": c.query, "semantics": a.Semantics}, &one)
			var alone, here map[string]any
			json.Unmarshal(one, &alone)
			mine, _ := json.Marshal(a)
			json.Unmarshal(mine, &here)
			if !reflect.DeepEqual(alone, here) {
				t.Errorf("%s under %s:\ncompare %s\nquery   %s", c.query, a.Semantics, mine, one)
			}
			if a.Explanation == nil || a.Explanation.Text == "" {
				t.Errorf("%s under %s: no reason", c.query, a.Semantics)
			}
		}
		if strings.Join(got, " ") != c.want || cv.Agree != c.agree {
			t.Errorf("%s: %s (agree %v), want %s (agree %v)", c.query, strings.Join(got, " "), cv.Agree, c.want, c.agree)
		}
	}

	// c-inference that does not accept a query gives the impacts of a
	// c-representation that rejects it and its two ranks.
	var cv compareView
	call(t, "POST", ts.URL+"/api/compare", map[string]string{"base": birdsBase, "query": "penguin, zoo -> flies"}, &cv)
	x := cv.Answers[4].Explanation
	if cv.Answers[4].Semantics != "c" || len(x.Impacts) != 7 || x.Ranks == nil || x.Ranks.Verification < x.Ranks.Falsification {
		t.Errorf("c's explanation of a rejected query: %+v", x)
	}
	if x := cv.Answers[0].Explanation; x.NegZLevel == 0 {
		t.Errorf("System P's explanation of a rejected query names no Z-level of α |~ ¬β: %+v", x)
	}

	var e apiError
	st := call(t, "POST", ts.URL+"/api/compare", map[string]string{"theory_id": base.ID, "query": "penguin -> (wings"}, &e)
	wantError(t, st, e, 400, 1, 18, "closing")
	if e.Field != "query" {
		t.Errorf("a malformed query's error is on field %q", e.Field)
	}
}

// TestRanks: κ_Z and κ_c of the birds base as tables of worlds. The least
// rank of the worlds verifying (falsifying) a query is the rank of α ∧ β
// (α ∧ ¬β) the OCF gives, κ_Z accepts exactly what rational closure
// entails, and κ_c accepts what c-inference entails.
func TestRanks(t *testing.T) {
	_, ts := newTest(t, Config{})
	var base baseView
	call(t, "POST", ts.URL+"/api/bases", map[string]string{"text": birdsBase}, &base)
	for _, q := range []string{"penguin -> wings", "penguin -> flies", "bird -> flies", "ostrich, penguin -> bird", "zoo -> fed"} {
		var rv jsonview.Ranks
		if st := call(t, "POST", ts.URL+"/api/ranks", map[string]string{"theory_id": base.ID, "query": q}, &rv); st != 200 {
			t.Fatalf("%s: %d", q, st)
		}
		if len(rv.Worlds) != 1<<7 || len(rv.Defaults) != 7 || rv.CError != "" || rv.Query == nil || rv.Query.Z == nil || rv.Query.C == nil {
			t.Fatalf("%s: %d worlds, %d defaults, c error %q, query %+v", q, len(rv.Worlds), len(rv.Defaults), rv.CError, rv.Query)
		}
		ver, fal := [2]defaults.Rank{defaults.Infinite, defaults.Infinite}, [2]defaults.Rank{defaults.Infinite, defaults.Infinite}
		for _, w := range rv.Worlds {
			if w.Z == nil || w.C == nil {
				t.Fatalf("%s: world %v without its ranks", q, w.World)
			}
			for i, r := range []defaults.Rank{*w.Z, *w.C} {
				if w.Verifies {
					ver[i] = min(ver[i], r)
				}
				if w.Falsifies {
					fal[i] = min(fal[i], r)
				}
			}
		}
		for i, a := range []*jsonview.Acceptance{rv.Query.Z, rv.Query.C} {
			if a.Verification != ver[i] || a.Falsification != fal[i] {
				t.Errorf("%s, OCF %d: %+v; the worlds give %v and %v", q, i, a, ver[i], fal[i])
			}
		}
		var cv compareView
		call(t, "POST", ts.URL+"/api/compare", map[string]any{"theory_id": base.ID, "query": q, "explain": false}, &cv)
		if rv.Query.Z.Accepted != cv.Answers[1].Entailed {
			t.Errorf("%s: κ_Z accepts %v, rational closure %v", q, rv.Query.Z.Accepted, cv.Answers[1].Entailed)
		}
		if cv.Answers[4].Entailed && !rv.Query.C.Accepted {
			t.Errorf("%s: c-inference entails it and κ_c does not accept it", q)
		}
	}
	// The impacts of the minimal c-representation and the Z-ranks.
	var rv jsonview.Ranks
	call(t, "POST", ts.URL+"/api/ranks", map[string]string{"base": birdsRules}, &rv)
	var zs, cs []int
	for _, d := range rv.Defaults {
		zs, cs = append(zs, d.Rank), append(cs, *d.Impact)
	}
	if !reflect.DeepEqual(zs, []int{1, 1, 2, 2}) || !reflect.DeepEqual(cs, []int{1, 1, 2, 2}) || rv.Query != nil {
		t.Errorf("Z-ranks %v, impacts %v, query %+v", zs, cs, rv.Query)
	}

	// Beyond the limit of closure --ranks, no worlds, and why.
	var big strings.Builder
	for i := range defaults.MaxWorldAtoms + 1 {
		big.WriteString("-> a" + string(rune('a'+i)) + "\n")
	}
	if st := call(t, "POST", ts.URL+"/api/ranks", map[string]string{"base": big.String()}, &rv); st != 200 || rv.Worlds != nil || !strings.Contains(rv.WorldsError, "at most 12 atoms") {
		t.Errorf("%d atoms: %d, %d worlds, %q", defaults.MaxWorldAtoms+1, st, len(rv.Worlds), rv.WorldsError)
	}
	var e apiError
	st := call(t, "POST", ts.URL+"/api/ranks", map[string]string{"theory": penguin}, &e)
	wantError(t, st, e, 400, 0, 0, "default base")
}
