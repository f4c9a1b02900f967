package server

// Fast paths for the JSON of the hottest endpoint, POST /api/query: the
// request is a flat object of strings and booleans and the answer a fixed
// shape, so both are read and written without reflection and with few
// allocations. Anything the fast paths do not handle exactly as
// encoding/json would (escapes in the request, a misspelt or repeated
// field, a null, an error in the answer, …) goes the standard way, so the
// contract, errors and their positions included, is encoding/json's; the
// tests compare the two on random input.

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf8"
)

// bufPool holds the buffers that request bodies are read into and answers
// written from.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// outPool holds the arrays answers are encoded into.
var outPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

func putOut(p *[]byte) {
	if cap(*p) <= 64<<10 {
		outPool.Put(p)
	}
}

func getBuf() *bytes.Buffer { b := bufPool.Get().(*bytes.Buffer); b.Reset(); return b }

func putBuf(b *bytes.Buffer) {
	if b.Cap() <= 64<<10 { // a huge body's buffer is left to the collector
		bufPool.Put(b)
	}
}

// decodeBatch reads the body of POST /api/batch into req, by the fast path
// when it can and by decode otherwise.
func (s *Server) decodeBatch(w http.ResponseWriter, r *http.Request, req *batchRequest) *apiError {
	buf := getBuf()
	defer putBuf(buf)
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)); err != nil {
		return bodyError(err)
	}
	if scanBatch(buf.Bytes(), req) {
		return nil
	}
	*req = batchRequest{}
	return s.decodeBytes(buf.Bytes(), req)
}

