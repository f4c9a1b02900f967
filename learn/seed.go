package learn

import (
	"hash/fnv"
	"math/rand/v2"
)

// Purpose names what a random draw is for; SeedFor gives each its own
// seed, so that no two draws share a generator's stream.
type Purpose string

// The purposes of the draws of Learn and of the reproductions.
const (
	// ForData draws the datasets: the crowd test split by annotator and its
	// negative examples, the MAP examples. Its seed is the run's seed
	// itself, so that `strata crowd --seed N` and `strata mln examples
	// --seed N` build the data a reproduction with seed N learns from.
	ForData Purpose = "data"
	// ForSample draws the subsample of a quick run.
	ForSample Purpose = "sample"
	// ForValidationSplit draws the groups held out to choose the number of
	// iterations (Items.Rand, when a Holdout does not draw them itself).
	ForValidationSplit Purpose = "validation split"
	// ForValidationExamples draws the negative examples of the validation
	// split (crowd: a random other action for each held-out answer).
	ForValidationExamples Purpose = "validation examples"
	// ForTrainingExamples draws the negative examples a learner learns from
	// when they are not the datasets' own (crowd: the training answers
	// relabelled with their situation's most typical action).
	ForTrainingExamples Purpose = "training examples"
	// ForLearner seeds the heuristic learner of a reproduction.
	ForLearner Purpose = "learner"
)

// SeedFor returns the seed of the draw for purpose in a run with the given
// seed: seed itself for ForData, and otherwise SplitMix64's finaliser of seed
// xor the 64-bit FNV-1a hash of the purpose's name. Distinct purposes thus
// get unrelated seeds, and the generators they seed (PCG, whose stream is
// fixed per package) never walk the same sequence, as a test split and the
// learner would if both drew from PCG(seed, 0x5eed).
func SeedFor(seed uint64, purpose Purpose) uint64 {
	if purpose == ForData {
		return seed
	}
	h := fnv.New64a()
	h.Write([]byte(purpose))
	z := seed ^ h.Sum64()
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// RandFor returns a generator for the draw for purpose in a run with seed.
func RandFor(seed uint64, purpose Purpose) *rand.Rand {
	return rand.New(rand.NewPCG(SeedFor(seed, purpose), 0))
}
