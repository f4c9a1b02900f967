package defaults

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/logictest"
	"github.com/strata-logic/strata/logic"
)

// Brute-force oracles for System W and c-inference, by their definitions
// over the enumerated worlds of at most 5 atoms.

// systemW: α |~w β iff every α∧¬β-world has an α∧β-world strictly below it
// in the structural order of falsified sets per Z-layer, highest first.
func (br *brute) systemW(v *logic.Vocabulary, z []int, alpha, beta *logic.Formula) bool {
	k := 0
	for _, r := range z {
		k = max(k, r+1)
	}
	xi := func(w []bool, m int) uint64 {
		var set uint64
		for r, d := range br.ds {
			if z[r] == m && violates(d, w) {
				set |= 1 << r
			}
		}
		return set
	}
	less := func(w, w2 []bool) bool {
		for m := k - 1; m >= 0; m-- {
			a, b := xi(w, m), xi(w2, m)
			if a != b {
				return a&b == a // a ⊊ b
			}
		}
		return false
	}
	for _, w2 := range br.worlds {
		if !alpha.Eval(w2) || beta.Eval(w2) {
			continue
		}
		found := false
		for _, w := range br.worlds {
			if alpha.Eval(w) && beta.Eval(w) && less(w, w2) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// maxDet is the largest determinant of an n×n matrix with entries in
// {−1, 0, 1}: the bound on impacts argued in cinf.go.
var maxDet = []int{1, 1, 2, 4, 16}

// cReps enumerates every impact vector with entries up to maxDet[n] over
// the n distinct defaults and returns the world ranks of those that are
// c-representations (accept every default), and the impacts of one of
// least sum.
type cRep struct {
	impacts []int // per distinct default
	kappa   []int // per world of br.worlds
}

func (br *brute) cReps(v *logic.Vocabulary) (uniq []int, reps []cRep, ok bool) {
	seen := map[string]bool{}
	for r, d := range br.ds {
		if key := d.String(v); !seen[key] {
			seen[key] = true
			uniq = append(uniq, r)
		}
	}
	n := len(uniq)
	if n >= len(maxDet) {
		return nil, nil, false
	}
	bound := maxDet[n]
	fal := make([][]bool, len(br.worlds))
	for wi, w := range br.worlds {
		for _, r := range uniq {
			fal[wi] = append(fal[wi], violates(br.ds[r], w))
		}
	}
	type split struct{ ab, anb []int }
	conds := make([]split, n)
	for p, r := range uniq {
		conds[p].ab, conds[p].anb = br.split(br.ds[r].Antecedent, br.ds[r].Consequent)
	}
	eta := make([]int, n)
	for {
		kappa := make([]int, len(br.worlds))
		for wi := range br.worlds {
			for p := range uniq {
				if fal[wi][p] {
					kappa[wi] += eta[p]
				}
			}
		}
		accepts := true
		for _, c := range conds {
			if !acceptsSplit(kappa, c.ab, c.anb) {
				accepts = false
				break
			}
		}
		if accepts {
			reps = append(reps, cRep{slices.Clone(eta), kappa})
		}
		p := 0
		for p < n && eta[p] == bound {
			eta[p] = 0
			p++
		}
		if p == n {
			return uniq, reps, true
		}
		eta[p]++
	}
}

// split returns the indices of the α∧β-worlds and of the α∧¬β-worlds.
func (br *brute) split(alpha, beta *logic.Formula) (ab, anb []int) {
	for wi, w := range br.worlds {
		if alpha.Eval(w) {
			if beta.Eval(w) {
				ab = append(ab, wi)
			} else {
				anb = append(anb, wi)
			}
		}
	}
	return ab, anb
}

func acceptsSplit(kappa []int, ab, anb []int) bool {
	if len(anb) == 0 {
		return true
	}
	least := inf
	for _, wi := range ab {
		least = min(least, kappa[wi])
	}
	for _, wi := range anb {
		if kappa[wi] <= least {
			return false
		}
	}
	return true
}

const inf = int(^uint(0) >> 1)

// accepts: κ(αβ) < κ(α¬β), with the rank of an empty set infinite.
func (br *brute) accepts(kappa []int, alpha, beta *logic.Formula) bool {
	ab, anb := br.split(alpha, beta)
	return acceptsSplit(kappa, ab, anb)
}

func (br *brute) kappaOf(uniq []int, imp []int) []int {
	kappa := make([]int, len(br.worlds))
	for wi, w := range br.worlds {
		for _, r := range uniq {
			if violates(br.ds[r], w) {
				kappa[wi] += imp[r]
			}
		}
	}
	return kappa
}

// TestBruteWC checks System W and c-inference against their definitions
// on random bases, together with the inclusions p ⊆ W ⊆ lex,
// rational ⊆ W and p ⊆ c on every query, the counter-worlds of W, the
// rejecting c-representations, and the minimal c-representation.
func TestBruteWC(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 2022))
	want := 60
	if testing.Short() {
		want = 30
	}
	ctx := context.Background()
	var bi, consistent, queries, cBases int
	yes := map[Semantics]int{}
	for ; consistent < want; bi++ {
		b := randBase(r)
		br := newBrute(b)
		z, kappa, ok := br.zRanks()
		if !ok {
			continue
		}
		rs, err := NewReasoner(bgctx, b)
		if err != nil {
			t.Fatalf("base %d: %v", bi, err)
		}
		consistent++
		uniq, reps, cOK := br.cReps(b.Vocab)
		if cOK {
			cBases++
			if len(reps) == 0 {
				t.Fatalf("base %d %v: no c-representation within the bound", bi, rules(b))
			}
			k, err := rs.CRepresentation(ctx)
			if err != nil {
				t.Fatalf("base %d: %v", bi, err)
			}
			got := br.kappaOf(uniq, k.Impacts)
			for _, ri := range uniq {
				if !br.accepts(got, b.Defaults[ri].Antecedent, b.Defaults[ri].Consequent) {
					t.Fatalf("base %d %v: κ_c %v does not accept %s", bi, rules(b), k.Impacts, rules(b)[ri])
				}
			}
			sum, inBox, best := 0, true, inf
			for _, ri := range uniq {
				sum += k.Impacts[ri]
				inBox = inBox && k.Impacts[ri] <= maxDet[len(uniq)]
			}
			for _, rep := range reps {
				s := 0
				for _, x := range rep.impacts {
					s += x
				}
				best = min(best, s)
			}
			if sum > best || inBox && sum != best {
				t.Fatalf("base %d %v: κ_c impacts %v sum %d, least sum by enumeration %d", bi, rules(b), k.Impacts, sum, best)
			}
		}
		for range 10 {
			queries++
			alpha, beta := randQuery(r, b)
			q := NewDefault(alpha, beta)
			qs := alpha.String(b.Vocab) + " |~ " + beta.String(b.Vocab)
			got := map[Semantics]bool{}
			for _, s := range []Semantics{SystemP, Rational, Lexicographic, SystemW, CInference} {
				a, err := rs.Explain(ctx, s, q)
				if err != nil {
					t.Fatal(err)
				}
				got[s] = a.Entailed
				if e := entails(t, rs, s, alpha, beta); e != a.Entailed {
					t.Fatalf("base %d: Entails and Explain disagree under %v", bi, s)
				}
				if s == SystemW && !a.Entailed {
					w := a.Counter
					if !alpha.Eval(w) || beta.Eval(w) {
						t.Fatalf("base %d %v: %s: W counter-world %v is not an α∧¬β-world", bi, rules(b), qs, w)
					}
				}
				if s == CInference && !a.Entailed && cOK {
					got := br.kappaOf(uniq, a.Impacts)
					for _, ri := range uniq {
						if !br.accepts(got, b.Defaults[ri].Antecedent, b.Defaults[ri].Consequent) {
							t.Fatalf("base %d %v: %s: rejecting impacts %v are not a c-representation", bi, rules(b), qs, a.Impacts)
						}
					}
					if br.accepts(got, alpha, beta) {
						t.Fatalf("base %d %v: %s: rejecting impacts %v accept the query", bi, rules(b), qs, a.Impacts)
					}
				}
			}
			if w := br.systemW(b.Vocab, z, alpha, beta); got[SystemW] != w {
				t.Fatalf("base %d %v: %s under W: got %v, brute force %v", bi, rules(b), qs, got[SystemW], w)
			}
			if cOK {
				w := true
				ab, anb := br.split(alpha, beta)
				for _, rep := range reps {
					if !acceptsSplit(rep.kappa, ab, anb) {
						w = false
						break
					}
				}
				if got[CInference] != w {
					t.Fatalf("base %d %v: %s under c: got %v, brute force %v", bi, rules(b), qs, got[CInference], w)
				}
			}
			if br.rational(kappa, alpha, beta) != got[Rational] {
				t.Fatalf("base %d: rational disagrees with the brute force", bi)
			}
			if got[SystemP] && !got[SystemW] || got[SystemW] && !got[Lexicographic] ||
				got[Rational] && !got[SystemW] || got[SystemP] && !got[CInference] {
				t.Fatalf("base %d %v: %s: inclusions p ⊆ W ⊆ lex, rational ⊆ W, p ⊆ c fail: %v", bi, rules(b), qs, got)
			}
			for s, g := range got {
				if g {
					yes[s]++
				}
			}
		}
	}
	t.Logf("%d bases (%d consistent, %d checked for c), %d queries; entailed: %v", bi, consistent, cBases, queries, yes)
	if yes[SystemW] == yes[Rational] || yes[CInference] == yes[SystemP] {
		t.Errorf("random queries do not separate W and c from the other semantics: %v of %d", yes, queries)
	}
}

// TestTextbook: the penguin base of the conditional-logic literature and
// an example separating System W from lexicographic inference.
func TestTextbook(t *testing.T) {
	// Δ = {(f|b), (!f|p), (b|p), (w|b)}: birds fly, penguins do not, penguins
	// are birds, birds have wings. Penguins inherit wings under W, lex and
	// c-inference (no drowning), not under System Z or P.
	b := mustBase(t, "b -> f\np -> !f\np -> b\nb -> w\n")
	rs := mustReasoner(t, b)
	cases := []struct {
		query string
		want  map[Semantics]bool
	}{
		{"p -> w", map[Semantics]bool{SystemP: false, Rational: false, Lexicographic: true, SystemW: true, CInference: true}},
		{"p -> !f", map[Semantics]bool{SystemP: true, Rational: true, Lexicographic: true, SystemW: true, CInference: true}},
		{"b, r -> f", map[Semantics]bool{SystemP: false, Rational: true, Lexicographic: true, SystemW: true, CInference: true}},
		{"p -> f", map[Semantics]bool{SystemP: false, Rational: false, Lexicographic: false, SystemW: false, CInference: false}},
		{"f -> !p", map[Semantics]bool{SystemP: true, Rational: true, Lexicographic: true, SystemW: true, CInference: true}},
	}
	for _, c := range cases {
		q := logictest.Rule(t, b.Vocab, c.query)
		for s, want := range c.want {
			a := explain(t, rs, s, NewDefault(q.Antecedent, q.Consequent))
			if a.Entailed != want {
				t.Errorf("penguins %s under %v: %v, want %v (%s)", c.query, s, a.Entailed, want, a.Reason())
			}
		}
	}
	// Three defaults of one layer: a world falsifying (a|⊤) and one
	// falsifying (b|⊤), (c|⊤) are incomparable under W, while lex prefers
	// the single violation, and some c-representation the double one.
	b = mustBase(t, "-> a\n-> b\n-> c\n")
	rs = mustReasoner(t, b)
	q := logictest.Rule(t, b.Vocab, "!a | (!b & !c) -> !a")
	for s, want := range map[Semantics]bool{SystemP: false, Rational: false, Lexicographic: true, SystemW: false, CInference: false} {
		a := explain(t, rs, s, NewDefault(q.Antecedent, q.Consequent))
		if a.Entailed != want {
			t.Errorf("%v: %v, want %v (%s)", s, a.Entailed, want, a.Reason())
		}
		if s == SystemW && !strings.Contains(a.Reason(), "falsifies") {
			t.Errorf("W reason without a counter-world: %s", a.Reason())
		}
	}
}

// TestWeak: (⊥|α) makes α impossible; Δ^∞ holds the defaults never
// tolerated; the strict reasoner refuses such a base, the weak one answers.
func TestWeak(t *testing.T) {
	b := mustBase(t, "b -> f\np -> !f\np -> b\np, !b -> false\nx -> y\nx -> !y\n")
	if _, err := NewReasoner(bgctx, b); err == nil {
		t.Fatal("the strict reasoner accepted a base with (⊥|p∧¬b)")
	}
	p, err := ExtendedPartition(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if p.Strong() || !slices.Equal(p.Infinite, []int{3, 4, 5}) || len(p.Levels) != 2 {
		t.Fatalf("extended partition %v, Δ^∞ %v", p.Levels, p.Infinite)
	}
	rs, err := NewWeakReasoner(bgctx, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Semantics{SystemP, Rational, Lexicographic, SystemW, CInference} {
		for query, want := range map[string]bool{"p -> !f": true, "-> !x": true, "p -> b": true, "b -> f": true, "b -> !p": true, "x -> z": true} {
			q := logictest.Rule(t, b.Vocab, query)
			if got := entails(t, rs, s, q.Antecedent, q.Consequent); got != want {
				t.Errorf("weak %v: %s = %v, want %v", s, query, got, want)
			}
		}
	}
	k, err := rs.CRepresentation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := rankFormula(t, k, logictest.Rule(t, b.Vocab, "x -> y").Antecedent); got != Infinite {
		t.Errorf("κ_c(x) = %v, want ∞", got)
	}
	// Not even weakly consistent: the background knowledge and ¬α of Δ^∞
	// leave no world.
	b = mustBase(t, "-> a\n-> !a\n")
	if _, err := NewWeakReasoner(bgctx, b); err == nil {
		t.Error("a base with no feasible world was accepted")
	}
}

// TestOCF: κ_Z and κ_c of the penguin base: ranks, acceptance and the
// ranks of every world.
func TestOCF(t *testing.T) {
	b := mustBase(t, "b -> f\np -> !f\np -> b\nb -> w\n")
	rs := mustReasoner(t, b)
	kz := rs.SystemZ()
	kc, err := rs.CRepresentation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The least-sum c-representation: η(f|b) = 1, η(!f|p) = 2, η(b|p) = 2, η(w|b) = 1.
	if !slices.Equal(kc.Impacts, []int{1, 2, 2, 1}) {
		t.Errorf("κ_c impacts %v", kc.Impacts)
	}
	f := func(s string) *logic.Formula { return logictest.Rule(t, b.Vocab, s+" -> b").Antecedent }
	for _, c := range []struct {
		k    *OCF
		f    string
		want Rank
	}{{kz, "p", 1}, {kz, "p & f", 2}, {kz, "b & !f", 1}, {kz, "b", 0}, {kc, "p", 1}, {kc, "p & f", 2}, {kc, "p & !w", 2}, {kc, "p & !b", 2}} {
		if got := rankFormula(t, c.k, f(c.f)); got != c.want {
			t.Errorf("κ_%s(%s) = %v, want %v", c.k.Kind, c.f, got, c.want)
		}
	}
	for i, d := range b.Defaults {
		if !accepts(t, kz, d) || !accepts(t, kc, d) {
			t.Errorf("default %d not accepted by its own OCFs", i)
		}
	}
	if accepts(t, kz, NewDefault(f("p"), f("w"))) || !accepts(t, kc, NewDefault(f("p"), f("w"))) {
		t.Error("κ_Z should drown p |~ w and κ_c keep it")
	}
	// Every world ranks as its definition says: under κ_c the sum of the
	// impacts of the defaults it falsifies, under κ_Z 1 + the highest layer
	// of a default it falsifies (0 for none).
	ws, err := RankWorlds(kz, kc)
	if err != nil || len(ws) != 16 {
		t.Fatalf("RankWorlds: %d worlds, %v", len(ws), err)
	}
	for _, w := range ws {
		z, c := Rank(0), Rank(0)
		for i, d := range b.Defaults {
			if d.Falsifies(w.World) {
				z, c = max(z, Rank(kz.Layer[i]+1)), c+Rank(kc.Impacts[i])
			}
		}
		if w.Ranks[0] != z || w.Ranks[1] != c {
			t.Errorf("world %v ranked %v, want κ_Z %v and κ_c %v", w.World, w.Ranks, z, c)
		}
	}
}

// TestBruteWeak: on random bases that are not strongly consistent, the
// extended partition against a brute-force one (greedy tolerance over the
// enumerated worlds), weak consistency against its definition, and the
// weak reasoner's System W and c answers against the oracles on the
// feasible worlds.
func TestBruteWeak(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 2023))
	weak, checked := 0, 0
	for bi := 0; weak < 40 && bi < 5000; bi++ {
		b := randBase(r)
		br := newBrute(b)
		rem := make([]int, len(b.Defaults))
		for i := range rem {
			rem[i] = i
		}
		for len(rem) > 0 {
			var rest []int
			for _, x := range rem {
				if !br.tolerated(b.Defaults, rem, x) {
					rest = append(rest, x)
				}
			}
			if len(rest) == len(rem) {
				break
			}
			rem = rest
		}
		feasible := false
		for _, w := range br.worlds {
			ok := true
			for _, i := range rem {
				ok = ok && !b.Defaults[i].Antecedent.Eval(w)
			}
			feasible = feasible || ok
		}
		p, err := ExtendedPartition(bgctx, b)
		if feasible != (err == nil) {
			t.Fatalf("base %d %v: weakly consistent %v by enumeration, ExtendedPartition: %v", bi, rules(b), feasible, err)
		}
		if err != nil || p.Strong() {
			continue
		}
		if !slices.Equal(p.Infinite, rem) {
			t.Fatalf("base %d %v: Δ^∞ %v, enumeration %v", bi, rules(b), p.Infinite, rem)
		}
		weak++
		rs, err := NewWeakReasoner(bgctx, b)
		if err != nil {
			t.Fatal(err)
		}
		red := rs.Ordering().Base
		rbr := newBrute(red)
		z, _, ok := rbr.zRanks()
		if !ok {
			t.Fatalf("base %d: the reduced base is inconsistent", bi)
		}
		uniq, reps, cOK := rbr.cReps(red.Vocab)
		for range 10 {
			alpha, beta := randQuery(r, b)
			if got, want := entails(t, rs, SystemW, alpha, beta), rbr.systemW(red.Vocab, z, alpha, beta); got != want {
				t.Fatalf("base %d %v: weak W %v, brute force %v", bi, rules(b), got, want)
			}
			if cOK {
				checked++
				want := true
				ab, anb := rbr.split(alpha, beta)
				for _, rep := range reps {
					want = want && acceptsSplit(rep.kappa, ab, anb)
				}
				if got := entails(t, rs, CInference, alpha, beta); got != want {
					t.Fatalf("base %d %v: weak c %v, brute force %v (%v)", bi, rules(b), got, want, uniq)
				}
			}
		}
	}
	if weak < 40 {
		t.Errorf("only %d weakly but not strongly consistent random bases", weak)
	}
	t.Logf("%d weak bases, %d c queries checked", weak, checked)
}
