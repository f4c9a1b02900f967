//go:build !linux || !cgo

package main

// detectsClosedStdout says whether closedStdout can tell: only a Linux
// build with cgo records the descriptor before the Go runtime replaces it
// (stdout_linux.go).
const detectsClosedStdout = false

// closedStdout reports whether standard output was closed when strata
// started; without cgo, or off Linux, it cannot tell and says no.
func closedStdout() bool { return false }
