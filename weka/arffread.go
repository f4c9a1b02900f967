package weka

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// ARFFReader reads a table in ARFF, Weka's Attribute-Relation File Format,
// one instance at a time: the header (@relation, @attribute, @data) when it
// is made, then the instances of the data section, dense (values separated
// by commas) or sparse ("{index value, ...}", the values left out being 0,
// or a nominal attribute's first value). Comments ('%' at the start of a
// line) and blank lines are skipped; names and values may be quoted with '
// or " (a backslash escapes the next character), as Write quotes them.
// Lines end at "\n", "\r\n" or a lone "\r"; errors are *logic.ParseError
// naming the file, line and column.
type ARFFReader struct {
	name     string
	sc       *bufio.Scanner
	line     int
	relation string
	attrs    []Attribute
	attrPos  []logic.Position
	// The last instance: its line, and the column of each value.
	recLine int
	cols    []int
}

// NewARFFReader reads the header of the ARFF table in r, named name in
// errors, up to and including its @data line.
func NewARFFReader(r io.Reader, name string) (*ARFFReader, error) {
	a := &ARFFReader{name: name, sc: bufio.NewScanner(logic.Newlines(logic.SkipBOM(r)))}
	a.sc.Buffer(make([]byte, 0, 64*1024), logic.MaxLineLen+1)
	for {
		text, ok, err := a.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, a.errorf(a.line+1, 1, "no @data line: the header ends without the data")
		}
		word, rest := headerWord(text)
		switch strings.ToLower(word) {
		case "@relation":
			if a.relation, _, err = a.name1(rest, len(text)-len(rest)); err != nil {
				return nil, err
			}
		case "@attribute":
			if err := a.attribute(text, rest); err != nil {
				return nil, err
			}
		case "@data":
			if len(a.attrs) == 0 {
				return nil, a.errorf(a.line, 1, "@data before any @attribute")
			}
			return a, nil
		default:
			return nil, a.errorf(a.line, indent(text)+1, "expected @relation, @attribute or @data, found %q", word)
		}
	}
}

// Relation returns the table's @relation name.
func (a *ARFFReader) Relation() string { return a.relation }

// Attributes returns the table's attributes, in order: Values holds a
// nominal attribute's values, Text marks a string or date attribute, and
// an attribute with neither is numeric.
func (a *ARFFReader) Attributes() []Attribute { return a.attrs }

// AttributePos returns the position of attribute i's name.
func (a *ARFFReader) AttributePos(i int) logic.Position { return a.attrPos[i] }

// Read returns the values of the next instance, one per attribute for a
// sparse instance and as many as the line holds for a dense one (the
// caller compares their number with the attributes'); "?" is a missing
// value. It returns io.EOF after the last instance.
func (a *ARFFReader) Read() ([]string, error) {
	text, ok, err := a.next()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, io.EOF
	}
	a.recLine = a.line
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") {
		return a.sparse(text)
	}
	fields, cols, err := a.split(text, 0, len(text))
	a.cols = cols
	return fields, err
}

// Line returns the line of the last instance read.
func (a *ARFFReader) Line() int { return a.recLine }

// FieldPos returns the position of value i of the last instance read (for
// a value a sparse instance leaves out, the instance's opening brace).
func (a *ARFFReader) FieldPos(i int) logic.Position {
	col := 1
	if i >= 0 && i < len(a.cols) {
		col = a.cols[i]
	} else if len(a.cols) > 0 {
		col = a.cols[len(a.cols)-1]
	}
	return logic.Position{File: a.name, Line: a.recLine, Col: col}
}

// next returns the next line that is neither blank nor a comment.
func (a *ARFFReader) next() (string, bool, error) {
	for a.sc.Scan() {
		a.line++
		text := a.sc.Text()
		if len(text) > logic.MaxLineLen {
			return "", false, &logic.ParseError{Pos: logic.Position{File: a.name, Line: a.line}, Err: logic.ErrLineTooLong}
		}
		if t := strings.TrimSpace(text); t == "" || t[0] == '%' {
			continue
		}
		return text, true, nil
	}
	switch err := a.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return "", false, &logic.ParseError{Pos: logic.Position{File: a.name, Line: a.line + 1}, Err: logic.ErrLineTooLong}
	case err != nil:
		return "", false, &logic.ParseError{Pos: logic.Position{File: a.name, Line: a.line + 1}, Err: err}
	}
	return "", false, nil
}

func (a *ARFFReader) errorf(line, col int, format string, args ...any) error {
	return logic.Errorf(logic.Position{File: a.name, Line: line, Col: col}, format, args...)
}

