package mln

import (
	"fmt"

	"github.com/strata-logic/strata/logic"
)

// ParseEvidence reads evidence for n: a conjunction of literals over its
// atoms, separated by ',' or '&' ("" is the empty one, true). Evidence that
// holds a literal and its negation is an *ContradictoryEvidence error: no
// world satisfies it, which is an answer rather than a syntax error.
func ParseEvidence(n *Network, src string) (logic.Term, error) {
	atoms := n.NumAtoms()
	v := n.Vocab.Clone() // parsing interns unknown names
	f, err := logic.ParseEvidence(v, src)
	if err != nil {
		return nil, err
	}
	args := []*logic.Formula{f}
	switch f.Op {
	case logic.OpAnd:
		args = f.Args
	case logic.OpTrue:
		args = nil
	}
	seen := make(map[logic.Lit]bool, len(args))
	t := make(logic.Term, 0, len(args))
	for _, g := range args {
		l, ok := g.AsLit()
		if !ok {
			return nil, fmt.Errorf("%q is not a conjunction of literals", src)
		}
		if int(l.Atom()) >= atoms {
			return nil, fmt.Errorf("%s is not an atom of the network", v.Name(l.Atom()))
		}
		if seen[l.Not()] {
			return nil, &ContradictoryEvidence{Lit: n.Vocab.LitString(l.Not()), Neg: n.Vocab.LitString(l)}
		}
		if !seen[l] {
			seen[l] = true
			t = append(t, l)
		}
	}
	t, _ = logic.Normalize(t)
	return t, nil
}

// ContradictoryEvidence is the error of ParseEvidence for evidence that
// holds both Lit and its negation Neg.
type ContradictoryEvidence struct{ Lit, Neg string }

func (e *ContradictoryEvidence) Error() string {
	return fmt.Sprintf("no world satisfies the evidence: it holds both %s and %s", e.Lit, e.Neg)
}
