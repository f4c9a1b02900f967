// Package possibilistic implements possibilistic logic theories as the paper
// uses them (§3.1): stratified propositional formulas with certainty weights,
// strict cuts, the inconsistency level, the inconsistency-tolerant entailment
// ⊢poss and its conditional form (Θ, α) ⊢poss β, necessity degrees, most
// plausible worlds, explanations, simplifications that preserve every
// conditional entailment, and a readable text format and JSON for theories.
//
// Beyond the paper's drowning semantics Poss, every query can be asked under
// a Semantics: Linear (linear base revision: keep each level, from the top,
// that is consistent with the evidence and the levels kept) or Lex
// (lexicographic entailment: keep the worlds of the evidence that violate
// the fewest formulas, level by level from the top). Both entail everything
// Poss does; explanations say which levels or formulas the evidence set
// aside and which formulas entail the conclusion.
//
// A Theory is plain data; a Reasoner compiles one into an incremental SAT
// solver with one selector per level and per formula, and answers Poss
// queries with O(log k) solver calls for k levels, Linear ones with at most
// k+2, and Lex ones as a lexicographic optimisation on the same solver. Its
// methods are the questions one asks of a theory, each taking a context
// and, where the answer depends on it, a Semantics: Entails (and
// EntailsClause, its allocation-free form), Decide, Explain, Conclude,
// MostPlausibleWorld and Inconsistency.
//
// # Levels
//
// A theory lists its levels highest first, as its text format and its JSON
// write them: Theory.Levels[0] is the most certain level. A level's number,
// everywhere it appears (Theory.Levels, Verdict.Level and SetAside,
// FormulaRef, the levels of strata's server JSON), is its position in that
// list, counting from 0. Text meant for people (Explanation.Reason, strata's
// command line) names a level by its weight, "level 0.5", as a theory file
// shows it.
package possibilistic

import (
	"fmt"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Level is a stratum of a theory: formulas sharing one certainty weight.
type Level struct {
	Weight   float64
	Formulas []*logic.Formula
}

// Theory is a possibilistic logic theory Θ = {(φ, λ)}. Levels are kept in
// decreasing order of weight (highest certainty first, see Levels in the
// package documentation) with distinct weights in ]0,1]; only their order
// matters for entailment. The zero value is the empty theory over an empty
// vocabulary.
type Theory struct {
	Vocab  *logic.Vocabulary
	Levels []Level
}

// New returns an empty theory over v (a new vocabulary when v is nil).
func New(v *logic.Vocabulary) *Theory {
	if v == nil {
		v = &logic.Vocabulary{}
	}
	return &Theory{Vocab: v}
}

// vocab returns the theory's vocabulary, creating it for a zero Theory.
func (t *Theory) vocab() *logic.Vocabulary {
	if t.Vocab == nil {
		t.Vocab = &logic.Vocabulary{}
	}
	return t.Vocab
}

// Add puts (f, weight) into the theory, in the level of that weight,
// creating the level if needed. It panics on a weight outside ]0,1], which
// is a programming error (readers validate user input first).
func (t *Theory) Add(f *logic.Formula, weight float64) {
	if !(weight > 0 && weight <= 1) {
		panic(fmt.Sprintf("possibilistic: weight %v outside ]0,1]", weight))
	}
	i, found := slices.BinarySearchFunc(t.Levels, weight, func(l Level, w float64) int {
		switch {
		case l.Weight > w:
			return -1
		case l.Weight < w:
			return 1
		}
		return 0
	})
	if !found {
		t.Levels = slices.Insert(t.Levels, i, Level{Weight: weight})
	}
	t.Levels[i].Formulas = append(t.Levels[i].Formulas, f)
}

// AddClause puts (c, weight) into the theory.
func (t *Theory) AddClause(c logic.Clause, weight float64) { t.Add(logic.ClauseF(c), weight) }

// Clone returns a copy of t that shares formulas (which are immutable) and
// the vocabulary but not level slices.
func (t *Theory) Clone() *Theory {
	u := &Theory{Vocab: t.Vocab, Levels: make([]Level, len(t.Levels))}
	for i, l := range t.Levels {
		u.Levels[i] = Level{Weight: l.Weight, Formulas: slices.Clone(l.Formulas)}
	}
	return u
}

// Validate checks the invariants: weights in ]0,1], strictly decreasing.
func (t *Theory) Validate() error {
	for i, l := range t.Levels {
		if !(l.Weight > 0 && l.Weight <= 1) {
			return fmt.Errorf("level %d: weight %v outside ]0,1]", i, l.Weight)
		}
		if i > 0 && l.Weight >= t.Levels[i-1].Weight {
			return fmt.Errorf("level %d: weight %v not below the level above (%v)", i, l.Weight, t.Levels[i-1].Weight)
		}
	}
	return nil
}

// Cut returns the strict λ-cut Θ_λ̄: the formulas whose weight exceeds λ.
func (t *Theory) Cut(lambda float64) []*logic.Formula {
	var fs []*logic.Formula
	for _, l := range t.Levels {
		if l.Weight > lambda {
			fs = append(fs, l.Formulas...)
		}
	}
	return fs
}

// Size returns the number of formulas and the total number of literal
// occurrences (the paper's size of a theory, the sum of rule lengths).
func (t *Theory) Size() (formulas, literals int) {
	for _, l := range t.Levels {
		formulas += len(l.Formulas)
		for _, f := range l.Formulas {
			literals += f.Size()
		}
	}
	return formulas, literals
}

// Possibility returns π(ω) = 1 − max{λ : (φ, λ) ∈ Θ, ω ⊭ φ} (1 when ω violates
// nothing): the possibility distribution that Θ induces, by its definition.
// It is the brute-force semantics behind every test of this package.
func (t *Theory) Possibility(w []bool) float64 {
	for _, l := range t.Levels {
		for _, f := range l.Formulas {
			if !f.Eval(w) {
				return 1 - l.Weight
			}
		}
	}
	return 1
}
