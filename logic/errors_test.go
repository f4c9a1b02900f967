package logic

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf8"
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

// TestInvalidUTF8IsAnError: a name holding invalid UTF-8 is an error at
// the byte, since every output would write it as U+FFFD, another name; a
// comparison's value holding some is quoted with \x escapes instead, so
// that a table's odd bytes make a name that reads back as written.
func TestInvalidUTF8IsAnError(t *testing.T) {
	for src, want := range map[string]string{
		"a\xffb":    "f:1:2: expected end of formula or an operator, found invalid UTF-8 (byte 0xff): text must be UTF-8",
		"\xff":      "f:1:1: expected formula, found invalid UTF-8 (byte 0xff): text must be UTF-8",
		"a | \x80":  "f:1:5: expected formula, found invalid UTF-8 (byte 0x80): text must be UTF-8",
		"v\xc3 | a": "f:1:2: expected end of formula or an operator, found invalid UTF-8 (byte 0xc3): text must be UTF-8",
		"vögel | ü": "",
	} {
		_, err := ParseFormulaAt(&Vocabulary{}, Position{File: "f", Line: 1, Col: 1}, src)
		if got := fmt.Sprint(err); want == "" && err != nil || want != "" && got != want {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
	name := EqualityName("x", "r\xff")
	if name != `x="r\xff"` || !utf8.ValidString(name) {
		t.Fatalf("EqualityName = %q", name)
	}
	v := &Vocabulary{}
	f, err := ParseFormula(v, `x!="r\xff"`)
	if err != nil || f.String(v) != `x!="r\xff"` || v.Name(0) != name {
		t.Fatalf("%v %v %q", f, err, v.Names())
	}
}
