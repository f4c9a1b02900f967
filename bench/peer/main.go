// Command peer writes the reasoning benchmark of BenchmarkEntailsGiven (the
// same draws, from internal/benchgen) with strata's answers, for the SAT4j
// peer in PossQuery.java to answer and time: see run.sh.
//
// Format: "p poss ATOMS LEVELS QUERIES", then one "c LEVEL LIT... 0" line per
// clause (levels 0..LEVELS-1 by increasing weight, the top one weight 1,
// literals in DIMACS form), then one "q ANSWER ALPHA... 0 BETA" line per
// query (ANSWER 1 when (Θ, α) ⊢poss β).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/strata-logic/strata/internal/benchgen"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

func dimacs(l logic.Lit) int {
	v := int(l.Atom()) + 1
	if l.IsNeg() {
		return -v
	}
	return v
}

func main() {
	out := flag.String("o", "peer.txt", "output file")
	flag.Parse()
	r := rand.New(rand.NewPCG(1, 1))
	th := possibilistic.New(logic.NewVocabulary(benchgen.Names()...))
	cs := benchgen.Theory(r)
	for _, c := range cs {
		th.AddClause(c.Clause, c.Weight)
	}
	qs := benchgen.Queries(r, 4096)
	ctx := context.Background()
	rs, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}

	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "p poss %d %d %d\n", benchgen.Atoms, len(th.Levels), len(qs))
	for j, l := range th.Levels {
		for _, fm := range l.Formulas {
			c, _ := fm.AsClause()
			fmt.Fprintf(w, "c %d", len(th.Levels)-1-j) // the peer counts levels from the lowest
			for _, x := range c {
				fmt.Fprintf(w, " %d", dimacs(x))
			}
			fmt.Fprintln(w, " 0")
		}
	}
	if th.Levels[0].Weight != 1 {
		fmt.Fprintln(os.Stderr, "peer: the benchmark theory must have its top level at weight 1")
		os.Exit(1)
	}
	for _, q := range qs {
		ans := 0
		if ok, err := rs.EntailsClause(ctx, possibilistic.Poss, q.Alpha, q.Beta); err != nil {
			fmt.Fprintln(os.Stderr, "peer:", err)
			os.Exit(1)
		} else if ok {
			ans = 1
		}
		fmt.Fprintf(w, "q %d", ans)
		for _, x := range q.Alpha {
			fmt.Fprintf(w, " %d", dimacs(x))
		}
		fmt.Fprintf(w, " 0 %d\n", dimacs(q.Beta[0]))
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}
