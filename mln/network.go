// Package mln holds propositional Markov logic networks, the models whose MAP
// behaviour the paper's second experiment (§5.3) compiles into possibilistic
// theories: reading and writing them (Alchemy's syntax and weighted CNF),
// exact and approximate MAP inference, MAP entailment
// (M, α) ⊢MAP β, the generation of MAP-entailment examples α |~ β for the
// learner and their attribute encoding for the classical baselines, binary
// data tables, and learning a network from them with decision trees in the
// manner of Lowd and Davis (ICDM 2010).
//
// A network is a list of formulas with real weights, plus hard formulas. It
// gives a world ω the probability P(ω) ∝ exp(Σ wᵢ fᵢ(ω)) when ω satisfies
// every hard formula, and 0 otherwise. MAP inference only needs the order of
// worlds, so it works with costs: a formula with weight w > 0 costs w in the
// worlds that falsify it, one with w < 0 costs |w| in the worlds that satisfy
// it, and the cost of a world is Σ wᵢ⁺ − Σ wᵢ fᵢ(ω), a constant minus its
// log-weight. Costs are made integers by a decimal scale (see Compile).
package mln

import (
	"fmt"

	"github.com/strata-logic/strata/logic"
)

// Formula is a formula of a network: weighted, or hard (true in every world
// of non-zero probability).
type Formula struct {
	F      *logic.Formula
	Weight float64 // log-linear weight; ignored when Hard
	Hard   bool
}

// Network is a propositional Markov logic network over the atoms of Vocab.
// Every atom of Vocab is a variable of the network, whether or not a formula
// mentions it; networks learned from a table name them a1 ... an.
type Network struct {
	Vocab    *logic.Vocabulary
	Formulas []Formula
	// Auxiliary marks the atoms a reader named itself, not the file (the
	// unnamed variables of a WCNF file that names the others): a world
	// shown to a person leaves them out. nil: none.
	Auxiliary []bool
}

// IsAuxiliary reports whether atom a is one the reader named itself
// (Network.Auxiliary).
func (n *Network) IsAuxiliary(a logic.Atom) bool { return int(a) < len(n.Auxiliary) && n.Auxiliary[a] }

// NumAtoms returns the number of variables.
func (n *Network) NumAtoms() int { return n.Vocab.Len() }

// Score returns the log-weight Σ wᵢ fᵢ(ω) of world w (one value per atom)
// and whether w satisfies every hard formula.
func (n *Network) Score(w []bool) (float64, bool) {
	s, ok := 0.0, true
	for _, f := range n.Formulas {
		holds := f.F.Eval(w)
		switch {
		case f.Hard:
			ok = ok && holds
		case holds:
			s += f.Weight
		}
	}
	return s, ok
}

// Check reports formulas that mention atoms outside Vocab.
func (n *Network) Check() error {
	for i, f := range n.Formulas {
		if int(f.F.MaxAtom()) >= n.Vocab.Len() {
			return fmt.Errorf("mln: formula %d mentions atom %d outside the %d of the vocabulary", i+1, f.F.MaxAtom(), n.Vocab.Len())
		}
	}
	return nil
}

// Stats summarises a network: its formulas (weighted and hard) and their
// total length in literals.
type Stats struct {
	Atoms, Weighted, Hard, Literals int
}

// Stats returns the size of n.
func (n *Network) Stats() Stats {
	st := Stats{Atoms: n.NumAtoms()}
	for _, f := range n.Formulas {
		if f.Hard {
			st.Hard++
		} else {
			st.Weighted++
		}
		st.Literals += f.F.Size()
	}
	return st
}
