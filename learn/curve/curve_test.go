package curve

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/plotter"

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

// TestLegendHidesNoCurve: the legend goes to the corner the curves leave
// empty: the bottom right for accuracies that rise and level off (where
// it used to sit at the top right, on them), the top right for falling
// ones, and a corner no point of the curves is in.
func TestLegendHidesNoCurve(t *testing.T) {
	var rising, falling, test plotter.XYs
	for i := 1; i <= 20; i++ {
		x := float64(i)
		rising = append(rising, plotter.XY{X: x, Y: 1 - 0.5*math.Exp(-x/3)})
		test = append(test, plotter.XY{X: x, Y: 0.95 - 0.45*math.Exp(-x/4)})
		falling = append(falling, plotter.XY{X: x, Y: 0.5 * math.Exp(-x/3)})
	}
	for _, c := range []struct {
		name      string
		lines     []plotter.XYs
		top, left bool
	}{{"rising", []plotter.XYs{rising, test}, false, false}, {"falling", []plotter.XYs{falling}, true, false}} {
		top, left := emptiestCorner(c.lines...)
		if top != c.top || left != c.left {
			t.Errorf("%s curves: legend at top %v, left %v; want top %v, left %v", c.name, top, left, c.top, c.left)
		}
	}
	// The plots of Write put it there too.
	var hist []learn.Iteration
	for i, p := range rising {
		hist = append(hist, learn.Iteration{Iteration: i + 1, TrainAccuracy: p.Y, TestAccuracy: test[i].Y, Rules: i + 1, Levels: 1 + i/4})
	}
	acc, err := accuracyPlot(hist, "rising")
	if err != nil {
		t.Fatal(err)
	}
	if acc.Legend.Top || acc.Legend.Left {
		t.Errorf("the accuracy plot's legend at top %v, left %v: on the curves", acc.Legend.Top, acc.Legend.Left)
	}
}
