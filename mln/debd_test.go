package mln_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/mln/debd"
)

// TestDEBDNetworks learns the network of each of the paper's four datasets
// with the default options and checks that learning happened (the test PLL
// per variable beats the independent-variables model) and that the integer
// costs are exact, so that rounding cannot change any most probable world.
func TestDEBDNetworks(t *testing.T) {
	dir := filepath.Dir(shared.Path(t, "debd/nltcs"))
	for _, name := range []string{"nltcs", "msnbc", "plants", "dna"} {
		if testing.Short() && name != "nltcs" {
			continue
		}
		net, pll, indep, err := debd.Learn(dir, name, mln.LearnOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v, test PLL per variable %.4f, independent %.4f", name, net.Stats(), pll, indep)
		if pll <= indep {
			t.Errorf("%s: learned PLL %.4f is not above the independent model's %.4f", name, pll, indep)
		}
		c, err := mln.Compile(net)
		if err != nil || c.Decimals > 6 {
			t.Errorf("%s: weights need %d decimals, not the 6 learned (%v)", name, c.Decimals, err)
		}
		// MaxWalkSAT (with its two-flip polish, which the one-hot coded DNA
		// needs) reaches the exact optimum on random queries.
		ex, _ := mln.NewExact(net)
		ap, _ := mln.NewApprox(net, mln.WalkOptions{Seed: 1})
		hits := 0
		for _, alpha := range benchEvidence(net.NumAtoms(), 8) {
			_, opt, _, err1 := ex.MAP(t.Context(), alpha)
			_, got, _, err2 := ap.MAP(t.Context(), alpha)
			if err1 != nil || err2 != nil || got < opt {
				t.Fatalf("%s: exact %d (%v), MaxWalkSAT %d (%v)", name, opt, err1, got, err2)
			}
			if got == opt {
				hits++
			}
		}
		if hits < 7 {
			t.Errorf("%s: MaxWalkSAT found the optimum of only %d of 8 queries", name, hits)
		}
		var buf bytes.Buffer
		mln.WriteAlchemy(&buf, net)
		back, err := mln.ReadAlchemy(&buf, name+".mln")
		if err != nil || len(back.Formulas) != len(net.Formulas) || back.NumAtoms() != net.NumAtoms() {
			t.Errorf("%s: Alchemy round trip: %v", name, err)
		}
	}
}

// TestNLTCSPipeline is the small pipeline of CI: learn the NLTCS network,
// generate examples with exact MAP, and check every label against
// brute-force MAP over all 2^16 worlds with the real (float) weights.
func TestNLTCSPipeline(t *testing.T) {
	dir := filepath.Dir(shared.Path(t, "debd/nltcs"))
	net, _, _, err := debd.Learn(dir, "nltcs", mln.LearnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if net.NumAtoms() != 16 || net.Vocab.Name(11) != "a12" {
		t.Fatalf("atoms %v", net.Vocab.Names())
	}
	trainL, testL, err := mln.MAPExamples(t.Context(), net, mln.MAPOptions{Train: 40, Test: 40, Examples: mln.ExampleOptions{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	train, test := trainL.Examples, testL.Examples
	scores := make([]float64, 1<<16)
	i := 0
	logic.ForEachWorld(16, func(w []bool) bool {
		scores[i], _ = net.Score(w)
		i++
		return true
	})
	world := func(i int) []bool {
		w := make([]bool, 16)
		for a := range w {
			w[a] = i>>a&1 == 1
		}
		return w
	}
	pos := 0
	for _, e := range append(train, test...) {
		best := math.Inf(-1)
		for i, s := range scores {
			if s > best && e.Evidence.Holds(world(i)) {
				best = s
			}
		}
		want := true
		for i, s := range scores {
			if s > best-1e-9 && e.Evidence.Holds(world(i)) && !e.Conclusion.Holds(world(i)) {
				want = false
			}
		}
		if want != e.Positive {
			t.Fatalf("%s labelled %v, brute force says %v", e.Rule().String(net.Vocab), e.Positive, want)
		}
		if want {
			pos++
		}
	}
	if pos == 0 || pos == 80 {
		t.Fatalf("%d positive examples of 80", pos)
	}
	// MaxWalkSAT's labels are noisy but mostly right on this small network.
	atrainL, _, err := mln.MAPExamples(t.Context(), net, mln.MAPOptions{Train: 40, Test: 1, Approx: true, Examples: mln.ExampleOptions{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i, e := range atrainL.Examples {
		if e.Positive == train[i].Positive {
			agree++
		}
	}
	if agree < 36 {
		t.Fatalf("approximate labels agree with exact ones on only %d of 40", agree)
	}
	// The network saved and loaded gives the same sets.
	path := filepath.Join(t.TempDir(), "nltcs.mln")
	var buf bytes.Buffer
	mln.WriteAlchemy(&buf, net)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	loaded, err := mln.ReadNetworkFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ltrain, ltest, err := mln.MAPExamples(t.Context(), loaded, mln.MAPOptions{Train: 40, Test: 40, Examples: mln.ExampleOptions{Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range append(ltrain.Examples, ltest.Examples...) {
		want := append(train, test...)[i]
		if e.Positive != want.Positive || e.Conclusion != want.Conclusion {
			t.Fatalf("example %d differs after saving the network", i)
		}
	}
}
