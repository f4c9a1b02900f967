package defaults

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func mustBase(t *testing.T, src string, background ...string) *Base {
	t.Helper()
	v := &logic.Vocabulary{}
	ds, err := ReadRules(strings.NewReader(src), "test.rules", v)
	if err != nil {
		t.Fatal(err)
	}
	b := &Base{Vocab: v, Defaults: ds}
	for _, s := range background {
		f, err := logic.ParseFormula(v, s)
		if err != nil {
			t.Fatal(err)
		}
		b.Background = append(b.Background, f)
	}
	return b
}

// bgctx is the context of the tests' questions: never done, so that none
// of them may fail.
var bgctx = context.Background()

func entails(t testing.TB, r *Reasoner, s Semantics, alpha, beta *logic.Formula) bool {
	t.Helper()
	ok, err := r.Entails(bgctx, s, alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func explain(t testing.TB, r *Reasoner, s Semantics, q Default) Answer {
	t.Helper()
	a, err := r.Explain(bgctx, s, q)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func tolerates(t testing.TB, b *Base, d Default) bool {
	t.Helper()
	ok, err := b.Tolerates(bgctx, d)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func rankFormula(t testing.TB, k *OCF, f *logic.Formula) Rank {
	t.Helper()
	r, err := k.RankFormula(bgctx, f)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func accepts(t testing.TB, k *OCF, d Default) bool {
	t.Helper()
	ok, err := k.Accepts(bgctx, d)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func mustReasoner(t *testing.T, b *Base) *Reasoner {
	t.Helper()
	r, err := NewReasoner(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const penguins = `bird -> flies
penguin -> bird
penguin -> !flies
`

// TestPenguin is the textbook base: all three semantics entail
// penguin |~ ¬flies and penguin |~ bird; rational and lexicographic closure
// entail red ∧ bird |~ flies (irrelevance), System P does not; with
// bird |~ wings added, lexicographic closure entails penguin |~ wings and
// rational closure does not (drowning).
func TestPenguin(t *testing.T) {
	cases := []struct {
		base, query      string
		p, rational, lex bool
	}{
		{penguins, "penguin -> !flies", true, true, true},
		{penguins, "penguin -> bird", true, true, true},
		{penguins, "penguin -> flies", false, false, false},
		{penguins, "red, bird -> flies", false, true, true},
		// In every ranked model the least penguin-worlds are non-flying birds,
		// so they lie above the least bird-worlds: a System P conclusion.
		{penguins, "bird -> !penguin", true, true, true},
		{penguins, "flies -> !penguin", true, true, true},
		{penguins, "!flies -> !bird", false, true, true}, // contraposition
		{penguins + "bird -> wings\n", "penguin -> wings", false, false, true},
		{penguins + "bird -> wings\n", "penguin -> !flies", true, true, true},
		{penguins + "bird -> wings\n", "bird -> wings", true, true, true},
		{penguins, "penguin & !penguin |~ flies", true, true, true}, // vacuous
		{penguins, "bird -> flies | penguin", true, true, true},
	}
	for _, c := range cases {
		b := mustBase(t, c.base)
		r := mustReasoner(t, b)
		q := logictest.Rule(t, b.Vocab, c.query)
		for s, want := range map[Semantics]bool{SystemP: c.p, Rational: c.rational, Lexicographic: c.lex} {
			if got := entails(t, r, s, q.Antecedent, q.Consequent); got != want {
				t.Errorf("%q under %v: got %v, want %v", c.query, s, got, want)
			}
			a := explain(t, r, s, Default{Rule: q})
			if a.Entailed != want {
				t.Errorf("%q under %v: Explain says %v, want %v", c.query, s, a.Entailed, want)
			}
			if a.Reason() == "" {
				t.Errorf("%q under %v: empty reason", c.query, s)
			}
		}
	}
}

func TestPenguinOrdering(t *testing.T) {
	b := mustBase(t, penguins)
	o, err := ZOrdering(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if want := [][]int{{0}, {1, 2}}; !slices.EqualFunc(o.Levels, want, slices.Equal) {
		t.Fatalf("levels %v, want %v", o.Levels, want)
	}
	// Δ1: bird |~ flies is tolerated, the two penguin rules are not (3
	// calls); Δ2: the model found for penguin |~ bird verifies
	// penguin |~ ¬flies too (1 call).
	if o.Calls != 4 {
		t.Errorf("%d solver calls for 3 defaults in 2 levels; want 4", o.Calls)
	}
	th := o.Theory()
	want := "0.7: !penguin | bird\n0.7: !penguin | !flies\n\n0.3: !bird | flies\n"
	if got := th.String(); got != want {
		t.Errorf("Θ_Z:\n%s\nwant\n%s", got, want)
	}
}

// TestPaperExample3: the Z-ranking of S+ = {|~ ¬x, |~ ¬y, x |~ a, y |~ b}
// gives h_z = {(¬x, 0.5), (¬y, 0.5), (¬x ∨ a, 1), (¬y ∨ b, 1)}, and h_z
// covers x ∧ y |~ a, while the separating stratification h does not.
func TestPaperExample3(t *testing.T) {
	b := mustBase(t, " -> !x\n -> !y\nx -> a\ny -> b\n")
	o, err := ZOrdering(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	v := b.Vocab
	levels := make([][]string, len(o.Levels))
	for j, l := range o.Levels {
		for _, i := range l {
			levels[j] = append(levels[j], b.Defaults[i].Material().String(v))
		}
	}
	want := [][]string{{"!x", "!y"}, {"!x | a", "!y | b"}}
	if !slices.EqualFunc(levels, want, slices.Equal) {
		t.Fatalf("Z-ordering %v, want %v", levels, want)
	}
	hz, err := possibilistic.ReadText(bgctx, strings.NewReader("0.5: !x\n0.5: !y\n1: !x | a\n1: !y | b\n"), "h_z", v)
	if err != nil {
		t.Fatal(err)
	}
	h, err := possibilistic.ReadText(bgctx, strings.NewReader("0.25: !x\n0.5: !x | a\n0.75: !y\n1: !y | b\n"), "h", v)
	if err != nil {
		t.Fatal(err)
	}
	q := logictest.Rule(t, v, "x, y -> a")
	for name, th := range map[string]*possibilistic.Theory{"Θ_Z": o.Theory(), "h_z": hz} {
		if !possEntails(t, th, q) {
			t.Errorf("%s does not cover x ∧ y |~ a", name)
		}
	}
	if possEntails(t, h, q) {
		t.Error("h covers x ∧ y |~ a")
	}
	r := mustReasoner(t, b)
	if !entails(t, r, Rational, q.Antecedent, q.Consequent) {
		t.Error("x ∧ y |~ a is not in the rational closure of S+")
	}
}

// TestConjunctiveAntecedent: the antecedent of a default is a conjunction.
// The paper's Java code added a multi-literal antecedent as one clause
// (a disjunction); on Δ = {a ∧ b |~ c, a |~ ¬b} that reading tolerates
// a ∧ b |~ c (a, ¬b, c satisfies a ∨ b, c and both materials) while the
// right one does not, and the Z-orderings differ.
func TestConjunctiveAntecedent(t *testing.T) {
	b := mustBase(t, "a, b -> c\na -> !b\n")
	v := b.Vocab
	if tolerates(t, b, b.Defaults[0]) {
		t.Error("a ∧ b |~ c is tolerated by Δ; a ∧ b ∧ c violates a |~ ¬b")
	}
	a, _ := v.Lookup("a")
	bb, _ := v.Lookup("b")
	disj := NewDefault(logic.Or(logic.AtomF(a), logic.AtomF(bb)), b.Defaults[0].Consequent)
	if !tolerates(t, b, disj) {
		t.Error("the disjunctive reading a ∨ b |~ c should be tolerated (world a, ¬b, c)")
	}
	o, err := ZOrdering(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if o.Rank(0) != 1 || o.Rank(1) != 0 {
		t.Errorf("Z-ranks %d, %d; want a ∧ b |~ c at 1 and a |~ ¬b at 0", o.Rank(0), o.Rank(1))
	}
	java := &Base{Vocab: v, Defaults: []Default{disj, b.Defaults[1]}}
	oj, err := ZOrdering(bgctx, java)
	if err != nil {
		t.Fatal(err)
	}
	if oj.Rank(0) != 0 {
		t.Errorf("the disjunctive reading should put the rule at level 0, got %d", oj.Rank(0))
	}
}

func TestInconsistent(t *testing.T) {
	cases := []struct {
		src        string
		background []string
		want       []int // indices of the minimal conflict
		msg        string
	}{
		{"bird -> flies\nbird -> !flies\n", nil, []int{0, 1}, "test.rules:1: bird -> flies; test.rules:2: bird -> !flies"},
		{"a -> b\nc -> d\na -> !b\ne -> f\n", nil, []int{0, 2}, "these 2 clash"},
		{"a, b -> c\na -> b\na -> c\na -> !c\n", nil, []int{2, 3}, "test.rules:3"},
		{"a -> b\na -> c\na, b -> !c\nx -> y\n", nil, []int{0, 1, 2}, "these 3 clash"},
		{"a -> !a\nb -> c\n", nil, []int{0}, "test.rules:1: a -> !a can never be verified"},
		{"a -> b\n", []string{"!a | !b"}, []int{0}, "can never be verified"},
	}
	for _, c := range cases {
		b := mustBase(t, c.src, c.background...)
		_, err := NewReasoner(bgctx, b)
		var ie *InconsistentError
		if !errors.As(err, &ie) {
			t.Fatalf("%q: got %v, want an InconsistentError", c.src, err)
		}
		if !slices.Equal(ie.Indices, c.want) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: conflict %v, %q; want %v and a message containing %q", c.src, ie.Indices, err, c.want, c.msg)
		}
		if len(c.want) > 1 && !ie.Minimal {
			t.Errorf("%q: conflict not reported minimal", c.src)
		}
	}
	b := mustBase(t, "a -> b\n", "x", "!x")
	if _, err := ZOrdering(bgctx, b); err == nil || !strings.Contains(err.Error(), "background") {
		t.Errorf("contradictory background knowledge: %v", err)
	}
}

func TestBackground(t *testing.T) {
	// With the hard rule penguin → bird, penguin |~ bird need not be a default.
	b := mustBase(t, "bird -> flies\npenguin -> !flies\n", "!penguin | bird")
	r := mustReasoner(t, b)
	if r.Ordering().Rank(1) != 1 {
		t.Errorf("penguin |~ ¬flies at level %d, want 1 (it is an exception only through the background)", r.Ordering().Rank(1))
	}
	for _, s := range []Semantics{SystemP, Rational, Lexicographic} {
		q := logictest.Rule(t, b.Vocab, "penguin -> !flies")
		if !entails(t, r, s, q.Antecedent, q.Consequent) {
			t.Errorf("%v: penguin |~ ¬flies not entailed", s)
		}
		q = logictest.Rule(t, b.Vocab, "!bird -> !penguin")
		if !entails(t, r, s, q.Antecedent, q.Consequent) {
			t.Errorf("%v: ¬bird |~ ¬penguin not entailed, though ¬bird ∧ K ⊨ ¬penguin", s)
		}
		q = logictest.Rule(t, b.Vocab, "penguin, !bird -> flies")
		a := explain(t, r, s, Default{Rule: q})
		if !a.Entailed || !a.Vacuous {
			t.Errorf("%v: penguin ∧ ¬bird contradicts K; want a vacuous yes, got %+v", s, a)
		}
	}
	th := r.Ordering().Theory()
	if top := th.Levels[0]; top.Weight != 1 || len(top.Formulas) != 1 {
		t.Errorf("Θ_Z's top level %+v, want the background knowledge alone at weight 1", top)
	}
}

func TestParseSemantics(t *testing.T) {
	for name, want := range map[string]Semantics{"p": SystemP, "rational": Rational, "lex": Lexicographic, "Z": Rational} {
		if s, err := ParseSemantics(name); err != nil || s != want {
			t.Errorf("%q: %v %v", name, s, err)
		}
		if s, _ := ParseSemantics(want.String()); s != want {
			t.Errorf("%v does not round-trip", want)
		}
	}
	if _, err := ParseSemantics("q"); err == nil {
		t.Error("accepted semantics q")
	}
	// AllSemantics lists every named semantics once.
	seen := map[Semantics]bool{}
	for _, s := range AllSemantics {
		if seen[s] || int(s) >= len(semanticsNames) {
			t.Errorf("AllSemantics %v: %v twice or unnamed", AllSemantics, s)
		}
		seen[s] = true
	}
	if len(seen) != len(semanticsNames) {
		t.Errorf("AllSemantics %v misses some of %v", AllSemantics, semanticsNames)
	}
}

// TestEmptyBase: with no defaults (background knowledge only) every
// semantics is classical entailment from the background and α.
func TestEmptyBase(t *testing.T) {
	b := mustBase(t, "", "a -> b")
	r := mustReasoner(t, b)
	for _, s := range []Semantics{Rational, SystemP, Lexicographic} {
		for _, tc := range []struct {
			query string
			want  bool
		}{{"a -> b", true}, {"a -> !b", false}, {"b -> a", false}, {"a & !b -> c", true}} {
			q := logictest.Rule(t, b.Vocab, tc.query)
			a := explain(t, r, s, NewDefault(q.Antecedent, q.Consequent))
			if a.Entailed != tc.want {
				t.Errorf("%v: %s entailed %v, want %v (%s)", s, tc.query, a.Entailed, tc.want, a.Reason())
			}
		}
	}
}

// possEntails decides (Θ, α) ⊢poss β for rule q.
func possEntails(t *testing.T, th *possibilistic.Theory, q logic.Rule) bool {
	t.Helper()
	r, err := possibilistic.NewReasoner(bgctx, th)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := r.Entails(bgctx, possibilistic.Poss, q.Antecedent, q.Consequent)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestDecideIsExplainsVerdict checks that Decide answers as Explain and
// Entails do, and that its verdict is Explain's under rational closure
// (the degrees the server shows) and empty under the other semantics, as
// Explain's is, though System P settles some queries by rational closure.
func TestDecideIsExplainsVerdict(t *testing.T) {
	b := mustBase(t, "bird -> flies\nbird -> wings\npenguin -> bird\npenguin -> !flies\n", "!ostrich | bird")
	r, err := NewReasoner(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	rational := 0
	for _, q := range []string{"penguin -> !flies", "penguin -> wings", "bird -> flies", "bird -> !flies", "ostrich -> wings", "penguin & !bird -> flies", "flies -> bird"} {
		d, err := ParseQuery(b.Vocab, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range AllSemantics {
			got, err := r.Decide(bgctx, s, d)
			if err != nil {
				t.Fatal(err)
			}
			want, err := r.Explain(bgctx, s, d)
			if err != nil {
				t.Fatal(err)
			}
			if got.Entailed != want.Entailed || got.Entailed != entails(t, r, s, d.Antecedent, d.Consequent) || got.Vacuous != want.Vacuous {
				t.Errorf("%s under %v: Decide %v (vacuous %v), Explain %v (vacuous %v)", q, s, got.Entailed, got.Vacuous, want.Entailed, want.Vacuous)
			}
			if !reflect.DeepEqual(got.Verdict, want.Verdict) {
				t.Errorf("%s under %v: Decide's verdict %+v, Explain's %+v", q, s, got.Verdict, want.Verdict)
			}
			if s == Rational && got.Verdict.Inconsistency > 0 {
				rational++
			}
		}
	}
	if rational == 0 {
		t.Error("no query had a positive inconsistency level under rational closure")
	}
}

// TestLexClosureCountsARepeatedDefaultTwice: a rule file is a multiset, so
// a penguin-like p that must violate b |~ f (written twice) or b |~ w
// (once) violates b |~ w, and lexicographic closure entails p |~ f and
// p |~ !w; counted once each, the two worlds would tie and neither follow.
func TestLexClosureCountsARepeatedDefaultTwice(t *testing.T) {
	b := mustBase(t, "b -> f\nb -> f\nb -> w\np -> b\np -> !f, !w\n")
	r, err := NewReasoner(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	p, f, w := logic.AtomF(b.Vocab.Intern("p")), logic.AtomF(b.Vocab.Intern("f")), logic.AtomF(b.Vocab.Intern("w"))
	if !entails(t, r, Lexicographic, p, f) || !entails(t, r, Lexicographic, p, logic.Not(w)) {
		t.Error("lexicographic closure counts the repeated default b |~ f once")
	}
	if a := explain(t, r, Lexicographic, NewDefault(p, f)); !slices.Equal(a.Violations, []int{1, 0}) {
		t.Errorf("violations %v, want [1 0] (Δ1: 1, Δ2: 0)", a.Violations)
	}
	// System W and c-inference see the same base as a set: no change.
	for _, s := range []Semantics{SystemW, CInference} {
		if entails(t, r, s, p, f) {
			t.Errorf("%v entails p |~ f", s)
		}
	}
}

// TestIffChainsStayWritten: a query whose consequent is a chain of
// biconditionals is decided under every relation with its negation
// written as !(…), never pushed into the chain, whose negation normal form
// doubles at every link (a chain of 40 made System P run out of memory).
func TestIffChainsStayWritten(t *testing.T) {
	b := mustBase(t, "bird -> flies\npenguin -> bird\npenguin -> !flies\n")
	r, err := NewReasoner(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	var links []string
	for i := range 40 {
		links = append(links, fmt.Sprintf("b%d", i))
	}
	chain := strings.Join(links, " <-> ")
	q, err := ParseQuery(b.Vocab, "bird -> "+chain)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Semantics{SystemP, Rational, Lexicographic, SystemW, CInference} {
		a, err := r.Explain(bgctx, s, q)
		if err != nil || a.Entailed {
			t.Fatalf("%v: %v, entailed %v", s, err, a.Entailed)
		}
		if s == SystemP && !strings.Contains(a.Reason(), "bird |~ !("+chain+")") {
			t.Errorf("%v: %s", s, a.Reason())
		}
	}
}
