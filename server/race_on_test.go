//go:build race

package server

// raceOn says the race detector is on: it multiplies the memory a process
// takes, so that TestConcurrentHugeBodies does not hold it to 1 GB.
const raceOn = true
