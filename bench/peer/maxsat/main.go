// Command maxsat writes MAP queries on a network as weighted CNF files for
// the SAT4j MaxSAT peer in ../maxsat.sh, with strata's optimum and time for
// each: one file per evidence formula, the network's WCNF with the evidence
// as hard unit clauses, so that any MaxSAT solver answers exactly the query
// strata's exact engine answers.
//
// The evidence formulas are those given with -given (one per flag, "a33,
// a65, a57"), then -n drawn as `strata mln examples` draws its evidence (1
// to 5 literals on distinct atoms, uniform signs) from the generator seeded
// by -seed.
// DIR/strata.txt lists "FILE COST SECONDS" per query.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
)

type givenFlag []string

func (g *givenFlag) String() string     { return strings.Join(*g, "; ") }
func (g *givenFlag) Set(s string) error { *g = append(*g, s); return nil }

func main() {
	net := flag.String("net", "", "network (Alchemy syntax or .wcnf)")
	dir := flag.String("o", "maxsat-peer", "directory for the WCNF files")
	n := flag.Int("n", 40, "evidence formulas drawn")
	seed := flag.Uint64("seed", 1, "random seed of the draws")
	var given givenFlag
	flag.Var(&given, "given", "an evidence formula to add (repeatable)")
	flag.Parse()
	if err := run(*net, *dir, *n, *seed, given); err != nil {
		fmt.Fprintln(os.Stderr, "maxsat peer:", err)
		os.Exit(1)
	}
}

func run(path, dir string, n int, seed uint64, given []string) error {
	if path == "" {
		return fmt.Errorf("-net is required")
	}
	net, err := mln.ReadNetworkFile(path)
	if err != nil {
		return err
	}
	var evs []logic.Term
	for _, g := range given {
		f, err := logic.ParseEvidence(net.Vocab, g)
		if err != nil {
			return err
		}
		t, ok := f.AsTerm()
		if !ok {
			return fmt.Errorf("-given %q is not a conjunction of literals", g)
		}
		evs = append(evs, t)
	}
	r := rand.New(rand.NewPCG(seed, 0x6d617873))
	for range n {
		perm := r.Perm(net.NumAtoms())
		var t logic.Term
		for _, a := range perm[:1+r.IntN(min(5, net.NumAtoms()-1))] {
			t = append(t, logic.MkLit(logic.Atom(a), r.IntN(2) == 0))
		}
		evs = append(evs, t)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	e, err := mln.NewExact(net)
	if err != nil {
		return err
	}
	list, err := os.Create(filepath.Join(dir, "strata.txt"))
	if err != nil {
		return err
	}
	defer list.Close()
	lw := bufio.NewWriter(list)
	for i, ev := range evs {
		name := fmt.Sprintf("q%03d.wcnf", i)
		start := time.Now()
		_, cost, ok, err := e.MAP(context.Background(), ev)
		elapsed := time.Since(start)
		if err != nil {
			return err
		}
		if !ok {
			continue // no world: nothing to compare
		}
		q := &mln.Network{Vocab: net.Vocab, Formulas: append([]mln.Formula(nil), net.Formulas...)}
		for _, l := range ev {
			q.Formulas = append(q.Formulas, mln.Formula{F: logic.LitF(l), Hard: true})
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		werr := mln.WriteWCNF(f, q)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
		fmt.Fprintf(lw, "%s %d %.6f %s\n", name, cost, elapsed.Seconds(), strings.ReplaceAll(net.Vocab.Join(ev, ","), " ", ""))
	}
	return lw.Flush()
}
