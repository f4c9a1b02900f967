package possibilistic_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// A theory is read from its text format, compiled once, and asked
// questions under a semantics. Levels are numbered from the highest, as
// the text lists them.
func Example() {
	ctx := context.Background()
	th, err := possibilistic.ReadText(ctx, strings.NewReader(`
1: !penguin | bird
1: !penguin | !flies
0.5: !bird | flies
`), "penguin.theory", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range []string{"bird -> flies", "penguin -> !flies", "penguin -> flies"} {
		rule, err := logic.ParseQuery(th.Vocab, q)
		if err != nil {
			fmt.Println(err)
			return
		}
		v, err := r.Decide(ctx, possibilistic.Poss, rule.Antecedent, rule.Consequent)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %v, necessity %v, deciding level %d, set aside %v\n", q, v.Entailed, v.Necessity, v.Level, v.SetAside)
	}
	// Output:
	// bird -> flies: true, necessity 0.5, deciding level 1, set aside []
	// penguin -> !flies: true, necessity 1, deciding level 0, set aside [1]
	// penguin -> flies: false, necessity 0, deciding level -1, set aside [1]
}

// Explain says why an answer holds: the levels or formulas the evidence
// set aside and a minimal set of formulas that entail the conclusion, or a
// preferred world where it fails. Reason puts it in the words strata's
// command line and server show.
func ExampleReasoner_Explain() {
	ctx := context.Background()
	th, err := possibilistic.ReadText(ctx, strings.NewReader(`
1: !penguin | bird
1: !penguin | !flies
0.5: !bird | flies
0.5: !bird | wings
`), "wings.theory", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		fmt.Println(err)
		return
	}
	rule, err := logic.ParseQuery(th.Vocab, "penguin -> wings")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range []possibilistic.Semantics{possibilistic.Poss, possibilistic.Lex} {
		e, err := r.Explain(ctx, s, rule.Antecedent, rule.Consequent)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %v\n%s\n", s, e.Entailed, e.Reason())
	}
	// Output:
	// poss: false
	// penguin, with the formulas above the inconsistency level 0.5, does not entail wings
	// set aside by the evidence: level 0.5
	// counter-example, a preferred world: penguin, bird, !flies, !wings
	// lex: true
	// level 0.5: penguin, with the formulas of weight >= 0.5 that lex keeps, entails wings (inconsistency level 0.5)
	// set aside by the evidence: 0.5: !bird | flies
	// because penguin with 1: !penguin | bird; 0.5: !bird | wings entails wings
}
