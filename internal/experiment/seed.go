package experiment

import (
	"hash/fnv"
	"math/rand/v2"
)

// Purpose names what a random draw of a reproduction is for; Seed gives
// each its own seed, so that no two draws share a generator's stream.
type Purpose string

// The purposes of the reproductions' draws.
const (
	// Data draws the datasets: the crowd test split by annotator and its
	// negative examples, the MAP examples. Its seed is the run's seed
	// itself, so that `strata crowd --seed N` and `strata mln examples
	// --seed N` build the data a reproduction with seed N learns from.
	Data Purpose = "data"
	// Sample draws the subsample of a quick run.
	Sample Purpose = "sample"
	// ValidationSplit draws the groups held out to choose the number of
	// iterations.
	ValidationSplit Purpose = "validation split"
	// ValidationExamples draws the negative examples of the validation
	// split (crowd: a random other action for each held-out answer).
	ValidationExamples Purpose = "validation examples"
	// TrainingExamples draws the negative examples a learner learns from
	// when they are not the datasets' own (crowd: the training answers
	// relabelled with their situation's most typical action).
	TrainingExamples Purpose = "training examples"
	// Learner seeds the heuristic learner.
	Learner Purpose = "learner"
)

// Seed returns the seed of the draw for purpose in a run with the given
// seed: seed itself for Data, and otherwise SplitMix64's finaliser of seed
// xor the 64-bit FNV-1a hash of the purpose's name. Distinct purposes thus
// get unrelated seeds, and the generators they seed (PCG, whose stream is
// fixed per package) never walk the same sequence, as the crowd test split
// and the learner would if both drew from PCG(seed, 0x5eed).
func Seed(seed uint64, purpose Purpose) uint64 {
	if purpose == Data {
		return seed
	}
	h := fnv.New64a()
	h.Write([]byte(purpose))
	z := seed ^ h.Sum64()
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Rand returns a generator for the draw for purpose in a run with seed.
func Rand(seed uint64, purpose Purpose) *rand.Rand {
	return rand.New(rand.NewPCG(Seed(seed, purpose), 0))
}
