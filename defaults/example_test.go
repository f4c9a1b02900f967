package defaults_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
)

// The rational closure of a default base: its Z-ordering, the possibilistic
// theory Θ_Z that decides it, and a query explained.
func Example_closure() {
	ctx := context.Background()
	v := &logic.Vocabulary{}
	ds, err := defaults.ReadRules(strings.NewReader(`
bird -> flies
penguin -> bird
penguin -> !flies
bird -> wings
`), "penguins.rules", v)
	if err != nil {
		fmt.Println(err)
		return
	}
	b := &defaults.Base{Vocab: v, Defaults: ds}
	r, err := defaults.NewReasoner(ctx, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	ord := r.Ordering()
	for j, level := range ord.Levels {
		fmt.Printf("Δ%d:", j+1)
		for _, i := range level {
			fmt.Printf(" %s;", b.Defaults[i].String(v))
		}
		fmt.Println()
	}
	fmt.Print(ord.Theory())
	q, err := defaults.ParseQuery(v, "penguin -> wings")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range []defaults.Semantics{defaults.Rational, defaults.Lexicographic} {
		a, err := r.Explain(ctx, s, q)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: %v\n%s\n", s, a.Entailed, a.Reason())
	}
	// Output:
	// Δ1: bird -> flies; bird -> wings;
	// Δ2: penguin -> bird; penguin -> !flies;
	// 0.7: !penguin | bird
	// 0.7: !penguin | !flies
	//
	// 0.3: !bird | flies
	// 0.3: !bird | wings
	// rational: false
	// penguin drowns Δ1 of Θ_Z (inconsistency level 0.3); the levels above it, with penguin, do not entail wings
	// a preferred world of penguin where wings fails: bird, !flies, penguin, !wings
	// lex: true
	// the preferred worlds of penguin violate (Δ2: 0, Δ1: 1) defaults, highest level first; all of them satisfy wings
}
