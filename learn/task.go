package learn

import (
	"errors"
	"fmt"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// A Task says how a hypothesis is scored on held-out data: the way the
// task it is learned for is scored, so that whatever chooses a setting on
// held-out training data (the iterations, the pruning threshold; see
// Learn) optimises the task and not a proxy of it. The learner decides
// whether the hypothesis covers each of the task's queries, and the task
// turns those answers into a score. A table learner plugs in its own.
type Task interface {
	// Queries returns the defaults α |~ β whose coverage the task reads
	// (their labels are the task's business); the same set at every call.
	Queries() *Examples
	// Score returns the weight scored right and the total weight, given
	// whether the hypothesis covers each query, in the order of
	// Queries().List.
	Score(covered []bool) (right, total int)
}

// CaseTask is a Task that scores each of its cases apart, for comparing
// two hypotheses on the same cases (the rule of choice Paired).
type CaseTask interface {
	Task
	// RightCases appends to dst, for every case in order, whether it is
	// right given the coverage, and returns it.
	RightCases(dst []bool, covered []bool) []bool
	// CaseWeights returns the weight of every case, in the same order:
	// Score's right is the weight of the cases RightCases finds right.
	CaseWeights() []int
}

// Binary is the task of default sets: each held-out default is right when
// the hypothesis covers it exactly when it is positive, counted with its
// multiplicity (binary accuracy, as Score counts it).
type Binary struct{ Examples *Examples }

// Queries returns the held-out defaults.
func (b Binary) Queries() *Examples { return b.Examples }

// Score counts the defaults classified right.
func (b Binary) Score(covered []bool) (right, total int) {
	for i, e := range b.Examples.List {
		if covered[i] == e.Positive {
			right += e.Count
		}
		total += e.Count
	}
	return right, total
}

// RightCases says which defaults are classified right.
func (b Binary) RightCases(dst []bool, covered []bool) []bool {
	for i, e := range b.Examples.List {
		dst = append(dst, covered[i] == e.Positive)
	}
	return dst
}

// CaseWeights returns the defaults' multiplicities.
func (b Binary) CaseWeights() []int {
	out := make([]int, len(b.Examples.List))
	for i, e := range b.Examples.List {
		out[i] = e.Count
	}
	return out
}

// NoClass is the target of a situation whose answer is no class (a tie
// among the most typical answers, or "don't know"): eval.None.
const NoClass logic.Atom = -1

// Answers is the task of answer tables (crowd data; any table with one
// answer per row): the answer of a hypothesis for a situation is the class
// whose atom it covers alone among the classes, α |~ class, or NoClass
// when it covers none or several (eval's Classes.Predict decides the same
// with a Reasoner), and each situation is right when its answer is its
// target, counting once, as a test situation does.
type Answers struct {
	targets []logic.Atom
	queries *Examples
	classes []logic.Atom
	at      [][]int // per situation and class: the query's index
}

// NewAnswers returns the task of the situations with their targets (a
// class, or NoClass) over the classes.
func NewAnswers(classes []logic.Atom, situations []logic.Term, targets []logic.Atom) (*Answers, error) {
	if len(classes) < 2 {
		return nil, fmt.Errorf("learn: %d classes: a multi-class task needs two or more", len(classes))
	}
	if len(situations) != len(targets) {
		return nil, fmt.Errorf("learn: %d situations and %d targets", len(situations), len(targets))
	}
	if len(situations) == 0 {
		return nil, errors.New("learn: no situations to score")
	}
	a := &Answers{targets: slices.Clone(targets), queries: &Examples{}, classes: slices.Clone(classes)}
	for i, s := range situations {
		if t := targets[i]; t != NoClass && !slices.Contains(classes, t) {
			return nil, fmt.Errorf("learn: situation %d: target atom %d is not a class", i+1, t)
		}
		at := make([]int, len(classes))
		for c, atom := range classes {
			at[c] = a.queries.addAt(s, logic.Clause{logic.Pos(atom)}, true, 1)
		}
		a.at = append(a.at, at)
	}
	return a, nil
}

// Queries returns, for every situation and class, the default
// situation |~ class.
func (a *Answers) Queries() *Examples { return a.queries }

// Score counts the situations whose answer is their target.
func (a *Answers) Score(covered []bool) (right, total int) {
	for i := range a.at {
		if a.right(i, covered) {
			right++
		}
		total++
	}
	return right, total
}

// RightCases says which situations' answers are their targets.
func (a *Answers) RightCases(dst []bool, covered []bool) []bool {
	for i := range a.at {
		dst = append(dst, a.right(i, covered))
	}
	return dst
}

// CaseWeights returns 1 for every situation: each counts once.
func (a *Answers) CaseWeights() []int {
	out := make([]int, len(a.at))
	for i := range out {
		out[i] = 1
	}
	return out
}

// right reports whether situation i's answer is its target.
func (a *Answers) right(i int, covered []bool) bool {
	answer := NoClass
	for c, q := range a.at[i] {
		if covered[q] {
			if answer != NoClass {
				answer = NoClass
				break
			}
			answer = a.classes[c]
		}
	}
	return answer == a.targets[i]
}
