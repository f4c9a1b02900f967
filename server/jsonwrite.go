package server

// Fast paths for writing the answers of the hottest endpoints, POST
// /api/query and POST /api/batch: a fixed shape, appended without
// reflection into pooled arrays, byte for byte as encoding/json's Encoder
// (without HTML escaping) writes it; an answer with an error or what only
// some answers of a default base have (a clash, impacts, a Z-level of
// α |~ ¬β) goes the standard way. The tests compare the two on the
// answers of real queries and on random ones.

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/strata-logic/strata/internal/jsonview"
)

// outPool holds the arrays answers are encoded into.
var outPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

func putOut(p *[]byte) {
	if cap(*p) <= 64<<10 {
		outPool.Put(p)
	}
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
// encoding to it, for answers with an error or a default base's clash,
// impacts or Z-level of α |~ ¬β, and for weights that are not finite.
func appendAnswer(b []byte, a *answerView) ([]byte, bool) {
	if x := a.Explanation; a.Error != nil || x != nil && (x.Clash != nil || x.Impacts != nil || x.NegZLevel != 0) {
		return b, false
	}
	if d := a.Degrees; d != nil && (!finite(d.DecidingWeight) || !finite(d.Inconsistency)) {
		return b, false
	}
	b = append(b, `{"query":`...)
	b = appendString(b, a.Query)
	b = append(b, `,"answer":`...)
	b = appendString(b, a.Word)
	b = append(b, `,"entailed":`...)
	b = strconv.AppendBool(b, a.Entailed)
	b = append(b, `,"semantics":`...)
	b = appendString(b, a.Semantics)
	if d := a.Degrees; d != nil {
		b = append(b, `,"deciding_level":`...)
		if d.DecidingLevel == nil {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(*d.DecidingLevel), 10)
		}
		b = append(b, `,"deciding_weight":`...)
		b = appendFloat(b, d.DecidingWeight)
		b = append(b, `,"inconsistency":`...)
		b = appendFloat(b, d.Inconsistency)
	}
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

func appendRefs(b []byte, fs []jsonview.FormulaRef) []byte {
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
