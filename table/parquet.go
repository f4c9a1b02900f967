package table

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/strata-logic/strata/logic"
)

// parquetSource reads a Parquet file, row group by row group. Parquet
// needs to seek, so the file is read into memory first, as the table it
// becomes is. Its errors name the file, the row (from 1) and the column.
type parquetSource struct {
	name    string
	r       io.Reader
	file    *parquet.File
	names   []string
	columns []parquetColumn // by leaf column index
	group   int             // the next row group
	rows    parquet.Rows    // of the current row group, nil between groups
	buf     []parquet.Row
	pending []parquet.Row // read from rows, not yet returned
	row     int           // rows returned so far
	fields  []string
}

// parquetColumn says how to write one leaf column's values as text.
type parquetColumn struct {
	kind     parquet.Kind
	decimal  int32 // the scale of a decimal column, or -1
	unsigned bool
	numeric  bool
}

// maxDecimalScale is the largest scale of a decimal column read: Parquet's
// decimals hold at most 38 digits in 16 bytes, and a corrupt file's scale
// must not make 10^scale a number of any size.
const maxDecimalScale = 76

// recovered turns a panic of the Parquet library, on a file it cannot
// read, into the error of the function it defers in, so that a corrupt
// file is an error, not a crash.
func (s *parquetSource) recovered(err *error) {
	if p := recover(); p != nil {
		*err = logic.Errorf(logic.Position{File: s.name}, "not a readable Parquet file: %v", p)
	}
}

func (s *parquetSource) header() (names []string, kinds []kind, err error) {
	defer s.recovered(&err)
	data, err := io.ReadAll(s.r)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if !bytes.HasPrefix(data, []byte(parquetMagic)) {
		return nil, nil, logic.Errorf(logic.Position{File: s.name}, "not a Parquet file: it does not begin with %q", parquetMagic)
	}
	// The footer's length, which the library would allocate before it
	// looked: more than the file holds is a corrupt file, not a reason to
	// take gigabytes.
	if n := len(data); n < 12 || !bytes.HasSuffix(data, []byte(parquetMagic)) || int64(binary.LittleEndian.Uint32(data[n-8:n-4])) > int64(n-12) {
		return nil, nil, logic.Errorf(logic.Position{File: s.name}, "not a readable Parquet file: no footer of metadata within its %d bytes", n)
	}
	if s.file, err = parquet.OpenFile(bytes.NewReader(data), int64(len(data))); err != nil {
		return nil, nil, logic.Errorf(logic.Position{File: s.name}, "not a readable Parquet file: %v", err)
	}
	schema := s.file.Schema()
	paths := schema.Columns()
	s.columns = make([]parquetColumn, len(paths))
	for i, path := range paths {
		leaf, ok := schema.Lookup(path...)
		if !ok {
			return nil, nil, logic.Errorf(logic.Position{File: s.name}, "column %q is in the schema but cannot be found", strings.Join(path, "."))
		}
		name := strings.Join(path, ".")
		if leaf.MaxRepetitionLevel > 0 {
			return nil, nil, logic.Errorf(logic.Position{File: s.name}, "column %d (%s) is repeated (a list or map), which a table cannot hold", i+1, name)
		}
		c := parquetColumn{kind: leaf.Node.Type().Kind(), decimal: -1}
		if lt := leaf.Node.Type().LogicalType(); lt != nil {
			switch v := lt.Value.(type) {
			case *format.DecimalType:
				if v.Scale < 0 || v.Scale > maxDecimalScale {
					return nil, nil, logic.Errorf(logic.Position{File: s.name}, "column %d (%s) is a decimal of scale %d, outside 0 to %d", i+1, name, v.Scale, maxDecimalScale)
				}
				c.decimal = v.Scale
			case *format.IntType:
				c.unsigned = !v.IsSigned
			}
		}
		switch c.kind {
		case parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
			c.numeric = true
		case parquet.ByteArray, parquet.FixedLenByteArray:
			c.numeric = c.decimal >= 0
		}
		if leaf.ColumnIndex != i {
			return nil, nil, logic.Errorf(logic.Position{File: s.name}, "column %d (%s) is leaf %d of the schema", i+1, name, leaf.ColumnIndex+1)
		}
		s.columns[i] = c
		k := declaredCategorical
		if c.numeric {
			k = declaredNumeric
		}
		names, kinds = append(names, name), append(kinds, k)
	}
	if len(names) == 0 {
		return nil, nil, logic.Errorf(logic.Position{File: s.name}, "empty table: the Parquet schema has no columns")
	}
	s.names, s.fields, s.buf = names, make([]string, len(names)), make([]parquet.Row, 256)
	return names, kinds, nil
}

