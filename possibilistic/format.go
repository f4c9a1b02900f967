package possibilistic

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// FormatWeight writes a weight so that parsing it gives the same float64.
func FormatWeight(w float64) string { return strconv.FormatFloat(w, 'g', -1, 64) }

// WriteText writes t in the text format: one "WEIGHT: FORMULA" line per
// formula, highest level first, levels separated by a blank line. Clauses
// are written as disjunctions ("0.5: !bird | flies"). ReadText reads it back
// into an identical theory; a formula whose line would be longer than
// ReadText reads (logic.MaxLineLen) is an error, before its line is written.
func (t *Theory) WriteText(w io.Writer) error {
	return t.writeText(logic.LineLimit(w, "theory"))
}

func (t *Theory) writeText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	v := t.vocab()
	for i, l := range t.Levels {
		if i > 0 {
			bw.WriteByte('\n')
		}
		ws := FormatWeight(l.Weight)
		for _, f := range l.Formulas {
			fmt.Fprintf(bw, "%s: %s\n", ws, f.String(v))
		}
	}
	return bw.Flush()
}

// String returns the text format of t, however long its lines.
func (t *Theory) String() string {
	var b strings.Builder
	t.writeText(&b)
	return b.String()
}

// ReadText reads a theory in the text format: lines "WEIGHT: FORMULA" with
// a weight in ]0,1] and a formula in the full syntax (a comma-separated list
// is a clause), '#' comments and blank lines. Lines may come in any order;
// the levels are the distinct weights. name is used in error messages, which
// give file, line and column. Atoms are interned in v (a new vocabulary when
// v is nil). Reading polls ctx every few thousand lines and fails with its
// error once ctx is done.
func ReadText(ctx context.Context, r io.Reader, name string, v *logic.Vocabulary) (*Theory, error) {
	t := New(v)
	n := 0
	var wr weightReader
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		if n++; n%pollEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		f, w, err := parseLine(t.Vocab, &wr, name, line, text)
		if err != nil {
			return err
		}
		t.Add(f, w)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

func parseLine(v *logic.Vocabulary, wr *weightReader, name string, line int, text string) (*logic.Formula, float64, error) {
	lead := len(text) - len(strings.TrimLeft(text, " \t"))
	colon := strings.IndexByte(text, ':')
	if colon < 0 {
		return nil, 0, logic.Errorf(logic.Position{File: name, Line: line, Col: lead + 1},
			"expected 'WEIGHT: FORMULA' (a weight in ]0,1], a colon, then a formula)")
	}
	ws := strings.TrimSpace(text[:colon])
	w, msg := wr.read(ws, "line "+strconv.Itoa(line))
	if msg != "" {
		return nil, 0, logic.Errorf(logic.Position{File: name, Line: line, Col: lead + 1}, "%s", msg)
	}
	f, err := logic.ParseFormulaAt(v, logic.Position{File: name, Line: line, Col: colon + 2}, text[colon+1:])
	if err != nil {
		return nil, 0, err
	}
	return f, w, nil
}

type jsonLevel struct {
	Weight   float64  `json:"weight"`
	Formulas []string `json:"formulas"`
}

type jsonTheory struct {
	Levels []jsonLevel `json:"levels"`
}

// MarshalJSON writes {"levels": [{"weight": 1, "formulas": ["!penguin | !flies"]}, ...]},
// highest level first, formulas in the text syntax.
func (t *Theory) MarshalJSON() ([]byte, error) {
	v := t.vocab()
	jt := jsonTheory{Levels: make([]jsonLevel, 0, len(t.Levels))}
	for _, l := range t.Levels {
		jl := jsonLevel{Weight: l.Weight, Formulas: make([]string, len(l.Formulas))}
		for j, f := range l.Formulas {
			jl.Formulas[j] = f.String(v)
		}
		jt.Levels = append(jt.Levels, jl)
	}
	return marshalPlain(jt)
}

// marshalPlain is json.Marshal without HTML escaping: formulas keep their
// arrows ("a -> b", not "a -\u003e b"), as every JSON strata writes does.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// UnmarshalJSON reads what MarshalJSON writes (levels in any order; formulas
// of equal weight are merged), interning atoms in t.Vocab.
func (t *Theory) UnmarshalJSON(data []byte) error {
	// The weights as written, so that weightReader sees their digits.
	var jt struct {
		Levels []struct {
			Weight   json.Number `json:"weight"`
			Formulas []string    `json:"formulas"`
		} `json:"levels"`
	}
	if err := json.Unmarshal(data, &jt); err != nil {
		return err
	}
	v := t.vocab()
	t.Levels = nil
	var wr weightReader
	for i, jl := range jt.Levels {
		w, msg := wr.read(jl.Weight.String(), "level "+strconv.Itoa(i))
		if msg != "" {
			return fmt.Errorf("level %d: %s", i, msg)
		}
		for j, s := range jl.Formulas {
			f, err := logic.ParseFormula(v, s)
			if err != nil {
				return fmt.Errorf("level %d, formula %d: %w", i, j, err)
			}
			t.Add(f, w)
		}
	}
	return nil
}
