package server

// Fast paths for reading the requests of the hottest endpoints, POST
// /api/query and POST /api/batch: flat objects of strings, booleans and
// lists of strings, read without reflection and with few allocations.
// Whatever the fast path does not read exactly as encoding/json would (a
// misspelt or repeated field, a null, a surrogate escape, invalid UTF-8, …)
// goes the standard way, so the contract, errors and their positions
// included, is encoding/json's; the tests compare the two on random input
// and FuzzScanQuery looks for a difference.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// bufPool holds the buffers that request bodies are read into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuf() *bytes.Buffer { b := bufPool.Get().(*bytes.Buffer); b.Reset(); return b }

// getBody returns a buffer for the body of r, grown to hold it when its
// length is known and within the request's first share of the bytes in
// flight (a larger body grows the buffer as it arrives, as its share does).
func getBody(r *http.Request, limit int64) *bytes.Buffer {
	b := getBuf()
	if n := r.ContentLength; n > 0 && n <= min(limit, shareOf(r.Context())) {
		b.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead free at the end
	}
	return b
}

func putBuf(b *bytes.Buffer) {
	if b.Cap() <= 64<<10 { // a huge body's buffer is left to the collector
		bufPool.Put(b)
	}
}

// decodeBatch reads the body of POST /api/batch into req, by the fast path
// when it can and by decode otherwise.
func (s *Server) decodeBatch(w http.ResponseWriter, r *http.Request, req *batchRequest) *apiError {
	return decodeFast(s, w, r, req, scanBatch)
}

// decodeFast reads the body of r into req by scan when scan can read it and
// by decodeBytes otherwise.
func decodeFast[T any](s *Server, w http.ResponseWriter, r *http.Request, req *T, scan func([]byte, *T) bool) *apiError {
	buf := getBody(r, s.cfg.MaxBody)
	defer putBuf(buf)
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)); err != nil {
		return bodyError(err)
	}
	// Read to its end and closed, the body needs no draining by net/http
	// before the answer is written.
	r.Body.Close()
	if scan(buf.Bytes(), req) {
		return nil
	}
	var zero T
	*req = zero
	return s.decodeBytes(buf.Bytes(), req)
}

// field returns the member of t that a request's key names, with the bit
// that marks it seen (1, 2 or 4), or nil for any other key.
func (t *target) field(key []byte) (bit uint8, dst *string) {
	switch string(key) {
	case "theory_id":
		return 1, &t.TheoryID
	case "theory":
		return 2, &t.Theory
	case "base":
		return 4, &t.Base
	}
	return 0, nil
}

// scanBatch is scanQuery for a batch request.
func scanBatch(body []byte, req *batchRequest) bool {
	var seen uint8
	return scanFlat(body, func(key []byte, v flatValue) bool {
		bit, dst := req.target.field(key)
		switch string(key) {
		case "theory_id", "theory", "base":
		case "semantics":
			bit, dst = 8, &req.Semantics
		case "queries":
			if v.kind != flatList || seen&16 != 0 {
				return false
			}
			seen |= 16
			req.Queries = v.list
			return true
		case "explain":
			if v.kind != flatBool || seen&32 != 0 {
				return false
			}
			seen |= 32
			req.Explain = v.b
			return true
		default:
			return false
		}
		if v.kind != flatString || seen&bit != 0 {
			return false
		}
		seen |= bit
		*dst = v.str
		return true
	})
}

// decodeQuery reads the body of POST /api/query into req, by the fast path
// when it can and by decode otherwise.
func (s *Server) decodeQuery(w http.ResponseWriter, r *http.Request, req *queryRequest) *apiError {
	return decodeFast(s, w, r, req, scanQuery)
}

// bools are false and true, for the pointers scanQuery sets without an
// allocation; nothing writes through them.
var bools = [2]bool{false, true}

// scanQuery reads body into req if it is an object whose members are the
// query request's fields, spelt exactly, each at most once, with string
// values (explain: true or false), and reports whether it
// did. On false req may hold part of the body.
func scanQuery(body []byte, req *queryRequest) bool {
	var seen uint8
	return scanFlat(body, func(key []byte, v flatValue) bool {
		str, b, isBool := v.str, v.b, v.kind == flatBool
		if v.kind == flatList {
			return false
		}
		bit, dst := req.target.field(key)
		switch string(key) {
		case "theory_id", "theory", "base":
		case "query":
			bit, dst = 8, &req.Query
		case "semantics":
			bit, dst = 16, &req.Semantics
		case "explain":
			if !isBool || seen&32 != 0 {
				return false
			}
			seen |= 32
			req.Explain = &bools[0]
			if b {
				req.Explain = &bools[1]
			}
			return true
		default:
			return false
		}
		if isBool || seen&bit != 0 {
			return false
		}
		seen |= bit
		*dst = str
		return true
	})
}

// flatValue is a member's value in a flat object: a string, a boolean or
// a list of strings.
type flatValue struct {
	kind flatKind
	str  string
	b    bool
	list []string
}

type flatKind uint8

const (
	flatString flatKind = iota
	flatBool
	flatList
)

