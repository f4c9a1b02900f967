package weka

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Attribute is a column of an ARFF table: nominal with the given values,
// free text (a string attribute, or a date, which is read as text) when
// Text is set, or numeric.
type Attribute struct {
	Name   string
	Values []string
	Text   bool
}

// ARFF is a table in Weka's Attribute-Relation File Format.
type ARFF struct {
	Relation   string
	Attributes []Attribute
	Rows       [][]string // one value per attribute; "?" is missing
}

// Write writes the table. Names and nominal values are quoted when they
// hold characters that ARFF reserves.
func (a *ARFF) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "@relation %s\n\n", arffQuote(a.Relation))
	for _, at := range a.Attributes {
		typ := "numeric"
		if at.Text {
			typ = "string"
		}
		if at.Values != nil {
			vs := make([]string, len(at.Values))
			for i, v := range at.Values {
				vs[i] = arffQuote(v)
			}
			typ = "{" + strings.Join(vs, ",") + "}"
		}
		fmt.Fprintf(bw, "@attribute %s %s\n", arffQuote(at.Name), typ)
	}
	bw.WriteString("\n@data\n")
	for i, row := range a.Rows {
		if len(row) != len(a.Attributes) {
			return fmt.Errorf("arff %s: row %d has %d values for %d attributes", a.Relation, i+1, len(row), len(a.Attributes))
		}
		for j, v := range row {
			if j > 0 {
				bw.WriteByte(',')
			}
			if v == "?" {
				bw.WriteString(v)
			} else {
				bw.WriteString(arffQuote(v))
			}
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func arffQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t,{}'\"%\\?") {
		return s
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
