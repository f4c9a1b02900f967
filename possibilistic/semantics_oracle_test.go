package possibilistic

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-logic/strata/internal/brute"
	"github.com/strata-logic/strata/logic"
)

// TestSemanticsAgainstBruteForce checks every query of every semantics
// against the brute-force reference on random theories over at most 6
// atoms, and the inclusions poss ⊆ linear and poss ⊆ lex on each query.
func TestSemanticsAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 10))
	theories, queries := 2400, 6
	if raceOn {
		queries = 2
	}
	if testing.Short() {
		theories = 300
	}
	yes := map[Semantics]int{}
	no := map[Semantics]int{}
	beyond := map[Semantics]int{} // queries where the answer differs from poss
	for i := range theories {
		n := 2 + r.IntN(5)
		th := randTheory(r, n, 5, 12, i%3 == 0)
		if i%4 == 1 {
			repeatFormulas(rand.New(rand.NewPCG(uint64(i), 4)), th)
		}
		rs := reasoner(t, th)
		name := func(alpha, beta *logic.Formula) func() string {
			return func() string {
				return fmt.Sprintf("theory #%d\n%sα = %s, β = %s", i, th, alpha.String(th.Vocab), beta.String(th.Vocab))
			}
		}
		for range queries {
			alpha, beta := randQuery(r, n)
			got := map[Semantics]bool{}
			for _, s := range AllSemantics {
				want := bruteEntailsUnder(th, n, s, alpha, beta)
				if want {
					yes[s]++
				} else {
					no[s]++
				}
				got[s] = rs.entails(s, alpha, beta)
				if got[s] != want {
					t.Fatalf("%s: %v entailment %v, brute force %v", name(alpha, beta)(), s, got[s], want)
				}
				if ta, ok := alpha.AsTerm(); ok {
					if cb, ok := beta.AsClause(); ok && rs.entailsClause(s, ta, cb) != want {
						t.Fatalf("%s: %v EntailsClause disagrees", name(alpha, beta)(), s)
					}
				}
				checkVerdict(t, th, n, rs, s, alpha, beta, want, name(alpha, beta))
			}
			if got[Linear] != got[Poss] {
				beyond[Linear]++
			}
			if got[Lex] != got[Poss] {
				beyond[Lex]++
			}
			if got[Poss] && !(got[Linear] && got[Lex]) {
				t.Fatalf("%s: entailed under poss but linear %v, lex %v", name(alpha, beta)(), got[Linear], got[Lex])
			}
		}
		alpha, _ := randQuery(r, n)
		for _, s := range AllSemantics {
			checkWorldsAndConclusions(t, th, n, rs, s, alpha, name(alpha, logic.True()))
		}
	}
	for _, s := range AllSemantics {
		if yes[s] < theories*queries/6 || no[s] < theories*queries/6 {
			t.Errorf("%v: unbalanced queries, %d entailed and %d not", s, yes[s], no[s])
		}
		if s != Poss && beyond[s] < theories*queries/120 {
			t.Errorf("%v: only %d queries differ from poss", s, beyond[s])
		}
	}
}

