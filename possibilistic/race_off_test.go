//go:build !race

package possibilistic

const raceOn = false
