package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/strata-logic/strata/table"
	"github.com/strata-logic/strata/weka"
)

// applicantRow is a row of examples/applicants.csv as examples/applicants.parquet holds it.
type applicantRow struct {
	Name      string   `parquet:"name"`
	Income    *float64 `parquet:"income,optional"`
	Debts     *string  `parquet:"debts,optional"`
	Guarantor *string  `parquet:"guarantor,optional"`
	Region    *string  `parquet:"region,optional"`
}

// tableContents is what a table holds: each column's name, type and
// values as text.
func tableContents(t *table.Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d rows\n", t.Rows)
	for _, c := range t.Columns {
		fmt.Fprintf(&b, "%s numeric=%v:", c.Name, c.Numeric)
		for i := range t.Rows {
			fmt.Fprintf(&b, " %q", c.Value(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func readExampleTable(t *testing.T, name string) *table.Table {
	t.Helper()
	f, err := os.Open(filepath.Join("examples", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tab, err := table.Read(f, name, table.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// TestExampleTables checks that examples/loans.arff and
// examples/applicants.parquet hold the tables of loans.csv and
// applicants.csv, column for column and value for value; -update writes
// them from the CSV files.
func TestExampleTables(t *testing.T) {
	if *update {
		writeExampleTables(t)
	}
	for _, pair := range [][2]string{{"loans.csv", "loans.arff"}, {"applicants.csv", "applicants.parquet"}} {
		want, got := tableContents(readExampleTable(t, pair[0])), tableContents(readExampleTable(t, pair[1]))
		if got != want {
			t.Errorf("examples/%s holds\n%s\nexamples/%s\n%s(go test ./cmd/strata -run ExampleTables -update rewrites it)", pair[1], got, pair[0], want)
		}
	}
}

func writeExampleTables(t *testing.T) {
	loans := readExampleTable(t, "loans.csv")
	a := &weka.ARFF{Relation: "loans"}
	for _, c := range loans.Columns {
		at := weka.Attribute{Name: c.Name}
		if !c.Numeric {
			at.Values = c.Values
		}
		a.Attributes = append(a.Attributes, at)
	}
	for i := range loans.Rows {
		var row []string
		for _, c := range loans.Columns {
			v := c.Value(i)
			if v == "" {
				v = "?"
			}
			row = append(row, v)
		}
		a.Rows = append(a.Rows, row)
	}
	var buf bytes.Buffer
	if err := a.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("examples", "loans.arff"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	apps := readExampleTable(t, "applicants.csv")
	text := func(c *table.Column, i int) *string {
		if c.Missing(i) {
			return nil
		}
		v := c.Value(i)
		return &v
	}
	var rows []applicantRow
	for i := range apps.Rows {
		r := applicantRow{Name: apps.Column("name").Value(i), Debts: text(apps.Column("debts"), i),
			Guarantor: text(apps.Column("guarantor"), i), Region: text(apps.Column("region"), i)}
		if c := apps.Column("income"); !c.Missing(i) {
			x := c.Num[i]
			r.Income = &x
		}
		rows = append(rows, r)
	}
	buf.Reset()
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("examples", "applicants.parquet"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
