package maxsat

import (
	"slices"

	"github.com/strata-logic/strata/logic"
)

// Exclusive groups. A learned network gives each variable a decision tree
// whose leaf features C ∧ x are pairwise exclusive: in every world at most
// one of them holds. Charged one by one, such terms give a weak bound, since
// each is violated only once one of its own literals is false; together
// they give a strong one: every term of the group but one is violated. The
// solver therefore partitions the soft constraints into groups of pairwise
// exclusive terms (a soft clause K counts as the term ¬K with a negative
// score) and bounds each group as a whole.
//
// For a group with term scores sᵢ (+cost for a term that should hold,
// -cost for a clause K, i.e. a term ¬K that should fail), the cost of a world
// is P − s(ω), where P is the sum of the positive scores and s(ω) is the
// score of the one term that holds in ω (0 if none does). Hence every
// completion of the current assignment costs at least P − max(0, max sᵢ over
// terms not yet falsified).

// termLits returns the literals of constraint k read as a term: a term's
// own, or the complements of a clause's.
func termLits(k *constraint) []logic.Lit {
	if k.term {
		return k.lits
	}
	t := make([]logic.Lit, len(k.lits))
	for i, l := range k.lits {
		t[i] = l.Not()
	}
	return t
}

// exclusive reports whether terms a and b cannot hold together: some literal
// of one is the complement of a literal of the other. mark is a zeroed
// scratch array indexed by literal.
func exclusive(a, b []logic.Lit, mark []bool) bool {
	for _, l := range a {
		mark[l] = true
	}
	found := false
	for _, l := range b {
		if mark[l.Not()] {
			found = true
			break
		}
	}
	for _, l := range a {
		mark[l] = false
	}
	return found
}

// partitionExclusive partitions terms first-fit into groups of pairwise
// exclusive terms (empty terms stay alone); n is the number of variables.
// A term joins the first group all of whose members it clashes with. Only
// a group with a member holding the complement of one of its literals can
// be that group, so the groups are found through an index from each
// literal to the groups whose members hold it: near-linear in the terms,
// where trying every group made 20,000 soft clauses take seconds.
func partitionExclusive(n int, terms [][]logic.Lit) [][]int {
	mark := make([]bool, 2*n)
	var groups [][]int
	holding := make([][]int32, 2*n) // literal → groups with a member that holds it (repeats allowed)
	seen := []int{}                 // group → the last term it was a candidate for, +1
	var cands []int
	for i, t := range terms {
		cands = cands[:0]
		for _, l := range t {
			for _, g := range holding[l.Not()] {
				if seen[g] != i+1 {
					seen[g] = i + 1
					cands = append(cands, int(g))
				}
			}
		}
		slices.Sort(cands)
		at := -1
		for _, g := range cands {
			ok := true
			for _, j := range groups[g] {
				if !exclusive(terms[j], t, mark) {
					ok = false
					break
				}
			}
			if ok {
				at = g
				break
			}
		}
		if at < 0 {
			at = len(groups)
			groups = append(groups, nil)
			seen = append(seen, 0)
		}
		groups[at] = append(groups[at], i)
		for _, l := range t {
			holding[l] = append(holding[l], int32(at))
		}
	}
	return groups
}

// buildGroups finds the exclusive groups of two or more soft constraints.
func (s *Exact) buildGroups() {
	terms := make([][]logic.Lit, 0, len(s.cons)-s.nHard)
	for c := s.nHard; c < len(s.cons); c++ {
		terms = append(terms, termLits(&s.cons[c]))
	}
	s.group = make([]int32, len(s.cons))
	for i := range s.group {
		s.group[i] = -1
	}
	for _, g := range partitionExclusive(s.n, terms) {
		if len(g) < 2 {
			continue
		}
		members := make([]int32, len(g))
		for i, j := range g {
			members[i] = int32(j + s.nHard)
			s.group[j+s.nHard] = int32(len(s.groups))
		}
		s.groups = append(s.groups, members)
	}
}

// groupBound adds the bound of every group to the charges and returns the
// part of it that exceeds the costs already paid, and whether some member
// is undecided.
func (s *Exact) groupBound() (extra int64, live bool) {
	for _, g := range s.groups {
		var paid, total, best1, best2 int64
		bestC := int32(-1)
		for _, c := range g {
			k := &s.cons[c]
			nt, nf := int(s.nTrue[c]), int(s.nFalse[c])
			if k.term {
				total += k.cost
				switch {
				case nf > 0:
					paid += k.cost
					continue
				case nt < len(k.lits):
					live = true
					s.activity(k)
				}
				if k.cost > best1 {
					best1, best2, bestC = k.cost, best1, c
				} else if k.cost > best2 {
					best2 = k.cost
				}
				continue
			}
			switch {
			case nt > 0: // the clause holds: its term is false
			case nf == len(k.lits):
				paid += k.cost
			default:
				live = true
				s.activity(k)
				if len(k.lits)-nf == 1 {
					for _, l := range k.lits {
						if s.val[l.Atom()] == 0 {
							s.charge(l, k.cost)
						}
					}
				}
			}
		}
		if lb := total - best1; lb > paid {
			extra += lb - paid
		}
		if bestC >= 0 && best1 > best2 {
			s.chargeTermAmount(&s.cons[bestC], best1-best2)
		}
	}
	return extra, live
}

// activity counts an undecided constraint in the branching score of each
// of its free variables.
func (s *Exact) activity(k *constraint) {
	for _, l := range k.lits {
		if s.val[l.Atom()] == 0 {
			s.sc[l.Atom()] += k.cost
		}
	}
}
