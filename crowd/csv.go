package crowd

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/strata-logic/strata/logic"
)

// ReadCSV reads a CSV table whose first record is a header, the shape of
// every answer table: it calls header with the header's line and fields,
// then row with the line and fields of every later record that has as many
// fields as the header. A record that does not parse (a broken quote) or
// has another number of fields is skipped with a warning appended to warns,
// where row may append its own. An empty input is an error, and so is the
// first error of header or row, which ends the reading. records counts the
// records after the header, skipped ones included. A lone "\r" ends a
// record as "\n" and "\r\n" do (logic.Newlines).
func ReadCSV(r io.Reader, name string, warns *logic.ErrorList, header, row func(line int, fields []string) error) (records int, err error) {
	cr := csv.NewReader(logic.Newlines(logic.SkipBOM(r)))
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return 0, headerError(name, err)
	}
	line, _ := cr.FieldPos(0)
	if err := header(line, head); err != nil {
		return 0, err
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return records, nil
		}
		records++
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			*warns = append(*warns, logic.Errorf(logic.Position{File: name, Line: pe.Line, Col: pe.Column}, "skipped row: %w", pe.Err))
			continue
		}
		if err != nil {
			return records, fmt.Errorf("read %s: %w", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(head) {
			*warns = append(*warns, logic.Errorf(logic.Position{File: name, Line: line}, "skipped row: %d fields, the header has %d", len(rec), len(head)))
			continue
		}
		if err := row(line, rec); err != nil {
			return records, err
		}
	}
}

// headerError reports an error reading a CSV header: at its position when
// it is a syntax error.
func headerError(name string, err error) error {
	var pe *csv.ParseError
	switch {
	case err == io.EOF:
		return logic.Errorf(logic.Position{File: name}, "empty file, expected a header row")
	case errors.As(err, &pe):
		return logic.Errorf(logic.Position{File: name, Line: pe.Line, Col: pe.Column}, "header: %w", pe.Err)
	}
	return fmt.Errorf("read %s: %w", name, err)
}