func (s *parquetSource) next() (fields []string, err error) {
	defer s.recovered(&err)
	for len(s.pending) == 0 {
		if s.rows == nil {
			groups := s.file.RowGroups()
			if s.group >= len(groups) {
				return nil, io.EOF
			}
			s.rows = groups[s.group].Rows()
			s.group++
		}
		n, err := s.rows.ReadRows(s.buf)
		s.pending = s.buf[:n]
		if errors.Is(err, io.EOF) {
			s.rows.Close()
			s.rows = nil
		} else if err != nil {
			return nil, logic.Errorf(logic.Position{File: s.name}, "row %d: %v", s.row+n+1, err)
		}
	}
	row := s.pending[0]
	s.pending = s.pending[1:]
	s.row++
	for i := range s.fields {
		s.fields[i] = ""
	}
	for _, v := range row {
		i := v.Column()
		if i < 0 || i >= len(s.columns) {
			return nil, logic.Errorf(logic.Position{File: s.name}, "row %d: a value of column %d, beyond the schema's %d", s.row, i+1, len(s.columns))
		}
		if s.fields[i], err = s.columns[i].text(v); err != nil {
			return nil, s.errorAt(i, err)
		}
	}
	return s.fields, nil
}

func (s *parquetSource) line() int { return s.row }

// pos returns the file alone: a Parquet file has no lines, and its
// errors say the row and column in their text (errorAt).
func (s *parquetSource) pos(int) logic.Position { return logic.Position{File: s.name} }

func (s *parquetSource) end() logic.Position { return logic.Position{File: s.name} }

func (s *parquetSource) errorAt(i int, err error) error {
	col := ""
	if i >= 0 && i < len(s.names) {
		col = fmt.Sprintf(", column %d (%s)", i+1, s.names[i])
	}
	if s.row == 0 {
		return logic.Errorf(logic.Position{File: s.name}, "the schema%s: %w", col, err)
	}
	return logic.Errorf(logic.Position{File: s.name}, "row %d%s: %w", s.row, col, err)
}

// text writes a value as a table field: "" for a null (and a float's NaN),
// numbers as Go writes them, decimals scaled, text as it is.
func (c parquetColumn) text(v parquet.Value) (string, error) {
	if v.IsNull() {
		return "", nil
	}
	if c.decimal >= 0 {
		return c.decimalText(v)
	}
	switch c.kind {
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean()), nil
	case parquet.Int32:
		if c.unsigned {
			return strconv.FormatUint(uint64(v.Uint32()), 10), nil
		}
		return strconv.FormatInt(int64(v.Int32()), 10), nil
	case parquet.Int64:
		if c.unsigned {
			return strconv.FormatUint(v.Uint64(), 10), nil
		}
		return strconv.FormatInt(v.Int64(), 10), nil
	case parquet.Float:
		return floatText(float64(v.Float()), 32), nil
	case parquet.Double:
		return floatText(v.Double(), 64), nil
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return string(v.ByteArray()), nil
	}
	return v.String(), nil // INT96 timestamps: as text
}

func floatText(x float64, bits int) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, bits)
}

// decimalText writes a decimal's unscaled integer divided by 10^scale.
func (c parquetColumn) decimalText(v parquet.Value) (string, error) {
	var unscaled big.Int
	switch c.kind {
	case parquet.Int32:
		unscaled.SetInt64(int64(v.Int32()))
	case parquet.Int64:
		unscaled.SetInt64(v.Int64())
	case parquet.ByteArray, parquet.FixedLenByteArray:
		b := v.ByteArray()
		unscaled.SetBytes(b)
		if len(b) > 0 && b[0]&0x80 != 0 { // two's complement
			unscaled.Sub(&unscaled, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
		}
	default:
		return "", fmt.Errorf("a decimal stored as %s", c.kind)
	}
	x, _ := new(big.Rat).SetFrac(&unscaled, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(c.decimal)), nil)).Float64()
	return strconv.FormatFloat(x, 'g', -1, 64), nil
}
