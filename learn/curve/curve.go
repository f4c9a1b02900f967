// Package curve draws the learning curves of a run of the heuristic
// learner with gonum/plot: training and test accuracy per iteration above,
// the size of the theory (rules, levels) below.
package curve

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/strata-logic/strata/learn"
)

// Format returns the image format for a file name: "svg" or "png".
func Format(name string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".svg", ".png":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("plot %s: unknown image format %q (use .svg or .png)", name, ext)
	}
}

// Write draws the curves of hist as an SVG or PNG image (format "svg" or
// "png") on w.
func Write(w io.Writer, format string, hist []learn.Iteration, title string) error {
	acc, err := accuracyPlot(hist, title)
	if err != nil {
		return err
	}
	size, err := sizePlot(hist)
	if err != nil {
		return err
	}
	const width, height = 16 * vg.Centimeter, 16 * vg.Centimeter
	var c draw.Canvas
	var out io.WriterTo
	switch format {
	case "svg":
		s := vgsvg.New(width, height)
		c, out = draw.New(s), s
	case "png":
		img := vgimg.New(width, height)
		c, out = draw.New(img), vgimg.PngCanvas{Canvas: img}
	default:
		return fmt.Errorf("plot: unknown image format %q", format)
	}
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 4}
	canvases := plot.Align([][]*plot.Plot{{acc}, {size}}, tiles, c)
	acc.Draw(canvases[0][0])
	size.Draw(canvases[1][0])
	_, err = out.WriteTo(w)
	return err
}

func series(hist []learn.Iteration, f func(learn.Iteration) float64) plotter.XYs {
	var xy plotter.XYs
	for _, it := range hist {
		if y := f(it); !math.IsNaN(y) {
			xy = append(xy, plotter.XY{X: float64(it.Iteration), Y: y})
		}
	}
	return xy
}

func accuracyPlot(hist []learn.Iteration, title string) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "iteration"
	p.Y.Label.Text = "accuracy"
	train := series(hist, func(it learn.Iteration) float64 { return it.TrainAccuracy })
	if err := addLine(p, train, "training", 0); err != nil {
		return nil, err
	}
	test := series(hist, func(it learn.Iteration) float64 { return it.TestAccuracy })
	if len(test) > 0 {
		if err := addLine(p, test, "test", 1); err != nil {
			return nil, err
		}
	}
	p.Legend.Top, p.Legend.Left = emptiestCorner(train, test)
	return p, nil
}

// emptiestCorner returns the corner of the plot of the lines whose
// region, a third of the width and a quarter of the height, the fewest of
// their points (and segments between them) fall in: where the legend
// hides no curve. Accuracy curves rise and then level off near the top,
// and leave the bottom right empty; a theory's size rises from the bottom
// left, and leaves the top left and the bottom right.
func emptiestCorner(lines ...plotter.XYs) (top, left bool) {
	xmin, xmax, ymin, ymax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for _, p := range l {
			xmin, xmax, ymin, ymax = min(xmin, p.X), max(xmax, p.X), min(ymin, p.Y), max(ymax, p.Y)
		}
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	if ymax <= ymin {
		ymax = ymin + 1
	}
	best := -1
	for _, c := range []struct{ top, left bool }{{true, false}, {true, true}, {false, false}, {false, true}} {
		in := 0
		for _, l := range lines {
			for i, p := range l {
				// Each point and the midpoint of the segment before it.
				pts := []plotter.XY{p}
				if i > 0 {
					pts = append(pts, plotter.XY{X: (p.X + l[i-1].X) / 2, Y: (p.Y + l[i-1].Y) / 2})
				}
				for _, q := range pts {
					x, y := (q.X-xmin)/(xmax-xmin), (q.Y-ymin)/(ymax-ymin)
					if (c.left && x <= 1.0/3 || !c.left && x >= 2.0/3) && (c.top && y >= 0.75 || !c.top && y <= 0.25) {
						in++
					}
				}
			}
		}
		if best < 0 || in < best {
			best, top, left = in, c.top, c.left
		}
	}
	return top, left
}

func sizePlot(hist []learn.Iteration) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = "iteration"
	p.Y.Label.Text = "theory size"
	rules := series(hist, func(it learn.Iteration) float64 { return float64(it.Rules) })
	levels := series(hist, func(it learn.Iteration) float64 { return float64(it.Levels) })
	if err := addLine(p, rules, "rules", 2); err != nil {
		return nil, err
	}
	if err := addLine(p, levels, "levels", 3); err != nil {
		return nil, err
	}
	p.Legend.Top, p.Legend.Left = emptiestCorner(rules, levels)
	return p, nil
}

func addLine(p *plot.Plot, xy plotter.XYs, name string, i int) error {
	if len(xy) == 0 {
		return nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return err
	}
	l.Color = palette[i%len(palette)]
	l.Width = vg.Points(1.5)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}
