package logic

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

func TestParseError(t *testing.T) {
	cause := fs.ErrInvalid
	e := Errorf(Position{File: "a.rules", Line: 3, Col: 7}, "expected a literal: %w", cause)
	if got := e.Error(); got != "a.rules:3:7: expected a literal: invalid argument" {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(e, cause) {
		t.Error("errors.Is does not reach the wrapped cause")
	}
	if got := Errorf(Position{}, "no position").Error(); got != "no position" {
		t.Errorf("without a position: %q", got)
	}

	var l ErrorList
	if got := l.Error(); got != "no errors" {
		t.Errorf("empty list: %q", got)
	}
	l = append(l, Errorf(Position{File: "t.csv", Line: 2}, "skipped row"), e)
	if got := l.Error(); got != "t.csv:2: skipped row (and 1 more errors)" {
		t.Errorf("list: %q", got)
	}
	if !errors.Is(l, cause) {
		t.Error("errors.Is does not reach the causes in a list")
	}
	var pe *ParseError
	if !errors.As(l, &pe) || pe.Pos.Line != 2 {
		t.Errorf("errors.As on a list: %v", pe)
	}

	// A reader's error in one of strata's formats is a ParseError at the
	// line and column of the fault.
	_, err := ParseRuleAt(&Vocabulary{}, Position{File: "r.rules", Line: 4}, "bird -> (flies")
	if !errors.As(err, &pe) || pe.Pos.File != "r.rules" || pe.Pos.Line != 4 || pe.Pos.Col == 0 || !strings.HasPrefix(err.Error(), "r.rules:4:") {
		t.Errorf("rule error %v", err)
	}
}
