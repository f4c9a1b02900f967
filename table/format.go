package table

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Format is the file format of a table.
type Format int

const (
	// Auto recognises the format from the file's name (.csv, .tsv, .tab,
	// .arff, .parquet, each maybe followed by .gz), else from its content:
	// Parquet's magic number, an ARFF header (@relation), or else
	// delimited text.
	Auto Format = iota
	// CSV is delimited text with a header line: fields separated by commas
	// (or Options.Delimiter, or the separator the header line shows: ;, tab
	// or |), quoted with '"' as RFC 4180 says.
	CSV
	// TSV is delimited text whose fields are separated by tabs; a quote
	// that does not open a field is text.
	TSV
	// ARFF is Weka's Attribute-Relation File Format, dense or sparse: the
	// attributes name the columns, and numeric attributes are numbers.
	ARFF
	// Parquet is Apache Parquet: one column per leaf of the schema, numbers
	// (integers, floats, decimals) numeric, the others categorical, nulls
	// (and NaN) missing. Nested columns are named by their path (a.b);
	// repeated ones cannot be read.
	Parquet
)

// formatNames are the formats' names, in Format order.
var formatNames = []string{"auto", "csv", "tsv", "arff", "parquet"}

// Formats returns the formats' names, auto first: the words of strata's
// --table-format.
func Formats() []string { return append([]string{}, formatNames...) }

func (f Format) String() string {
	if f >= 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// ParseFormat returns the format of the given name.
func ParseFormat(s string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(s, n) {
			return Format(i), nil
		}
	}
	return Auto, fmt.Errorf("table format %q: want %s", s, strings.Join(formatNames, ", "))
}

// parquetMagic starts and ends every Parquet file.
const parquetMagic = "PAR1"

// sniffBytes is how much of a file the content is recognised from.
const sniffBytes = 64 << 10

// open returns the reader of a table's bytes, decompressed when they are
// gzip-compressed (by their magic number, whatever the name says), its
// name without a .gz suffix, and its format: f unless Auto, else from the
// name or the content.
func open(r io.Reader, name string, f Format) (*bufio.Reader, Format, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, f, fmt.Errorf("%s: gzip: %w", name, err)
		}
		br = bufio.NewReaderSize(gz, sniffBytes)
	}
	if f != Auto {
		return br, f, nil
	}
	if f = formatOfName(name); f != Auto {
		return br, f, nil
	}
	head, _ := br.Peek(sniffBytes) // what there is, at the end of a short file
	return br, formatOfContent(head), nil
}

// formatOfName returns the format a file's extension names, or Auto.
func formatOfName(name string) Format {
	base := strings.ToLower(strings.TrimSuffix(strings.ToLower(filepath.Base(name)), ".gz"))
	switch filepath.Ext(base) {
	case ".csv":
		return CSV
	case ".tsv", ".tab":
		return TSV
	case ".arff":
		return ARFF
	case ".parquet", ".pq":
		return Parquet
	}
	return Auto
}

// formatOfContent recognises a table's format from its first bytes.
func formatOfContent(head []byte) Format {
	if bytes.HasPrefix(head, []byte(parquetMagic)) {
		return Parquet
	}
	for _, line := range bytes.Split(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '%' {
			continue
		}
		if len(t) >= len("@relation") && strings.EqualFold(string(t[:len("@relation")]), "@relation") {
			return ARFF
		}
		break
	}
	return CSV
}

// sniffDelimiter returns the field separator a delimited table's header
// line shows: the most frequent of ',', tab, ';' and '|' outside quotes,
// ',' on a tie or when there is none.
func sniffDelimiter(head []byte) rune {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	counts := map[byte]int{}
	quoted := false
	for _, c := range head {
		if c == '"' {
			quoted = !quoted
			continue
		}
		if !quoted && (c == '\n' || c == '\r') {
			break
		}
		if !quoted {
			counts[c]++
		}
	}
	best := byte(',')
	for _, c := range []byte{'\t', ';', '|'} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return rune(best)
}
