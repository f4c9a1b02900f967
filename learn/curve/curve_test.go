package curve

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/learn"
)

func TestWrite(t *testing.T) {
	var hist []learn.Iteration
	for i := 1; i <= 10; i++ {
		hist = append(hist, learn.Iteration{Iteration: i, TrainAccuracy: 0.5 + 0.04*float64(i), TestAccuracy: math.NaN(), Rules: i, Levels: 1 + i/3, Elapsed: time.Duration(i) * time.Second})
	}
	for _, f := range []string{"svg", "png"} {
		var buf bytes.Buffer
		if err := Write(&buf, f, hist, "test run"); err != nil {
			t.Fatal(err)
		}
		if f == "svg" && !strings.Contains(buf.String(), "<svg") || f == "png" && !bytes.HasPrefix(buf.Bytes(), []byte("\x89PNG")) {
			t.Fatalf("%s output does not look like %s", f, f)
		}
	}
	if _, err := Format("curves.pdf"); err == nil {
		t.Fatal("pdf accepted")
	}
}
