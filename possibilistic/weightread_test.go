package possibilistic

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestWeightsThatReadAlikeAreRefused: a weight whose digits a float64
// cannot keep apart from 1 or from another weight of the file is an error at
// its line and column, not a merged level or a certain formula; the same
// number written differently is one level.
func TestWeightsThatReadAlikeAreRefused(t *testing.T) {
	for _, c := range []struct{ src, err string }{
		{"1: a\n0.99999999999999999999: !a\n", "t:2:1: weight 0.99999999999999999999 is below 1 but reads as 1"},
		{"  0.99999999999999999999: !a\n", "t:1:3: weight 0.99999999999999999999 is below 1 but reads as 1"},
		{"1.0000000000000000001: a\n", "t:1:1: weight 1.0000000000000000001 is above 1"},
		{"10e-1: a\n0.3: b\n0.30000000000000001: !a\n", "t:3:1: weight 0.30000000000000001 reads as the same number as weight 0.3 (line 2)"},
		{"0x1p-1: a\n", `t:1:1: expected a weight in ]0,1] before ':', found "0x1p-1"`},
		{"NaN: a\n", `t:1:1: expected a weight in ]0,1] before ':', found "NaN"`},
		{"1e-400: a\n", `t:1:1: expected a weight in ]0,1] before ':', found "1e-400"`},
	} {
		_, err := ReadText(context.Background(), strings.NewReader(c.src), "t", nil)
		if err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("%q: error %v, want %s…", c.src, err, c.err)
		}
	}
	th, err := ReadText(context.Background(), strings.NewReader("0.5: a\n0.50: b\n5e-1: c\n.5: d\n+0.5: e\n1.000: f\n10E-1: g\n0.30000000000000004: h\n0.3: i\n"), "t", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(th.Levels); got != 4 || len(th.Levels[0].Formulas) != 2 || len(th.Levels[1].Formulas) != 5 {
		t.Fatalf("levels:\n%s", th)
	}
}

// TestJSONWeightsThatReadAlikeAreRefused: the JSON form refuses what the
// text form refuses.
func TestJSONWeightsThatReadAlikeAreRefused(t *testing.T) {
	th := New(nil)
	err := json.Unmarshal([]byte(`{"levels": [{"weight": 1, "formulas": ["a"]}, {"weight": 0.99999999999999999999, "formulas": ["!a"]}]}`), th)
	if err == nil || !strings.Contains(err.Error(), "level 1: weight 0.99999999999999999999 is below 1 but reads as 1") {
		t.Fatalf("error %v", err)
	}
}

func TestDecimalValue(t *testing.T) {
	for s, want := range map[string]string{"0.5": "5e-1", "0.50": "5e-1", "5e-1": "5e-1", ".5": "5e-1", "500e-3": "5e-1",
		"1": "1e0", "1.000": "1e0", "10e-1": "1e0", "0": "e0", "0.000": "e0", "120": "12e1", "1e+2": "1e2", "0.0012": "12e-4"} {
		d, e, ok := decimalValue(s)
		if got := d + "e" + itoa(e); !ok || got != want {
			t.Errorf("decimalValue(%q) = %s, %v; want %s", s, got, ok, want)
		}
	}
	for _, s := range []string{"", ".", "e1", "0x1p-1", "inf", "NaN", "-0.5", "1e", "1e+-2", "1.2.3", "1_0"} {
		if _, _, ok := decimalValue(s); ok {
			t.Errorf("decimalValue(%q) accepted", s)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestWriteTextWritesOnlyWhatReadTextReads: a theory whose line is as long
// as a reader takes is written and read back; one a byte longer is an
// error of WriteText, not a file that show, eval and predict cannot read
// ("line longer than 16777216 bytes"), which learn --table on a table with a
// 16 MiB value used to write.
func TestWriteTextWritesOnlyWhatReadTextReads(t *testing.T) {
	for _, extra := range []int{0, 1} {
		th := New(nil)
		name := strings.Repeat("a", logic.MaxLineLen-len("0.5: ")+extra)
		th.Add(logic.AtomF(th.Vocab.Intern(name)), 0.5)
		var b strings.Builder
		err := th.WriteText(&b)
		if extra == 1 {
			if err == nil || !strings.Contains(err.Error(), "line 1 of the theory would be longer than 16777216 bytes") || b.Len() != 0 {
				t.Fatalf("a line of %d bytes: %v, %d bytes written", logic.MaxLineLen+1, err, b.Len())
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := ReadText(context.Background(), strings.NewReader(b.String()), "t", nil)
		if err != nil || back.Vocab.Name(0) != name {
			t.Fatalf("read back: %v", err)
		}
	}
}
