package crowd

import (
	"fmt"
	"slices"
	"testing"
)

// randomAnswers makes answers by annotators of very different sizes.
func randomAnswers(seed uint64, annotators int) []Answer {
	rng := NewRand(seed)
	var out []Answer
	for a := 0; a < annotators; a++ {
		n := 1 + rng.IntN(40)
		for i := 0; i < n; i++ {
			out = append(out, Answer{Situation: []string{fmt.Sprintf("d%d", rng.IntN(5))}, Annotator: fmt.Sprintf("ann%02d", a), Action: "x"})
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func TestSplitByAnnotator(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		answers := randomAnswers(seed, 2+int(seed%12))
		frac := 0.1 + float64(seed%8)/10
		s, err := SplitByAnnotator(answers, frac, seed)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckSplit(s); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(s.Train)+len(s.Test) != len(answers) {
			t.Fatalf("seed %d: %d+%d answers of %d", seed, len(s.Train), len(s.Test), len(answers))
		}
		// Whole annotators are added only while the test part is below the
		// fraction: it reaches the fraction (unless only one annotator is
		// left for training), and without its largest annotator it is below.
		test := Annotators(s.Test)
		want := frac * float64(len(answers))
		if float64(len(s.Test)) < want && len(Annotators(s.Train)) > 1 {
			t.Fatalf("seed %d: test part %d of %d for fraction %.1f", seed, len(s.Test), len(answers), frac)
		}
		largest := 0
		for _, a := range test {
			largest = max(largest, countOf(s.Test, a))
		}
		if float64(len(s.Test)-largest) >= want {
			t.Fatalf("seed %d: test part %d overshoots the fraction %.1f of %d", seed, len(s.Test), frac, len(answers))
		}
		again, _ := SplitByAnnotator(answers, frac, seed)
		if !slices.Equal(Annotators(again.Test), test) {
			t.Fatalf("seed %d: the same seed gave another split", seed)
		}
	}
	answers := randomAnswers(3, 10)
	a, _ := SplitByAnnotator(answers, 0.3, 1)
	b, _ := SplitByAnnotator(answers, 0.3, 2)
	c, _ := SplitByAnnotator(answers, 0.3, 3)
	if slices.Equal(Annotators(a.Test), Annotators(b.Test)) && slices.Equal(Annotators(b.Test), Annotators(c.Test)) {
		t.Fatal("the seed does not change the split")
	}
	if _, err := SplitByAnnotator(answers, 1, 1); err == nil {
		t.Fatal("fraction 1 accepted")
	}
	if _, err := SplitByAnnotator(randomAnswers(1, 1), 0.5, 1); err == nil {
		t.Fatal("one annotator split")
	}
}

func TestSplitFraction(t *testing.T) {
	// 20 annotators of 10 answers each: a fraction of 0.25 takes exactly 5.
	var answers []Answer
	for a := 0; a < 20; a++ {
		for i := 0; i < 10; i++ {
			answers = append(answers, Answer{Annotator: fmt.Sprint(a), Action: "x"})
		}
	}
	s, _ := SplitByAnnotator(answers, 0.25, 9)
	if len(s.Test) != 50 || len(Annotators(s.Test)) != 5 {
		t.Fatalf("test part %d answers by %d annotators, want 50 by 5", len(s.Test), len(Annotators(s.Test)))
	}
}

func TestKFoldByAnnotator(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		answers := randomAnswers(seed, 5+int(seed%10))
		k := 2 + int(seed%4)
		folds, err := KFoldByAnnotator(answers, k, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(folds) != k {
			t.Fatalf("%d folds, want %d", len(folds), k)
		}
		inTest := map[string]int{}
		total := 0
		for _, f := range folds {
			if err := CheckSplit(f); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if len(f.Train)+len(f.Test) != len(answers) {
				t.Fatal("a fold loses answers")
			}
			total += len(f.Test)
			for _, a := range Annotators(f.Test) {
				inTest[a]++
			}
		}
		if total != len(answers) {
			t.Fatalf("test parts hold %d answers, want %d", total, len(answers))
		}
		for a, n := range inTest {
			if n != 1 {
				t.Fatalf("annotator %s is tested in %d folds", a, n)
			}
		}
		if len(inTest) != len(Annotators(answers)) {
			t.Fatal("an annotator is never tested")
		}
		// Greedy balance: no fold exceeds the lightest by more than the
		// largest annotator.
		largest := 0
		for _, a := range Annotators(answers) {
			largest = max(largest, countOf(answers, a))
		}
		sizes := []int{}
		for _, f := range folds {
			sizes = append(sizes, len(f.Test))
		}
		if slices.Max(sizes)-slices.Min(sizes) > largest {
			t.Fatalf("seed %d: unbalanced folds %v (largest annotator %d)", seed, sizes, largest)
		}
	}
	if _, err := KFoldByAnnotator(randomAnswers(1, 3), 4, 1); err == nil {
		t.Fatal("4 folds of 3 annotators")
	}
	if _, err := KFoldByAnnotator(randomAnswers(1, 3), 1, 1); err == nil {
		t.Fatal("k = 1 accepted")
	}
}

func countOf(answers []Answer, annotator string) int {
	n := 0
	for _, a := range answers {
		if a.Annotator == annotator {
			n++
		}
	}
	return n
}