// checkVerdict checks the verdicts of Decide and Explain against brute
// force: the answer, necessity, inconsistency level, deciding level and
// what the evidence set aside, under every semantics alike.
func checkVerdict(t *testing.T, th *Theory, n int, rs testReasoner, s Semantics, alpha, beta *logic.Formula, want bool, nameF func() string) {
	name := lazy(nameF)
	t.Helper()
	nec := bruteNecessityUnder(th, n, s, alpha, beta)
	d := rs.decide(s, alpha, beta)
	e := rs.explain(s, alpha, beta)
	v := e.Verdict
	if !sameVerdict(d, v) {
		t.Fatalf("%s: %v Decide %+v, Explain %+v", name, s, d, v)
	}
	if v.Entailed != want || v.Necessity != nec || v.Semantics != s {
		t.Fatalf("%s: %v verdict %+v, brute force entailed %v necessity %v", name, s, v, want, nec)
	}
	if v.Inconsistency != bruteInc(th, n, alpha) {
		t.Fatalf("%s: %v inconsistency %v, brute force %v", name, s, v.Inconsistency, bruteInc(th, n, alpha))
	}
	if v.Entailed && nec < 1 && th.Levels[v.Level].Weight != nec {
		t.Fatalf("%s: %v deciding level %d of weight %v, necessity %v", name, s, v.Level, th.Levels[v.Level].Weight, nec)
	}
	pref, aside, vec := brutePreferred(th, n, s, alpha)
	switch {
	case pref == nil:
		if len(v.SetAside) != len(th.Levels) {
			t.Fatalf("%s: %v α contradicts the certain formulas, set aside %v", name, s, v.SetAside)
		}
	case s == Linear:
		if !slices.Equal(v.SetAside, aside) {
			t.Fatalf("%s: linear set aside %v, brute force %v", name, v.SetAside, aside)
		}
	case s == Lex:
		if !slices.Equal(v.Violations, vec) {
			t.Fatalf("%s: lex violations %v, brute force %v", name, v.Violations, vec)
		}
		for _, f := range v.Formulas {
			if th.Levels[f.Level].Formulas[f.Index] != f.Formula {
				t.Fatalf("%s: lex set aside %+v, not the theory's formula", name, f)
			}
		}
	case s == Poss:
		inc := bruteInc(th, n, alpha)
		var drowned []int
		for j, l := range th.Levels {
			if l.Weight <= inc {
				drowned = append(drowned, j)
			}
		}
		if !slices.Equal(v.SetAside, drowned) {
			t.Fatalf("%s: poss set aside %v, drowned %v", name, v.SetAside, drowned)
		}
	}
	checkExplanation(t, th, n, s, alpha, beta, e, pref, name)
}

// checkExplanation checks a support by enumeration: its formulas with α
// entail β, none can be left out, and each is kept by the evidence; and a
// counter-example is a preferred world falsifying β.
func checkExplanation(t *testing.T, th *Theory, n int, s Semantics, alpha, beta *logic.Formula, e Explanation, pref [][]bool, name lazy) {
	t.Helper()
	if !e.Entailed {
		if pref == nil {
			return
		}
		if e.Counter == nil || beta.Eval(e.Counter) || !slices.ContainsFunc(pref, func(w []bool) bool { return slices.Equal(w, e.Counter) }) {
			t.Fatalf("%s: %v counter-example %v is not a preferred world falsifying β", name, s, e.Counter)
		}
		return
	}
	fs := []*logic.Formula{alpha}
	for _, f := range e.Support {
		if f.Level > e.Level || th.Levels[f.Level].Formulas[f.Index] != f.Formula {
			t.Fatalf("%s: %v support %+v below the deciding level %d or not the theory's", name, s, f, e.Level)
		}
		if slices.Contains(e.SetAside, f.Level) && s != Lex {
			t.Fatalf("%s: %v support uses level %d, which is set aside", name, s, f.Level)
		}
		fs = append(fs, f.Formula)
	}
	if pref != nil && !brute.Entails(n, fs, beta) {
		t.Fatalf("%s: %v support %v does not entail β", name, s, e.Support)
	}
	for i := 1; i < len(fs); i++ {
		if brute.Entails(n, slices.Delete(slices.Clone(fs), i, i+1), beta) {
			t.Fatalf("%s: %v support %v is not minimal", name, s, e.Support)
		}
	}
}

func checkWorldsAndConclusions(t *testing.T, th *Theory, n int, rs testReasoner, s Semantics, alpha *logic.Formula, nameF func() string) {
	name := lazy(nameF)
	t.Helper()
	pref, _, _ := brutePreferred(th, n, s, alpha)
	w := rs.world(s, alpha)
	if ok := w != nil; ok != (pref != nil) || ok && !slices.ContainsFunc(pref, func(p []bool) bool { return slices.Equal(p, w) }) {
		t.Fatalf("%s: %v most plausible world %v (%v), not among %v", name, s, w, ok, pref)
	}
	var want []logic.Lit
	for a := range n {
		for _, l := range []logic.Lit{logic.Pos(logic.Atom(a)), logic.Neg(logic.Atom(a))} {
			if pref != nil && !slices.ContainsFunc(pref, func(w []bool) bool { return !l.Holds(w) }) {
				want = append(want, l)
			}
		}
	}
	cs := rs.conclude(s, alpha)
	if got := lits(cs); !litsEqual(got, want) {
		t.Fatalf("%s: %v conclusions %v, want %v", name, s, got, want)
	}
	for _, c := range cs {
		if nec := bruteNecessityUnder(th, n, s, alpha, logic.LitF(c.Lit)); c.Necessity != nec {
			t.Fatalf("%s: %v conclusion %s of necessity %v, brute force %v", name, s, logic.LitF(c.Lit).String(th.Vocab), c.Necessity, nec)
		}
	}
}

