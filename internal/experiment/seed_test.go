package experiment

import "testing"

// TestSeedPurposes: the data keep the run's seed; every other purpose gets
// a seed of its own, different from the data's and from each other's, so
// that no two draws (the crowd test split and the learner, say) walk the
// same generator stream.
func TestSeedPurposes(t *testing.T) {
	purposes := []Purpose{Data, Sample, ValidationSplit, ValidationExamples, TrainingExamples, Learner}
	for _, seed := range []uint64{0, 1, 2, 7, 1 << 63, ^uint64(0)} {
		if Seed(seed, Data) != seed {
			t.Errorf("seed %d: the data's seed is %d", seed, Seed(seed, Data))
		}
		seen := map[uint64]Purpose{}
		for _, p := range purposes {
			s := Seed(seed, p)
			if q, ok := seen[s]; ok {
				t.Errorf("seed %d: %q and %q share seed %d", seed, p, q, s)
			}
			seen[s] = p
			if Seed(seed, p) != s {
				t.Errorf("seed %d: Seed(%q) is not a function", seed, p)
			}
		}
	}
	// Nearby run seeds give unrelated learner seeds: no run's learner
	// draws what another run's data split draws.
	data := map[uint64]bool{}
	for seed := range uint64(1000) {
		data[Seed(seed, Data)] = true
	}
	for seed := range uint64(1000) {
		if data[Seed(seed, Learner)] {
			t.Fatalf("the learner of run %d has the data seed of another run", seed)
		}
	}
}
