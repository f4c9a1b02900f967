package crowd

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
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

// shuffledAnnotators returns the annotators with their answer counts, in a
// seeded random order.
func shuffledAnnotators(answers []Answer, seed uint64) ([]string, map[string]int) {
	count := map[string]int{}
	for _, a := range answers {
		count[a.Annotator]++
	}
	names := Annotators(answers)
	rng := NewRand(seed)
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names, count
}

// SplitByAnnotator puts whole annotators, taken in a seeded random order, into
// the test part until it holds at least testFraction of the answers, and
// the rest into the training part. Both parts get at least one annotator,
// so there must be two or more. testFraction must lie in ]0, 1[.
func SplitByAnnotator(answers []Answer, testFraction float64, seed uint64) (Split, error) {
	if !(testFraction > 0 && testFraction < 1) {
		return Split{}, fmt.Errorf("test fraction %v outside ]0, 1[", testFraction)
	}
	names, count := shuffledAnnotators(answers, seed)
	if len(names) < 2 {
		return Split{}, fmt.Errorf("split by annotator needs two or more annotators, got %d", len(names))
	}
	test := map[string]bool{}
	n := 0
	for _, a := range names[:len(names)-1] {
		if float64(n) >= testFraction*float64(len(answers)) {
			break
		}
		test[a] = true
		n += count[a]
	}
	return partition(answers, func(a string) bool { return test[a] }), nil
}

func partition(answers []Answer, inTest func(annotator string) bool) Split {
	var s Split
	for _, a := range answers {
		if inTest(a.Annotator) {
			s.Test = append(s.Test, a)
		} else {
			s.Train = append(s.Train, a)
		}
	}
	return s
}

// KFoldByAnnotator divides the annotators into k folds of about equal
// numbers of answers (each annotator, in a seeded random order, joins the
// fold with the fewest answers so far) and returns the k splits whose test
// part is one fold and whose training part is the other folds. Every
// answer is in exactly one test part.
func KFoldByAnnotator(answers []Answer, k int, seed uint64) ([]Split, error) {
	if k < 2 {
		return nil, fmt.Errorf("k-fold needs k >= 2, got %d", k)
	}
	names, count := shuffledAnnotators(answers, seed)
	if len(names) < k {
		return nil, fmt.Errorf("%d-fold split by annotator needs %d or more annotators, got %d", k, k, len(names))
	}
	// Larger annotators first, so that the greedy balance works; the stable
	// sort keeps the seeded order among equals.
	slices.SortStableFunc(names, func(a, b string) int { return count[b] - count[a] })
	fold := map[string]int{}
	load := make([]int, k)
	for _, a := range names {
		f := slices.Index(load, slices.Min(load))
		fold[a] = f
		load[f] += count[a]
	}
	splits := make([]Split, k)
	for i := range splits {
		splits[i] = partition(answers, func(a string) bool { return fold[a] == i })
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
