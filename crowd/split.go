package crowd

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/strata-logic/strata/learn"
)

// Split is a division of answers into a training and a test part by
// annotator, as in the paper: all answers of an annotator are on one side,
// so that nothing about a test annotator leaks into training.
type Split struct {
	Train, Test []Answer
}

// Annotators returns the distinct annotators of answers, sorted.
func Annotators(answers []Answer) []string {
	var out []string
	for _, a := range answers {
		out = append(out, a.Annotator)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// NewRand returns the random source used for splits and negative examples:
// a PCG generator, so that a seed gives the same result on every platform
// and Go version.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// byAnnotator groups answers by annotator (learn.GroupBy) and returns the
// groups with their order for a split: the annotators sorted by name, then
// shuffled with NewRand(seed).
func byAnnotator(answers []Answer, seed uint64) (learn.Groups, []int) {
	g := learn.GroupBy(answers, func(a Answer) string { return a.Annotator })
	order := make([]int, len(g.Names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return strings.Compare(g.Names[i], g.Names[j]) })
	rng := NewRand(seed)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	return g, order
}

// SplitByAnnotator puts whole annotators, taken in a seeded random order, into
// the test part until it holds at least testFraction of the answers, and
// the rest into the training part (learn's Groups.HoldOut). Both parts get
// at least one annotator, so there must be two or more. testFraction must
// lie in ]0, 1[.
func SplitByAnnotator(answers []Answer, testFraction float64, seed uint64) (Split, error) {
	if !(testFraction > 0 && testFraction < 1) {
		return Split{}, fmt.Errorf("test fraction %v outside ]0, 1[", testFraction)
	}
	g, order := byAnnotator(answers, seed)
	if len(g.Names) < 2 {
		return Split{}, fewAnnotators(g.Names, 2, "a split by annotator")
	}
	test := g.HoldOut(order, testFraction*float64(len(answers)))
	return partition(answers, func(i int) bool { return test[g.Of[i]] }), nil
}

// fewAnnotators is the error of a split that needs at least k annotators
// and has the annotators names: who they are, and what to do.
func fewAnnotators(names []string, k int, what string) error {
	if len(names) == 0 {
		return ErrNoAnswers
	}
	who := strings.Join(names, ", ")
	if len(names) > 5 {
		who = strings.Join(names[:5], ", ") + ", …"
	}
	return fmt.Errorf("the answers come from %d annotator(s) (%s), and %s needs %d or more: give the answers of more annotators, or the test set with --test-from", len(names), who, what, k)
}

func partition(answers []Answer, inTest func(i int) bool) Split {
	var s Split
	for i, a := range answers {
		if inTest(i) {
			s.Test = append(s.Test, a)
		} else {
			s.Train = append(s.Train, a)
		}
	}
	return s
}

// KFoldByAnnotator divides the annotators into k folds of about equal
// numbers of answers (each annotator, in a seeded random order, larger
// ones first, joins the fold with the fewest answers so far: learn's
// Groups.KFold) and returns the k splits whose test part is one fold and
// whose training part is the other folds. Every answer is in exactly one
// test part.
func KFoldByAnnotator(answers []Answer, k int, seed uint64) ([]Split, error) {
	if k < 2 {
		return nil, fmt.Errorf("k-fold needs k >= 2, got %d", k)
	}
	g, order := byAnnotator(answers, seed)
	if len(g.Names) < k {
		return nil, fewAnnotators(g.Names, k, fmt.Sprintf("a %d-fold split by annotator", k))
	}
	// Larger annotators first, so that the greedy balance works; the stable
	// sort keeps the seeded order among equals.
	slices.SortStableFunc(order, func(i, j int) int { return g.Sizes[j] - g.Sizes[i] })
	fold := g.KFold(order, k)
	splits := make([]Split, k)
	for f := range splits {
		splits[f] = partition(answers, func(i int) bool { return fold[g.Of[i]] == f })
	}
	return splits, nil
}

// CheckSplit verifies that no annotator is on both sides of s.
func CheckSplit(s Split) error {
	train := map[string]bool{}
	for _, a := range s.Train {
		train[a.Annotator] = true
	}
	for _, a := range s.Test {
		if train[a.Annotator] {
			return fmt.Errorf("annotator %q is in both the training and the test part", a.Annotator)
		}
	}
	if len(s.Train) == 0 || len(s.Test) == 0 {
		return errors.New("a split part is empty")
	}
	return nil
}
