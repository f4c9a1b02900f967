//go:build unix

package learn_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// The learner's speed-ups must not change what it learns: every answer is
// still decided exactly, so the same seed gives the same theory. These
// digests (of the final theory and the training accuracy of every
// iteration) fix what the learner learns: a change of the engines that
// only saves work must leave them as they are. STRATA_GOLDEN_PRINT=1
// prints the digests of the code under test instead of comparing.
var goldenTheories = map[string]string{
	"nltcs/seed=1/threads=1": "fe615a7bd3b1e646",
	"nltcs/seed=1/threads=2": "fe615a7bd3b1e646",
	"nltcs/seed=2/threads=1": "c9405856a62d2065",
	"nltcs/seed=2/threads=2": "c9405856a62d2065",
	"nltcs/seed=3/threads=1": "fe765f810fb304a7",
	"nltcs/seed=3/threads=2": "fe765f810fb304a7",
	"nltcs/linear":           "a9087807b095e3fb",
	"nltcs/lex":              "40f0cfaa514b4a83",
	"poker/seed=1":           "f03f6d2a6ee62431",
	"poker/seed=2":           "ba314cb9d29f3260",
}

// digest learns and returns a digest of the final theory and the history.
func digest(t *testing.T, v *logic.Vocabulary, train *learn.Examples, hard []logic.Clause, opts learn.Config) string {
	t.Helper()
	l, err := learn.NewLearner(learn.Problem{Vocab: v, Train: train, Hard: hard}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(learn.TheoryAndHistory(l, v))))[:16]
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	if os.Getenv("STRATA_GOLDEN_PRINT") != "" {
		t.Logf("%q: %q,", name, got)
		return
	}
	want, ok := goldenTheories[name]
	if !ok {
		t.Fatalf("%s: no digest recorded", name)
	}
	if got != want {
		t.Errorf("%s: theory or history digest %s, before the speed-ups %s", name, got, want)
	}
}

// TestSameTheoriesNLTCS: 20 iterations on the NLTCS defaults, three seeds,
// one and two workers. Under the race detector, which runs the learner
// ten times slower, one seed: its digests, with both numbers of workers,
// are what the race detector needs to watch the workers share a run, and
// every seed's are checked by the run without it (CI runs both).
func TestSameTheoriesNLTCS(t *testing.T) {
	v, train, _ := learn.NLTCSProblem(t)
	seeds := []uint64{1, 2, 3}
	if raceEnabled {
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		for _, threads := range []int{1, 2} {
			name := fmt.Sprintf("nltcs/seed=%d/threads=%d", seed, threads)
			checkGolden(t, name, digest(t, v, train, nil, learn.Config{Seed: seed, Iterations: 20, Threads: threads}))
		}
	}
}

// TestSameTheoriesSemantics: the candidate choice and pruning paths that
// linear and lex share with poss, 8 NLTCS iterations of seed 1.
func TestSameTheoriesSemantics(t *testing.T) {
	v, train, _ := learn.NLTCSProblem(t)
	for _, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
		name := fmt.Sprintf("nltcs/%s", sem)
		checkGolden(t, name, digest(t, v, train, nil, learn.Config{Seed: 1, Iterations: 8, Threads: 2, Semantics: sem}))
	}
}

// TestSameTheoriesPoker: 12 iterations from scratch on the 18,163 distinct
// poker training defaults, two seeds (seconds each; skipped under -short
// and the race detector, where they take minutes).
func TestSameTheoriesPoker(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("minutes under -short or -race")
	}
	v, train, hard, err := pokerTrain(shared.Path(t, "poker/pluribus_hands.txt.gz"))
	if err != nil {
		t.Fatal(err)
	}
	for _, seed := range []uint64{1, 2} {
		name := fmt.Sprintf("poker/seed=%d", seed)
		checkGolden(t, name, digest(t, v, train, hard, learn.Config{Seed: seed, Iterations: 12, Threads: 2}))
	}
}
