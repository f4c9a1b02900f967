package learn

import "testing"

// TestSeedPurposes: the data keep the run's seed; every other purpose gets
// a seed of its own, different from the data's and from each other's, so
// that no two draws (the crowd test split and the learner, say) walk the
// same generator stream.
func TestSeedPurposes(t *testing.T) {
	purposes := []Purpose{ForData, ForSample, ForValidationSplit, ForValidationExamples, ForTrainingExamples, ForLearner}
	for _, seed := range []uint64{0, 1, 2, 7, 1 << 63, ^uint64(0)} {
		if SeedFor(seed, ForData) != seed {
			t.Errorf("seed %d: the data's seed is %d", seed, SeedFor(seed, ForData))
		}
		seen := map[uint64]Purpose{}
		for _, p := range purposes {
			s := SeedFor(seed, p)
			if q, ok := seen[s]; ok {
				t.Errorf("seed %d: %q and %q share seed %d", seed, p, q, s)
			}
			seen[s] = p
			if SeedFor(seed, p) != s {
				t.Errorf("seed %d: SeedFor(%q) is not a function", seed, p)
			}
		}
	}
	// Nearby run seeds give unrelated learner seeds: no run's learner
	// draws what another run's data split draws.
	data := map[uint64]bool{}
	for seed := range uint64(1000) {
		data[SeedFor(seed, ForData)] = true
	}
	for seed := range uint64(1000) {
		if data[SeedFor(seed, ForLearner)] {
			t.Fatalf("the learner of run %d has the data seed of another run", seed)
		}
	}
}
