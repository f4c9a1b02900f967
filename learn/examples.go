package learn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Example is a default α |~ β with its label: α a conjunction of literals,
// β a clause, as the paper assumes (¬α and β are clauses). Count is its
// multiplicity in the multiset of examples.
type Example struct {
	Alpha    logic.Term
	Beta     logic.Clause
	Positive bool
	Count    int
}

// Examples is a multiset of labelled defaults, stored with multiplicities.
type Examples struct {
	List []Example
}

// Add adds n copies of the example α |~ β with the given label, merging it
// with an identical example already present.
func (s *Examples) Add(alpha logic.Term, beta logic.Clause, positive bool, n int) {
	alpha, _ = logic.Normalize(slices.Clone(alpha))
	beta, _ = logic.Normalize(slices.Clone(beta))
	for i := range s.List {
		e := &s.List[i]
		if e.Positive == positive && slices.Equal(e.Alpha, alpha) && slices.Equal(e.Beta, beta) {
			e.Count += n
			return
		}
	}
	s.List = append(s.List, Example{Alpha: alpha, Beta: beta, Positive: positive, Count: n})
}

// AddRules adds rules as examples with the given label. Each rule must have a
// conjunction of literals as antecedent and a clause as consequent; name is
// used in the error for one that has not.
func (s *Examples) AddRules(rules []logic.Rule, positive bool, v *logic.Vocabulary, name string) error {
	idx := make(map[string]int, len(s.List))
	for i, e := range s.List {
		idx[key(e.Alpha, e.Beta, e.Positive)] = i
	}
	for i, r := range rules {
		alpha, beta, ok := r.Clausal()
		if !ok {
			return fmt.Errorf("%s: rule %d (%s): the learner needs a conjunction of literals before the arrow and a disjunction of literals after it", name, i+1, r.String(v))
		}
		k := key(alpha, beta, positive)
		if j, ok := idx[k]; ok {
			s.List[j].Count++
			continue
		}
		idx[k] = len(s.List)
		s.List = append(s.List, Example{Alpha: alpha, Beta: beta, Positive: positive, Count: 1})
	}
	return nil
}

func key(alpha logic.Term, beta logic.Clause, positive bool) string {
	var b strings.Builder
	fmt.Fprint(&b, positive, alpha, "|", beta)
	return b.String()
}

// Size returns the number of positive and negative examples, counting
// multiplicities.
func (s *Examples) Size() (pos, neg int) {
	for _, e := range s.List {
		if e.Positive {
			pos += e.Count
		} else {
			neg += e.Count
		}
	}
	return pos, neg
}

// Total returns the number of examples counting multiplicities.
func (s *Examples) Total() int { p, n := s.Size(); return p + n }

// MaxAtom returns the largest atom in the examples, or -1.
func (s *Examples) MaxAtom() logic.Atom {
	m := logic.Atom(-1)
	for _, e := range s.List {
		for _, l := range e.Alpha {
			m = max(m, l.Atom())
		}
		for _, l := range e.Beta {
			m = max(m, l.Atom())
		}
	}
	return m
}
