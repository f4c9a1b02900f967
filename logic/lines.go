package logic

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// BOM is the UTF-8 encoding of the byte-order mark U+FEFF, which some
// editors put at the start of a text file. Every reader of strata skips it.
const BOM = "\xef\xbb\xbf"

// SkipBOM returns a reader of r's bytes without a leading UTF-8 byte-order
// mark, for readers that do not read their input line by line
// (LineFormat.Each skips it itself).
func SkipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(BOM)); err == nil && string(b) == BOM {
		br.Discard(len(BOM))
	}
	return br
}

// TrimBOM returns data without a leading UTF-8 byte-order mark, for readers
// that read their whole input at once.
func TrimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte(BOM)) }

// MaxLineLen is the longest line, in bytes, that LineFormat.Each reads; a
// longer line is an error naming the file and line rather than a buffer of
// unbounded size.
const MaxLineLen = 16 << 20

// maxLineLen is MaxLineLen, lowered by tests.
var maxLineLen = MaxLineLen

// LineFormat says how a line-based text format writes comments; its Each
// is the line loop of every text reader of strata. The zero value knows no
// comments.
type LineFormat struct {
	// Comments are the markers that start a comment running to the end of
	// the line: "#" in strata's formats, "//" and "#" in Alchemy's.
	Comments []string
}

// TextLines is the line format of strata's own text formats (rule
// datasets, hard rules, theories, defaults, cases): '#' starts a comment,
// and blank lines are skipped.
var TextLines = LineFormat{Comments: []string{"#"}}

// strip removes the comment from a line.
func (f LineFormat) strip(line string) string {
	for _, c := range f.Comments {
		if i := strings.Index(line, c); i >= 0 {
			line = line[:i]
		}
	}
	return line
}

// Each calls fn with the 1-based number and the text, comment removed, of
// every line of r that is not blank once its comment is removed. A line
// ends at "\n", "\r\n" or a lone "\r" (old Mac files), which the text is
// without; the first line is also without a UTF-8 byte-order mark. Each
// stops at fn's first error; name says which input failed to read, and a
// line longer than MaxLineLen is a ParseError giving name and line.
func (f LineFormat) Each(r io.Reader, name string, fn func(line int, text string) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLineLen+len("\r\n"))
	sc.Split(scanLines)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if len(text) > maxLineLen {
			return &ParseError{Position{File: name, Line: line}, ErrLineTooLong}
		}
		if line == 1 {
			text = TrimBOM(text)
		}
		if err := f.call(fn, line, string(text)); err != nil {
			return err
		}
	}
	switch err := sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong):
		return &ParseError{Position{File: name, Line: line + 1}, ErrLineTooLong}
	case err != nil:
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}

// scanLines is a bufio.SplitFunc for lines ending in "\n", "\r\n" or a
// lone "\r", returned without their ending.
func scanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	end, next := lineEnd(data, atEOF)
	switch {
	case end >= 0:
		return next, data[:end], nil
	case atEOF && len(data) > 0:
		return len(data), data, nil
	}
	return 0, nil, nil
}

// lineEnd returns where the first line of data ends and the next begins,
// or -1 when data holds no complete line yet (a final "\r" may be the
// first half of "\r\n" unless atEOF).
func lineEnd(data []byte, atEOF bool) (end, next int) {
	lf := bytes.IndexByte(data, '\n')
	limit := lf
	if lf < 0 {
		limit = len(data)
	}
	cr := bytes.IndexByte(data[:limit], '\r')
	switch {
	case cr >= 0 && cr+1 == lf:
		return cr, lf + 1 // "\r\n"
	case cr >= 0 && (cr+1 < len(data) || atEOF):
		return cr, cr + 1 // a lone "\r"
	case cr >= 0:
		return -1, 0 // "\r" last: is "\n" next?
	case lf >= 0:
		return lf, lf + 1
	}
	return -1, 0
}

// LineCol returns the 1-based line and column (in bytes) of the byte at
// offset off of src, where "\n", "\r\n" and a lone "\r" each end a line,
// as for LineFormat.Each. An offset past the end is at the end.
func LineCol[S ~string | ~[]byte](src S, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue // the line ends at the "\n"
			}
		case '\n':
		default:
			continue
		}
		line, start = line+1, i+1
	}
	return line, off - start + 1
}

// Newlines returns a reader of r's bytes in which a lone carriage return,
// the line ending of old Mac files, is a line feed ("\r\n" stays), for
// readers that do not read lines through LineFormat, such as encoding/csv.
func Newlines(r io.Reader) io.Reader { return &newlines{br: bufio.NewReader(r)} }

type newlines struct{ br *bufio.Reader }

func (n *newlines) Read(p []byte) (int, error) {
	k, err := n.br.Read(p)
	for i := bytes.IndexByte(p[:k], '\r'); i >= 0; {
		switch {
		case i+1 < k:
			if p[i+1] != '\n' {
				p[i] = '\n'
			}
		default: // the last byte read: look at the next one
			if next, perr := n.br.Peek(1); perr != nil || next[0] != '\n' {
				p[i] = '\n'
			}
		}
		j := bytes.IndexByte(p[i+1:k], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return k, err
}

// call passes a line to fn unless it is blank once its comment is removed.
func (f LineFormat) call(fn func(line int, text string) error, line int, text string) error {
	text = f.strip(text)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return fn(line, text)
}

// LineLimit returns a writer of w's text that fails, before writing it, on
// a line longer than MaxLineLen (the line ending aside), so that a writer of
// strata never writes what LineFormat.Each will not read back: every text
// writer of a format strata reads goes through it. name is what is written,
// for the error.
func LineLimit(w io.Writer, name string) io.Writer {
	return &lineLimit{w: w, name: name, line: 1}
}

type lineLimit struct {
	w    io.Writer
	name string
	line int // the line being written, from 1
	len  int // its bytes so far
}

func (l *lineLimit) Write(p []byte) (int, error) {
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		n := i
		if i < 0 {
			n = len(rest)
		}
		text := n
		if n > 0 && rest[n-1] == '\r' && i >= 0 {
			text-- // \r\n
		}
		if l.len+text > maxLineLen {
			return 0, fmt.Errorf("line %d of the %s would be longer than %d bytes, the longest line strata reads back", l.line, l.name, maxLineLen)
		}
		if i < 0 {
			l.len += n
			break
		}
		l.line++
		l.len = 0
		rest = rest[i+1:]
	}
	return l.w.Write(p)
}
