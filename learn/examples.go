package learn

import (
	"fmt"
	"slices"

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
// The zero value is an empty set. Add and AddRules merge identical examples;
// code that appends to List directly should not mix with them.
type Examples struct {
	List  []Example
	index map[string]int // key → position in List
}

// find returns the position of the example with this key, indexing List
// the first time.
func (s *Examples) find(k string) (int, bool) {
	if s.index == nil {
		s.index = make(map[string]int, len(s.List))
		for i, e := range s.List {
			s.index[key(e.Alpha, e.Beta, e.Positive)] = i
		}
	}
	i, ok := s.index[k]
	return i, ok
}

// Add adds n copies of the example α |~ β with the given label, merging it
// with an identical example already present.
func (s *Examples) Add(alpha logic.Term, beta logic.Clause, positive bool, n int) {
	s.addAt(alpha, beta, positive, n)
}

// addAt is Add, returning the position of the example in List.
func (s *Examples) addAt(alpha logic.Term, beta logic.Clause, positive bool, n int) int {
	alpha, _ = logic.Normalize(slices.Clone(alpha))
	beta, _ = logic.Normalize(slices.Clone(beta))
	k := key(alpha, beta, positive)
	if i, ok := s.find(k); ok {
		s.List[i].Count += n
		return i
	}
	s.index[k] = len(s.List)
	s.List = append(s.List, Example{Alpha: alpha, Beta: beta, Positive: positive, Count: n})
	return len(s.List) - 1
}

// AddRules adds rules as examples with the given label. Each rule must have a
// conjunction of literals as antecedent and a clause as consequent; name is
// used in the error for one that has not.
func (s *Examples) AddRules(rules []logic.Rule, positive bool, v *logic.Vocabulary, name string) error {
	for i, r := range rules {
		alpha, beta, ok := r.Clausal()
		if !ok {
			return fmt.Errorf("%s: rule %d: %w", name, i+1, r.ClausalError(v))
		}
		k := key(alpha, beta, positive)
		if j, ok := s.find(k); ok {
			s.List[j].Count++
			continue
		}
		s.index[k] = len(s.List)
		s.List = append(s.List, Example{Alpha: alpha, Beta: beta, Positive: positive, Count: 1})
	}
	return nil
}

// key identifies an example: its label, then α's and β's literals as
// fixed-width integers, with a separator no literal can produce.
func key(alpha logic.Term, beta logic.Clause, positive bool) string {
	b := make([]byte, 0, 1+4*(len(alpha)+len(beta)+1))
	if positive {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	put := func(l logic.Lit) { b = append(b, byte(l), byte(l>>8), byte(l>>16), byte(l>>24)) }
	for _, l := range alpha {
		put(l)
	}
	put(-1)
	for _, l := range beta {
		put(l)
	}
	return string(b)
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

// FromRules builds a training set from positive and negative rules.
func FromRules(v *logic.Vocabulary, pos, neg []logic.Rule) (*Examples, error) {
	ex := &Examples{}
	if err := ex.AddRules(pos, true, v, "defaults"); err != nil {
		return nil, err
	}
	if err := ex.AddRules(neg, false, v, "non-defaults"); err != nil {
		return nil, err
	}
	return ex, nil
}
