package tabular

// SplitSeed is the learner's seed of split i (from 0) of a run with seed:
// each split of a table learns with draws of its own. A caller that learns
// the splits itself (the Python package's cross-validation against bench
// tabular) gives each split the same seed.
func SplitSeed(seed uint64, split int) uint64 { return seed + uint64(split)*7919 }