// TestLinearIsLexOnSingletonLevels checks that linear and lex agree on
// theories with one formula per level.
func TestLinearIsLexOnSingletonLevels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	differs := 0
	for i := range 2000 {
		n := 2 + r.IntN(5)
		th := New(nil)
		for a := range n {
			th.Vocab.Intern(string(rune('a' + a)))
		}
		ws := slices.Clone(weightChoices)
		r.Shuffle(len(ws), func(i, j int) { ws[i], ws[j] = ws[j], ws[i] })
		for _, w := range ws[:1+r.IntN(7)] {
			if r.IntN(5) == 0 {
				th.Add(randFormula(r, n), w)
			} else {
				th.AddClause(randClause(r, n, 3), w)
			}
		}
		rs := reasoner(t, th)
		for range 6 {
			alpha, beta := randQuery(r, n)
			lin, lex := rs.entails(Linear, alpha, beta), rs.entails(Lex, alpha, beta)
			if lin != lex {
				t.Fatalf("theory #%d\n%sα = %s, β = %s: linear %v, lex %v", i, th, alpha.String(th.Vocab), beta.String(th.Vocab), lin, lex)
			}
			if lin != rs.entails(Poss, alpha, beta) {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Fatal("no query where linear and lex differ from poss: the test is too weak")
	}
}

// lazy formats a failing query's description only when printed.
type lazy func() string

func (l lazy) String() string { return l() }

// TestAbsentAtomNeverEntailed checks, against brute force, the fact that
// bounds how small a theory can be: under every semantics, a literal on an
// atom that occurs neither in Θ nor in α is not entailed when α is
// consistent with Θ's hard part (the models of α come in pairs that differ
// only on that atom and violate the same formulas). A theory that answers
// queries about k atoms therefore has at least k literals.
func TestAbsentAtomNeverEntailed(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 5))
	theories := 2000
	if testing.Short() {
		theories = 300
	}
	asked := 0
	for i := range theories {
		n := 2 + r.IntN(5)
		th := randTheory(r, n, 5, 12, i%3 == 0)
		x := th.Vocab.Intern("absent") // atom n: in no formula of th
		rs := reasoner(t, th)
		for range 4 {
			alpha := logic.TermF(randTerm(r, n, 3))
			if bruteEntailsUnder(th, n+1, Poss, alpha, logic.False()) {
				continue // α clashes with the hard part: everything follows
			}
			for _, s := range AllSemantics {
				for _, beta := range []logic.Lit{logic.Pos(x), logic.Neg(x)} {
					asked++
					if bruteEntailsUnder(th, n+1, s, alpha, logic.LitF(beta)) {
						t.Fatalf("theory #%d\n%sα = %s: brute force entails %s under %v", i, th, alpha.String(th.Vocab), logic.LitF(beta).String(th.Vocab), s)
					}
					if ta, _ := alpha.AsTerm(); rs.entailsClause(s, ta, logic.Clause{beta}) {
						t.Fatalf("theory #%d\n%sα = %s: %s entailed under %v", i, th, alpha.String(th.Vocab), logic.LitF(beta).String(th.Vocab), s)
					}
				}
			}
		}
	}
	if asked < theories*4*len(AllSemantics) { // two literals for each of about four in five queries
		t.Fatalf("only %d queries asked", asked)
	}
}

// sameVerdict reports whether two verdicts of one query agree. Under Lex
// the formulas set aside are those of one preferred world, and two
// preferred worlds may violate different formulas: the levels set aside and
// the least counts must agree, which they are compared on.
func sameVerdict(a, b Verdict) bool {
	return a.Semantics == b.Semantics && a.Entailed == b.Entailed && a.Inconsistency == b.Inconsistency &&
		a.Necessity == b.Necessity && a.Level == b.Level && slices.Equal(a.SetAside, b.SetAside) &&
		slices.Equal(a.Violations, b.Violations) && a.contradictory == b.contradictory
}

// repeatFormulas writes a few formulas of th a second or third time in
// their level, so that the oracle sees levels that are multisets.
func repeatFormulas(r *rand.Rand, th *Theory) {
	for range 1 + r.IntN(3) {
		l := &th.Levels[r.IntN(len(th.Levels))]
		l.Formulas = append(l.Formulas, l.Formulas[r.IntN(len(l.Formulas))])
	}
}
