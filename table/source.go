package table

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/weka"
)

// kind is the type a file format declares for a column: ARFF's numeric
// attributes, Parquet's number columns. A delimited text declares none.
type kind int

const (
	undeclared kind = iota
	declaredNumeric
	declaredCategorical
)

// A source gives the header and the records of a table in one format, and
// places its errors: Read builds the columns from any of them.
type source interface {
	// header returns the column names and the kind each is declared.
	header() ([]string, []kind, error)
	// next returns the fields of the next record, or io.EOF after the last.
	next() ([]string, error)
	// line returns the line of the last record (of a Parquet file, its
	// row number from 1).
	line() int
	// pos returns the position of field i of the last record, or of the
	// header before the first record.
	pos(i int) logic.Position
	// errorAt returns err placed at field i of the last record, or of the
	// header before the first record.
	errorAt(i int, err error) error
	// end returns the position after the last record.
	end() logic.Position
}

// csvSource reads delimited text with encoding/csv.
type csvSource struct {
	name string
	cr   *csv.Reader
	n    int // the fields of the last record
}

func newCSVSource(r io.Reader, name string, delim rune, lazy bool) *csvSource {
	cr := csv.NewReader(logic.Newlines(logic.SkipBOM(r)))
	cr.Comma, cr.LazyQuotes = delim, lazy
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return &csvSource{name: name, cr: cr}
}

func (s *csvSource) header() ([]string, []kind, error) {
	h, err := s.cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, logic.Errorf(logic.Position{File: s.name, Line: 1, Col: 1}, "empty table: expected a header line naming the columns")
	}
	if err != nil {
		return nil, nil, s.readError(err)
	}
	s.n = len(h)
	return append([]string{}, h...), make([]kind, len(h)), nil
}

func (s *csvSource) next() ([]string, error) {
	rec, err := s.cr.Read()
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, s.readError(err)
	}
	s.n = len(rec)
	return rec, err
}

func (s *csvSource) line() int {
	l, _ := s.cr.FieldPos(0)
	return l
}

func (s *csvSource) pos(i int) logic.Position {
	l, c := s.cr.FieldPos(min(max(i, 0), s.n-1))
	return logic.Position{File: s.name, Line: l, Col: c}
}

func (s *csvSource) errorAt(i int, err error) error {
	return &logic.ParseError{Pos: s.pos(i), Err: err}
}

func (s *csvSource) end() logic.Position {
	return logic.Position{File: s.name, Line: s.line() + 1, Col: 1}
}

func (s *csvSource) readError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return logic.Errorf(logic.Position{File: s.name, Line: pe.Line, Col: pe.Column}, "%v", pe.Err)
	}
	return fmt.Errorf("%s: %w", s.name, err)
}

// arffSource reads ARFF with weka.ARFFReader.
type arffSource struct {
	name string
	r    io.Reader
	a    *weka.ARFFReader
}

func (s *arffSource) header() ([]string, []kind, error) {
	a, err := weka.NewARFFReader(s.r, s.name)
	if err != nil {
		return nil, nil, err
	}
	s.a = a
	attrs := a.Attributes()
	names, kinds := make([]string, len(attrs)), make([]kind, len(attrs))
	for i, at := range attrs {
		names[i], kinds[i] = at.Name, declaredCategorical
		if at.Values == nil && !at.Text {
			kinds[i] = declaredNumeric
		}
	}
	return names, kinds, nil
}

func (s *arffSource) next() ([]string, error) { return s.a.Read() }

func (s *arffSource) line() int { return s.a.Line() }

func (s *arffSource) pos(i int) logic.Position {
	if s.a.Line() == 0 && i >= 0 && i < len(s.a.Attributes()) {
		return s.a.AttributePos(i)
	}
	return s.a.FieldPos(i)
}

func (s *arffSource) errorAt(i int, err error) error {
	return &logic.ParseError{Pos: s.pos(i), Err: err}
}

func (s *arffSource) end() logic.Position {
	return logic.Position{File: s.name, Line: s.a.Line() + 1, Col: 1}
}