// scanFlat scans a JSON object whose values are strings, booleans or
// arrays of strings, calling member for each, and reports whether the
// whole body was such an object (with white space only around it) and
// member accepted every member. It fails on what encoding/json would read
// differently or refuse: keys with escapes, control characters or invalid
// UTF-8 in strings, surrogate escapes.
func scanFlat(b []byte, member func(key []byte, v flatValue) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		key, j, esc, ok := scanString(b, i)
		if !ok || esc {
			return false
		}
		i = skipSpace(b, j)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		var v flatValue
		switch {
		case b[i] == '"':
			if v.str, i, ok = scanValue(b, i); !ok {
				return false
			}
		case b[i] == '[':
			v.kind, v.list = flatList, []string{}
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				i++
				break
			}
			for {
				var str string
				if str, i, ok = scanValue(b, i); !ok {
					return false
				}
				v.list = append(v.list, str)
				i = skipSpace(b, i)
				if i >= len(b) {
					return false
				}
				if b[i] == ']' {
					i++
					break
				}
				if b[i] != ',' {
					return false
				}
				i = skipSpace(b, i+1)
			}
		case bytes.HasPrefix(b[i:], []byte("true")):
			v.kind, v.b = flatBool, true
			i += 4
		case bytes.HasPrefix(b[i:], []byte("false")):
			v.kind = flatBool
			i += 5
		default:
			return false
		}
		if !member(key, v) {
			return false
		}
		i = skipSpace(b, i)
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return skipSpace(b, i+1) == len(b)
		default:
			return false
		}
	}
}

// scanValue reads the string at b[i] and returns it decoded and the index
// after it.
func scanValue(b []byte, i int) (string, int, bool) {
	raw, j, esc, ok := scanString(b, i)
	if !ok {
		return "", 0, false
	}
	if !esc {
		return string(raw), j, true
	}
	str, ok := unescape(raw)
	return str, j, ok
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString reads the string starting at b[i] == '"' and returns its raw
// contents, the index after it and whether it holds escapes; it fails on
// control characters and invalid UTF-8, which the fast path leaves to
// encoding/json.
func scanString(b []byte, i int) (raw []byte, end int, escaped, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false, false
	}
	ascii := true
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			raw = b[i+1 : j]
			if !ascii && !utf8.Valid(raw) {
				return nil, 0, false, false
			}
			return raw, j + 1, escaped, true
		case c == '\\':
			escaped = true
			j++ // the escaped byte, checked by unescape
		case c < 0x20:
			return nil, 0, false, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, 0, false, false
}

// unescape decodes the escapes of a JSON string's raw contents as
// encoding/json does; it fails on malformed escapes and on surrogates
// (\ud800-\udfff), left to encoding/json.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		i++
		if i >= len(raw) {
			return "", false
		}
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			if i+4 >= len(raw) {
				return "", false
			}
			r, err := strconv.ParseUint(string(raw[i+1:i+5]), 16, 32)
			if err != nil || r >= 0xd800 && r < 0xe000 {
				return "", false
			}
			out = utf8.AppendRune(out, rune(r))
			i += 4
		default:
			return "", false
		}
	}
	return string(out), true
}

// bodyError reports a failure to read the request body: 413 beyond the
// limit.
func bodyError(err error) *apiError {
	var mb *http.MaxBytesError
	if errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		// The budget ran out with the body still arriving, or its share
		// of the bytes in flight not free.
		e := budgetError(context.DeadlineExceeded)
		e.Message = "the request ran past its time budget while its body was arriving, or waiting for room among the bodies in flight, and was cancelled"
		return e
	}
	if errors.As(err, &mb) {
		return &apiError{Status: http.StatusRequestEntityTooLarge, Field: "body",
			Message: "the request body is larger than the limit of " + strconv.FormatInt(mb.Limit, 10) + " bytes"}
	}
	return badRequest("body", "read the request body: %v", err)
}

// badText returns the offset of the first text in a JSON body that
// encoding/json would read as U+FFFD without a word, and what it is:
// invalid UTF-8, or a \u escape of a surrogate half that is not part of a
// pair (\ud800 alone). -1 when there is none. A request is refused there,
// since the name it holds would not be the one it sent.
func badText(body []byte) (int, string) {
	inString := false
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c >= utf8.RuneSelf:
			if r, n := utf8.DecodeRune(body[i:]); r == utf8.RuneError && n <= 1 {
				return i, fmt.Sprintf("invalid UTF-8 (byte %#x): the body must be UTF-8", c)
			} else {
				i += n - 1
			}
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\' && i+1 < len(body):
			if body[i+1] != 'u' {
				i++
				continue
			}
			hi, ok := hex4(body, i+2)
			if !ok || !utf16.IsSurrogate(rune(hi)) {
				i++
				continue
			}
			lo, ok := -1, false
			if i+7 < len(body) && body[i+6] == '\\' && body[i+7] == 'u' {
				lo, ok = hex4(body, i+8)
			}
			if hi >= 0xDC00 || !ok || lo < 0xDC00 || lo > 0xDFFF {
				return i, fmt.Sprintf("%s is half of a surrogate pair without its other half: it encodes no character", body[i:i+6])
			}
			i += 11 // the pair
		}
	}
	return -1, ""
}

// hex4 reads the four hexadecimal digits at body[i:].
func hex4(body []byte, i int) (int, bool) {
	if i+4 > len(body) {
		return 0, false
	}
	x, err := strconv.ParseUint(string(body[i:i+4]), 16, 16)
	return int(x), err == nil
}
