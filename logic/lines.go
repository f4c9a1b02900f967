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
// every line of r that is not blank once its comment is removed. The text
// is without
// its line ending ("\n" or "\r\n") and, on the first line, without a
// UTF-8 byte-order mark. Each stops at fn's first error; name says which
// input failed to read, and a line longer than MaxLineLen is a ParseError
// giving name and line.
func (f LineFormat) Each(r io.Reader, name string, fn func(line int, text string) error) error {
	br := bufio.NewReaderSize(r, 64*1024)
	var long []byte // a line longer than the reader's buffer
	line := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(long)+len(chunk) > maxLineLen+len("\r\n") {
				return &ParseError{Position{File: name, Line: line + 1}, ErrLineTooLong}
			}
			long = append(long, chunk...)
			continue
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read %s: %w", name, err)
		}
		if len(chunk) == 0 && len(long) == 0 && err == io.EOF {
			return nil
		}
		text := chunk
		if long != nil {
			text = append(long, chunk...)
			long = nil
		}
		line++
		text = bytes.TrimSuffix(text, []byte{'\n'})
		text = bytes.TrimSuffix(text, []byte{'\r'})
		if len(text) > maxLineLen {
			return &ParseError{Position{File: name, Line: line}, ErrLineTooLong}
		}
		if line == 1 {
			text = TrimBOM(text)
		}
		if ferr := f.call(fn, line, string(text)); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

// call passes a line to fn unless it is blank once its comment is removed.
func (f LineFormat) call(fn func(line int, text string) error, line int, text string) error {
	text = f.strip(text)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return fn(line, text)
}
