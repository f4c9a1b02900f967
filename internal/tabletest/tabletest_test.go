package tabletest

import (
	"strings"
	"testing"
)

// TestMajority counts the table's rows and classes: C(5,3)+C(5,4)+C(5,5) =
// 16 of the 32 rows have a majority of yes.
func TestMajority(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(Majority(), "\n"), "\n")
	if len(lines) != 33 || lines[0] != "a,b,c,d,e,class" {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	n := 0
	for _, l := range lines[1:] {
		yes := strings.Count(l, "yes")
		if maj := strings.HasSuffix(l, ",majority"); maj != (yes >= 3) {
			t.Errorf("row %q", l)
		} else if maj {
			n++
		}
	}
	if n != 16 {
		t.Errorf("%d majority rows, want 16", n)
	}
}
