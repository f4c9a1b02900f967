package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
)

// Standard output is where a command's result goes, and a result that
// cannot be written is a failure: every write to it is checked, the first
// error is kept, and a command that wrote nothing wrong fails with it all
// the same (exit status 1, "strata: write standard output: …"), since most
// of its prints do not look at their error. A standard output that was
// closed when strata started (`strata query … >&-`), which the Go runtime
// replaces by /dev/null, is recorded before the runtime starts
// (closedStdout), and writing a result to it fails; /dev/null given on
// purpose, for writing or for reading and writing, takes the result.

// resultWriter is standard output, checked.
type resultWriter struct {
	w      io.Writer
	closed bool  // standard output was closed at start: every write fails
	err    error // the first write error
	n      int64 // bytes written
}

// errStdoutClosed is the error of every write to a standard output that
// was closed when strata started.
var errStdoutClosed = errors.New("standard output is closed; the result would be lost (redirect it to a file, or to /dev/null to discard it)")

func (r *resultWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.closed && len(p) > 0 {
		r.err = errStdoutClosed
		return 0, r.err
	}
	n, err := r.w.Write(p)
	r.n += int64(n)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "write /dev/stdout: …" says it twice
		}
		r.err = fmt.Errorf("write standard output: %w", err)
		return n, r.err
	}
	return n, nil
}

// result returns the error that writing the result met, if any, with the
// command's own error first.
func (r *resultWriter) result(cmdErr error) error {
	if cmdErr != nil || r.err == nil {
		return cmdErr
	}
	return r.err
}
