package main

import (
	"os"
	"syscall"
)

// closedStdout reports whether standard output was closed when strata
// started: the Go runtime then opens /dev/null read-write in its place
// (runtime.checkfds), which a shell redirection (> /dev/null, O_WRONLY)
// does not.
func closedStdout() bool {
	var st, null syscall.Stat_t
	if syscall.Fstat(1, &st) != nil || syscall.Stat(os.DevNull, &null) != nil || st.Rdev != null.Rdev || st.Ino != null.Ino {
		return false
	}
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, 1, syscall.F_GETFL, 0)
	return errno == 0 && fl&syscall.O_ACCMODE == syscall.O_RDWR
}
