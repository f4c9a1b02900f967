//go:build !race

package defaults

const raceOn = false