// attribute reads an @attribute line: a name, then numeric (real,
// integer), string, date [format] or {nominal values}.
func (a *ARFFReader) attribute(text, rest string) error {
	start := len(text) - len(rest)
	name, after, err := a.name1(rest, start)
	if err != nil {
		return err
	}
	at := Attribute{Name: name}
	typeCol := len(text) - len(strings.TrimLeft(after, " \t")) + 1
	typ := strings.TrimSpace(after)
	switch word, _ := headerWord(typ); {
	case typ == "":
		return a.errorf(a.line, typeCol, "attribute %q has no type (numeric, string, date or {values})", name)
	case strings.HasPrefix(typ, "{"):
		if !strings.HasSuffix(typ, "}") {
			return a.errorf(a.line, typeCol, "attribute %q: the nominal values have no closing '}'", name)
		}
		vals, _, err := a.split(text, typeCol, typeCol+len(typ)-2)
		if err != nil {
			return err
		}
		at.Values = []string{}
		for _, v := range vals {
			if v != "" || len(vals) > 1 {
				at.Values = append(at.Values, v)
			}
		}
	default:
		switch strings.ToLower(word) {
		case "numeric", "real", "integer":
		case "string", "date":
			at.Text = true
		case "relational":
			return a.errorf(a.line, typeCol, "attribute %q is relational, which is not read (only numeric, string, date and nominal attributes)", name)
		default:
			return a.errorf(a.line, typeCol, "attribute %q has the unknown type %q (numeric, real, integer, string, date or {values})", name, word)
		}
	}
	a.attrs = append(a.attrs, at)
	a.attrPos = append(a.attrPos, logic.Position{File: a.name, Line: a.line, Col: start + indent(rest) + 1})
	return nil
}

// name1 reads a name, quoted or up to the next blank, from rest, which
// starts at byte offset start of the line; it returns the name and what
// follows it.
func (a *ARFFReader) name1(rest string, start int) (string, string, error) {
	trimmed := strings.TrimLeft(rest, " \t")
	col := start + len(rest) - len(trimmed) + 1
	if trimmed == "" {
		return "", "", a.errorf(a.line, col, "expected a name")
	}
	if q := trimmed[0]; q == '\'' || q == '"' {
		v, n, ok := unquote(trimmed)
		if !ok {
			return "", "", a.errorf(a.line, col, "unterminated quoted name")
		}
		return v, trimmed[n:], nil
	}
	end := strings.IndexAny(trimmed, " \t")
	if end < 0 {
		end = len(trimmed)
	}
	return trimmed[:end], trimmed[end:], nil
}

// split splits text[from:to] at the commas outside quotes, unquoting the
// values, and returns them with the 1-based column of each.
func (a *ARFFReader) split(text string, from, to int) ([]string, []int, error) {
	var vals []string
	var cols []int
	i := from
	for {
		for i < to && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		cols = append(cols, i+1)
		if i < to && (text[i] == '\'' || text[i] == '"') {
			v, n, ok := unquote(text[i:to])
			if !ok {
				return nil, nil, a.errorf(a.line, i+1, "unterminated quoted value")
			}
			vals = append(vals, v)
			i += n
			for i < to && (text[i] == ' ' || text[i] == '\t') {
				i++
			}
			if i < to && text[i] != ',' {
				return nil, nil, a.errorf(a.line, i+1, "expected ',' after a quoted value, found %q", text[i])
			}
		} else {
			j := i
			for j < to && text[j] != ',' {
				j++
			}
			vals = append(vals, strings.TrimRight(text[i:j], " \t"))
			i = j
		}
		if i >= to {
			return vals, cols, nil
		}
		i++ // the comma
	}
}

// sparse reads a sparse instance, "{index value, ...}" with 0-based
// indices in increasing order.
func (a *ARFFReader) sparse(text string) ([]string, error) {
	open := strings.IndexByte(text, '{')
	end := strings.LastIndexByte(text, '}')
	if end < open || strings.TrimSpace(text[end+1:]) != "" {
		return nil, a.errorf(a.line, open+1, "a sparse instance ends with '}'")
	}
	vals := make([]string, len(a.attrs))
	a.cols = make([]int, len(a.attrs))
	for i, at := range a.attrs {
		vals[i], a.cols[i] = "0", open+1
		switch {
		case at.Values != nil && len(at.Values) > 0:
			vals[i] = at.Values[0]
		case at.Text:
			vals[i] = "?"
		}
	}
	if strings.TrimSpace(text[open+1:end]) == "" {
		return vals, nil
	}
	entries, cols, err := a.split(text, open+1, end)
	if err != nil {
		return nil, err
	}
	last := -1
	for k, e := range entries {
		idx, val, _ := strings.Cut(e, " ")
		n, err := strconv.Atoi(idx)
		switch {
		case err != nil || strings.TrimSpace(val) == "":
			return nil, a.errorf(a.line, cols[k], "a sparse value is \"index value\", found %q", e)
		case n < 0 || n >= len(a.attrs):
			return nil, a.errorf(a.line, cols[k], "attribute index %d outside 0 to %d", n, len(a.attrs)-1)
		case n <= last:
			return nil, a.errorf(a.line, cols[k], "attribute index %d after %d: the indices must increase", n, last)
		}
		last = n
		val = strings.TrimSpace(val)
		if val != "" && (val[0] == '\'' || val[0] == '"') {
			v, _, ok := unquote(val)
			if !ok {
				return nil, a.errorf(a.line, cols[k], "unterminated quoted value")
			}
			val = v
		}
		vals[n], a.cols[n] = val, cols[k]+len(idx)+1
	}
	return vals, nil
}

// unquote reads the quoted string at the start of s and returns its value
// and the bytes it took.
func unquote(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
		case c == q:
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// headerWord splits a header line into its first word and the rest.
func headerWord(text string) (string, string) {
	t := strings.TrimLeft(text, " \t")
	end := strings.IndexAny(t, " \t{")
	if end < 0 {
		return t, ""
	}
	return t[:end], t[end:]
}

// indent returns the number of blanks at the start of text.
func indent(text string) int { return len(text) - len(strings.TrimLeft(text, " \t")) }