// scanBatch is scanQuery for a batch request.
func scanBatch(body []byte, req *batchRequest) bool {
	var seen uint8
	return scanFlat(body, func(key []byte, v flatValue) bool {
		var bit uint8
		var dst *string
		switch string(key) {
		case "theory_id":
			bit, dst = 1, &req.TheoryID
		case "theory":
			bit, dst = 2, &req.Theory
		case "base":
			bit, dst = 4, &req.Base
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
	buf := getBuf()
	defer putBuf(buf)
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)); err != nil {
		return bodyError(err)
	}
	if scanQuery(buf.Bytes(), req) {
		return nil
	}
	*req = queryRequest{}
	return s.decodeBytes(buf.Bytes(), req)
}

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
		var bit uint8
		var dst *string
		switch string(key) {
		case "theory_id":
			bit, dst = 1, &req.TheoryID
		case "theory":
			bit, dst = 2, &req.Theory
		case "base":
			bit, dst = 4, &req.Base
		case "query":
			bit, dst = 8, &req.Query
		case "semantics":
			bit, dst = 16, &req.Semantics
		case "explain":
			if !isBool || seen&32 != 0 {
				return false
			}
			seen |= 32
			req.Explain = &b
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

// writeAnswer answers one decided query: encoded by appendAnswer, or by
// writeJSON when the answer holds what appendAnswer leaves to it.
func writeAnswer(w http.ResponseWriter, a *answerView) {
	p := outPool.Get().(*[]byte)
	defer putOut(p)
	b, ok := appendAnswer((*p)[:0], a)
	if !ok {
		writeJSON(w, http.StatusOK, a)
		return
	}
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Cache-Control"] = noStore
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	*p = b
}

// writeBatch answers a batch, each answer encoded by appendAnswer or, when
// it leaves one to it, by encoding/json.
func writeBatch(w http.ResponseWriter, v *batchView) {
	p := outPool.Get().(*[]byte)
	defer putOut(p)
	b := append((*p)[:0], `{"semantics":`...)
	b = appendString(b, v.Semantics)
	b = append(b, `,"answers":`...)
	if v.Answers == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, a := range v.Answers {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if a != nil {
				b, ok = appendAnswer(b, a)
			}
			if ok {
				b = b[:len(b)-1] // the newline
				continue
			}
			var one bytes.Buffer
			enc := json.NewEncoder(&one)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(a); err != nil {
				writeJSON(w, http.StatusOK, v) // which reports the error
				return
			}
			b = append(b, bytes.TrimSuffix(one.Bytes(), []byte{'\n'})...)
		}
		b = append(b, ']')
	}
	b = append(b, `,"yes":`...)
	b = strconv.AppendInt(b, int64(v.Yes), 10)
	b = append(b, `,"no":`...)
	b = strconv.AppendInt(b, int64(v.No), 10)
	b = append(b, `,"errors":`...)
	b = strconv.AppendInt(b, int64(v.Errors), 10)
	b = append(b, `,"unanswered":`...)
	b = strconv.AppendInt(b, int64(v.Unanswered), 10)
	b = append(b, "}\n"...)
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Cache-Control"] = noStore
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	*p = b
}

// The header values of every answer, shared: net/http only reads them, and
// appending to one (len = cap) copies it.
var (
	jsonType = []string{"application/json; charset=utf-8"}
	noStore  = []string{"no-store"}
)

// appendAnswer appends a as encoding/json's Encoder (without HTML
// escaping) writes it, newline included, and reports false, leaving the
// encoding to it, for answers with an error or a default base's clash, and
// for weights that are not finite.
func appendAnswer(b []byte, a *answerView) ([]byte, bool) {
	if a.Error != nil || a.Explanation != nil && a.Explanation.Clash != nil {
		return b, false
	}
	if !finite(a.DecidingWeight) || !finite(a.Inconsistency) {
		return b, false
	}
	b = append(b, `{"query":`...)
	b = appendString(b, a.Query)
	b = append(b, `,"answer":`...)
	b = appendString(b, a.Answer)
	b = append(b, `,"entailed":`...)
	b = strconv.AppendBool(b, a.Entailed)
	b = append(b, `,"semantics":`...)
	b = appendString(b, a.Semantics)
	b = append(b, `,"deciding_level":`...)
	if a.DecidingLevel == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(*a.DecidingLevel), 10)
	}
	b = append(b, `,"deciding_weight":`...)
	b = appendFloat(b, a.DecidingWeight)
	b = append(b, `,"inconsistency":`...)
	b = appendFloat(b, a.Inconsistency)
	if x := a.Explanation; x != nil {
		b = append(b, `,"explanation":{"text":`...)
		b = appendString(b, x.Text)
		b = append(b, `,"entailing":`...)
		b = appendRefs(b, x.Entailing)
		b = append(b, `,"drowned":`...)
		b = appendInts(b, x.Drowned)
		b = append(b, `,"set_aside":`...)
		b = appendRefs(b, x.SetAside)
		if len(x.PartlySetAside) > 0 {
			b = append(b, `,"partly_set_aside":`...)
			b = appendInts(b, x.PartlySetAside)
		}
		if x.DecidingZLevel != 0 {
			b = append(b, `,"deciding_z_level":`...)
			b = strconv.AppendInt(b, int64(x.DecidingZLevel), 10)
		}
		if len(x.DrownedZLevels) > 0 {
			b = append(b, `,"drowned_z_levels":`...)
			b = appendInts(b, x.DrownedZLevels)
		}
		if len(x.Violations) > 0 {
			b = append(b, `,"violations":`...)
			b = appendInts(b, x.Violations)
		}
		if len(x.Counter) > 0 {
			b = append(b, `,"counter_world":[`...)
			for i, s := range x.Counter {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendString(b, s)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, "}\n"...), true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

func appendRefs(b []byte, fs []formulaRef) []byte {
	if fs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"level":`...)
		b = strconv.AppendInt(b, int64(f.Level), 10)
		b = append(b, `,"index":`...)
		b = strconv.AppendInt(b, int64(f.Index), 10)
		b = append(b, `,"formula":`...)
		b = appendString(b, f.Formula)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendInts(b []byte, xs []int) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendFloat writes a finite f as encoding/json does: the shortest
// representation, in exponent form below 1e-6 and from 1e21, with a
// one-digit negative exponent written e-7 rather than e-07.
func appendFloat(b []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString writes s as a JSON string, escaping as encoding/json does
// without HTML escaping: quotes, backslashes and control characters
// (\b, \f, \n, \r, \t by name, the others as \u00XX), invalid UTF-8 as
// \ufffd, and U+2028 and U+2029, which JavaScript does not allow raw.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// bodyError reports a failure to read the request body: 413 beyond the
// limit.
func bodyError(err error) *apiError {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &apiError{Status: http.StatusRequestEntityTooLarge, Field: "body",
			Message: "the request body is larger than the limit of " + strconv.FormatInt(mb.Limit, 10) + " bytes"}
	}
	return badRequest("body", "read the request body: %v", err)
}
