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
// Protocol) optimises the task and not a proxy of it. The learner decides
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
	for i, at := range a.at {
		answer := NoClass
		for c, q := range at {
			if covered[q] {
				if answer != NoClass {
					answer = NoClass
					break
				}
				answer = a.classes[c]
			}
		}
		if answer == a.targets[i] {
			right++
		}
		total++
	}
	return right, total
}
