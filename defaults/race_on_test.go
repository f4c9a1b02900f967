//go:build race

package defaults

// raceOn says the race detector is on: it slows the solver tenfold, so
// that TestHardestAgreesWithInfOCF decides the hardest queries once, as a
// query does, and leaves compiling the whole of CR(Δ) first to the runs
// without it.
const raceOn = true
