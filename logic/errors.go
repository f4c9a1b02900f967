package logic

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Position is a position in a source text, for error messages. Line and Col are
// 1-based; Col counts bytes, as go/scanner does. A zero File or Line is left
// out when printed.
type Position struct {
	File      string
	Line, Col int
}

// String returns "file:line:col", leaving out what is unknown.
func (p Position) String() string {
	var parts []string
	if p.File != "" {
		parts = append(parts, p.File)
	}
	if p.Line > 0 {
		parts = append(parts, strconv.Itoa(p.Line))
		if p.Col > 0 {
			parts = append(parts, strconv.Itoa(p.Col))
		}
	}
	return strings.Join(parts, ":")
}

// ParseError is an error in an input text at a position: text that does
// not parse, a value that does not fit, a record a reader skipped. Every
// reader of strata reports its input's errors this way; Err says what was
// expected and may wrap a cause, which errors.Is and errors.As reach.
type ParseError struct {
	Pos Position
	Err error
}

// Errorf returns the ParseError at pos whose Err is fmt.Errorf(format,
// args...), so that %w wraps a cause.
func Errorf(pos Position, format string, args ...any) *ParseError {
	return &ParseError{Pos: pos, Err: fmt.Errorf(format, args...)}
}

// Error returns "file:line:col: what", leaving out what is unknown of the
// position.
func (e *ParseError) Error() string {
	if p := e.Pos.String(); p != "" {
		return p + ": " + e.Err.Error()
	}
	return e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// ErrorList holds the errors of a reader that goes on after a bad line or
// record, in input order: the records it skipped, as warnings, or the
// errors it gives all at once.
type ErrorList []*ParseError

// Error returns the first error and how many follow it.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Unwrap returns the errors, so that errors.Is and errors.As look at each.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// ErrLineTooLong is the Err of a ParseError for a line longer than
// MaxLineLen.
var ErrLineTooLong = errors.New("line longer than " + strconv.Itoa(MaxLineLen) + " bytes")
