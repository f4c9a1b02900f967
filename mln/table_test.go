package mln

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/strata-logic/strata/internal/shared"
)

func TestTableRoundTrip(t *testing.T) {
	src := "0,1,1\n\n1, 0 ,0\r\n1,1,1\n"
	tb, err := ReadTable(strings.NewReader(src), "x.data")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Cols != 3 || tb.Rows() != 3 || !tb.Row(1)[0] || tb.Row(1)[1] || !tb.Row(2)[2] {
		t.Fatalf("read %d x %d: %v", tb.Rows(), tb.Cols, tb.data)
	}
	var buf bytes.Buffer
	if err := writeTable(&buf, tb); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "0,1,1\n1,0,0\n1,1,1\n" {
		t.Fatalf("wrote %q", buf.String())
	}
	if got := strings.Join(tb.Names(), " "); got != "a1 a2 a3" {
		t.Fatalf("names %q", got)
	}
}

func TestTableErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"0,1\n0,2\n", "x.data:2:3: expected 0 or 1, found '2'"},
		{"0,1\n0,1,1\n", "x.data:2:5: row has more than the 2 values of the first row"},
		{"0,1\n0\n", "x.data:2:2: row has 1 values, the first row has 2"},
		{"0,1,\n", "x.data:1:5: expected 0 or 1 at end of row"},
		{"01\n", "x.data:1:2: expected ',' or end of row, found '1'"},
		{"0,,1\n", "x.data:1:3: expected 0 or 1, found ','"},
	}
	for _, c := range cases {
		_, err := ReadTable(strings.NewReader(c.src), "x.data")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %s", c.src, err, c.want)
		}
	}
	var tb Table
	tb.Append([]bool{true})
	if tb.Append([]bool{true, false}) == nil {
		t.Fatal("ragged append accepted")
	}
}

func TestReadDEBD(t *testing.T) {
	f, err := os.Open(shared.Path(t, "debd/nltcs/nltcs.valid.data"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tb, err := ReadTable(f, "nltcs.valid.data")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Cols != 16 || tb.Rows() != 2157 {
		t.Fatalf("nltcs valid is %d x %d, want 2157 x 16", tb.Rows(), tb.Cols)
	}
}

func FuzzReadTable(f *testing.F) {
	f.Add("0,1,1\n1,0,0\n")
	f.Add("1\n\n0\n")
	f.Add("\xef\xbb\xbf0,1\r\n1,0\r\n")
	f.Fuzz(func(t *testing.T, src string) {
		tb, err := ReadTable(strings.NewReader(src), "fuzz")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz:") && !strings.HasPrefix(err.Error(), "read fuzz") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		writeTable(&buf, tb)
		back, err := ReadTable(&buf, "fuzz")
		if err != nil || back.Cols != tb.Cols || back.Rows() != tb.Rows() {
			t.Fatalf("round trip of %q: %v", src, err)
		}
		for i := 0; i < tb.Rows(); i++ {
			for j, v := range tb.Row(i) {
				if back.Row(i)[j] != v {
					t.Fatalf("round trip of %q changed row %d", src, i)
				}
			}
		}
	})
}

// writeTable writes t in the format ReadTable reads.
func writeTable(w io.Writer, t *Table) error {
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 2*t.Cols)
	for i := 0; i < t.Rows(); i++ {
		buf = buf[:0]
		for j, v := range t.Row(i) {
			if j > 0 {
				buf = append(buf, ',')
			}
			if v {
				buf = append(buf, '1')
			} else {
				buf = append(buf, '0')
			}
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
