package server

import (
	"bytes"

	"github.com/strata-logic/strata/table"
)

// tableFormat says how a request's table is read, as strata's
// --table-format, --delimiter and --duplicate-columns say it: table_format
// csv, tsv, arff or parquet (absent or auto: by the file's name or
// content; a Parquet file comes by table_path), delimiter one character,
// duplicate_columns rename, first or error.
type tableFormat struct {
	TableFormat string `json:"table_format"`
	Delimiter   string `json:"delimiter"`
	Duplicates  string `json:"duplicate_columns"`
}

// options returns how to read the table, or the field that says it
// wrong.
func (f tableFormat) options() (table.Options, error) {
	var o table.Options
	var err error
	if f.TableFormat != "" {
		if o.Format, err = table.ParseFormat(f.TableFormat); err != nil {
			return o, badRequest("table_format", "%v", err)
		}
	}
	if f.Duplicates != "" {
		if o.Duplicates, err = table.ParseDuplicates(f.Duplicates); err != nil {
			return o, badRequest("duplicate_columns", "%v", err)
		}
	}
	if f.Delimiter != "" {
		r := []rune(f.Delimiter)
		if len(r) != 1 || r[0] == '"' || r[0] == '\r' || r[0] == '\n' {
			return o, badRequest("delimiter", "delimiter %q: give one character other than a quote or a line break", f.Delimiter)
		}
		o.Delimiter = r[0]
	}
	return o, nil
}

// readTable reads a request's table, given as text (a JSON string holds
// delimited text or ARFF) or as a file of the server's directory, with o.
func (s *Server) readTable(text, path string, o table.Options) (*table.Table, error) {
	data, name, err := s.read("table", source{Text: text, Path: path})
	if err != nil {
		return nil, err
	}
	t, err := table.Read(bytes.NewReader(data), name, o)
	if err != nil {
		return nil, inputError("table", err)
	}
	return t, nil
}
