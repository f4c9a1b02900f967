package defaults

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestRankWorlds checks the listed worlds on random bases: κ_Z against
// Pearl's equations solved by brute force, worlds outside the background
// knowledge at Infinite, and the least rank of the worlds that verify
// (falsify) a query against Acceptance, which asks the solver.
func TestRankWorlds(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 26))
	ctx := context.Background()
	bases, queries, withC := 0, 0, 0
	for bases < 150 {
		b := randBase(r)
		br := newBrute(b)
		_, kappa, ok := br.zRanks()
		if !ok {
			continue
		}
		bases++
		rs, err := NewReasoner(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		ocfs := []*OCF{rs.SystemZ()}
		if kc, err := rs.CRepresentation(ctx); err == nil {
			ocfs = append(ocfs, kc)
			withC++
		} else if !errors.Is(err, ErrNoCRepresentation) {
			t.Fatal(err)
		}
		worlds, err := RankWorlds(ocfs...)
		if err != nil {
			t.Fatal(err)
		}
		n := b.Vocab.Len()
		if len(worlds) != 1<<n {
			t.Fatalf("%d worlds of %d atoms", len(worlds), n)
		}
		feasible := map[string]int{}
		for i, w := range br.worlds {
			feasible[fmt.Sprint(w)] = kappa[i]
		}
		for _, rw := range worlds {
			k, ok := feasible[fmt.Sprint(rw.World)]
			switch {
			case !ok && (rw.Ranks[0] != Infinite || len(rw.Ranks) > 1 && rw.Ranks[1] != Infinite):
				t.Fatalf("base %v: world %v outside the background knowledge ranked %v", rules(b), rw.World, rw.Ranks)
			case ok && rw.Ranks[0] != Rank(k):
				t.Fatalf("base %v: κ_Z(%v) = %v, brute force %d", rules(b), rw.World, rw.Ranks[0], k)
			}
		}
		for range 5 {
			alpha, beta := randQuery(r, b)
			q := NewDefault(alpha, beta)
			for i, k := range ocfs {
				a, err := k.Acceptance(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				ver, fal := Infinite, Infinite
				for _, rw := range worlds {
					if q.Verifies(rw.World) {
						ver = min(ver, rw.Ranks[i])
					}
					if q.Falsifies(rw.World) {
						fal = min(fal, rw.Ranks[i])
					}
				}
				if a.Verification != ver || a.Falsification != fal || a.Accepted != (fal == Infinite || ver < fal) {
					t.Fatalf("base %v, query %s, κ_%s: %+v; the listed worlds give %v and %v", rules(b), q.String(b.Vocab), k.Kind, a, ver, fal)
				}
				if ok, err := k.Accepts(ctx, q); err != nil || ok != a.Accepted {
					t.Fatalf("Accepts %v %v, Acceptance %+v", ok, err, a)
				}
				queries++
			}
		}
	}
	if withC < 50 {
		t.Fatalf("only %d of %d bases have a c-representation", withC, bases)
	}
	big := &Base{Vocab: &logic.Vocabulary{}}
	for i := range MaxWorldAtoms + 1 {
		big.Defaults = append(big.Defaults, NewDefault(logic.True(), logic.AtomF(big.Vocab.Intern(fmt.Sprint("a", i)))))
	}
	rs, err := NewReasoner(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	var tm *TooManyWorldsError
	if _, err := RankWorlds(rs.SystemZ()); !errors.As(err, &tm) || tm.Atoms != MaxWorldAtoms+1 {
		t.Fatalf("%d atoms: %v", MaxWorldAtoms+1, err)
	}
}

func TestRankJSON(t *testing.T) {
	for _, k := range []Rank{0, 3, Infinite} {
		b, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		var back Rank
		if err := json.Unmarshal(b, &back); err != nil || back != k {
			t.Errorf("%v: %s read back as %v (%v)", k, b, back, err)
		}
	}
	for _, bad := range []string{`-1`, `"x"`, `1.5`} {
		var k Rank
		if err := json.Unmarshal([]byte(bad), &k); err == nil {
			t.Errorf("%s read as %v", bad, k)
		}
	}
}
