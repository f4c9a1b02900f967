//go:build !race

package learn

// raceOn reports whether the race detector is on: the slowest differential
// tests then draw fewer problems.
const raceOn = false
