//go:build !linux

package main

// closedStdout reports whether standard output was closed when strata
// started; only Linux is asked (stdout_linux.go).
func closedStdout() bool { return false }
