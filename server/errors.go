package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// apiError is every error the API answers, as JSON. Line and Column give
// the position in the input named by Field (1-based; 0 when the error is
// not about a position): in the request body for malformed JSON, in the
// theory, base or example text for a malformed file, in the query for a
// malformed query.
type apiError struct {
	Status   int                `json:"status"`
	Message  string             `json:"error"`
	Field    string             `json:"field,omitempty"`
	File     string             `json:"file,omitempty"`
	Line     int                `json:"line"`
	Column   int                `json:"column"`
	Conflict []jsonview.Default `json:"conflict,omitempty"`
}

func (e *apiError) Error() string { return e.Message }

func badRequest(field string, format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Field: field, Message: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusNotFound, Message: fmt.Sprintf(format, args...)}
}

// inputError reports err about the input named field, with the position of
// a syntax error when err carries one.
func inputError(field string, err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	e := &apiError{Status: http.StatusBadRequest, Field: field, Message: err.Error()}
	var he *learn.ContradictoryHardError
	if errors.As(err, &he) && len(he.Pos) > 0 { // at the first rule that clashes
		e.File, e.Line = he.Pos[0].File, he.Pos[0].Line
	}
	var se *logic.ParseError
	if errors.As(err, &se) {
		e.File, e.Line, e.Column = se.Pos.File, se.Pos.Line, se.Pos.Col
		if e.Line == 0 && e.Column > 0 { // a one-line input: a query, a formula
			e.Line = 1
		}
	}
	return e
}

// writeError answers err as JSON. Errors that are not *apiError are
// internal errors.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{Status: http.StatusInternalServerError, Message: err.Error()}
	}
	writeJSON(w, ae.Status, ae)
}

// writeJSON answers v as JSON. Formulas are written as they read
// ("a -> b", not "a -\u003e b"): the answers are data, never HTML.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		b.Reset()
		enc.Encode(&apiError{Status: status, Message: "encode the answer: " + err.Error()})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// decode reads the request body, at most Config.MaxBody bytes, into v. It
// refuses unknown fields, so that a misspelt option is an error rather than
// silently ignored, and reports malformed JSON at its line and column.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) *apiError {
	buf := getBody(r, s.cfg.MaxBody)
	defer putBuf(buf)
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)); err != nil {
		return bodyError(err)
	}
	return s.decodeBytes(buf.Bytes(), v)
}

// decodeBytes is decode on a body already read.
func (s *Server) decodeBytes(body []byte, v any) *apiError {
	if off, what := badText(body); off >= 0 {
		e := badRequest("body", "malformed JSON: %s", what)
		e.Line, e.Column = lineColumn(body, int64(off)+1) // at the byte
		return e
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := badRequest("body", "malformed JSON: %v", err)
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			e.Line, e.Column = lineColumn(body, se.Offset)
		case errors.As(err, &te):
			e.Line, e.Column = lineColumn(body, te.Offset)
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
			e.Line, e.Column = lineColumn(body, int64(len(body)))
			if len(body) == 0 {
				e.Message = "malformed JSON: the request body is empty"
			}
		}
		return e
	}
	if dec.More() {
		e := badRequest("body", "malformed JSON: more than one value in the request body")
		off := dec.InputOffset()
		off += int64(len(body[off:]) - len(bytes.TrimLeft(body[off:], " \t\r\n")))
		e.Line, e.Column = lineColumn(body, off+1) // at the extra value's first byte
		return e
	}
	return nil
}

// lineColumn converts a byte offset into a 1-based line and column (in
// bytes) of data; "\n", "\r\n" and a lone "\r" end lines (logic.LineCol).
// The column is that of the byte before off, where the decoder stopped,
// and 1 at the start of a line.
func lineColumn(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	line, col = logic.LineCol(data, int(off))
	if col > 1 {
		col--
	}
	return line, col
}
