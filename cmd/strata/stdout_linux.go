//go:build linux && cgo

package main

/*
#include <fcntl.h>

// strata_stdout_closed records whether file descriptor 1 was closed when
// the program was loaded. A constructor runs before the Go runtime starts,
// which opens /dev/null read-write in the place of a closed descriptor
// (runtime.checkfds): after that, a closed standard output and one that a
// parent opened on /dev/null read-write (Python's subprocess.DEVNULL) look
// alike.
static int strata_stdout_closed;

__attribute__((constructor)) static void strata_check_stdout(void) {
	strata_stdout_closed = fcntl(1, F_GETFD) < 0;
}

static int strata_stdout_was_closed(void) { return strata_stdout_closed; }
*/
import "C"

// detectsClosedStdout says whether closedStdout can tell (stdout_test.go).
const detectsClosedStdout = true

// closedStdout reports whether standard output was closed when strata
// started (strata query … >&-).
func closedStdout() bool { return C.strata_stdout_was_closed() != 0 }
