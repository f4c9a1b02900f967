//go:build !race

package server

const raceOn = false
