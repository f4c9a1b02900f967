//go:build race

package possibilistic

// raceOn scales the oracle tests down under the race detector, which
// slows them about tenfold: as many random theories, fewer queries each.
const raceOn = true
