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
	p.Legend.Top = true
	p.Legend.Left = false
	if err := addLine(p, series(hist, func(it learn.Iteration) float64 { return it.TrainAccuracy }), "training", 0); err != nil {
		return nil, err
	}
	if test := series(hist, func(it learn.Iteration) float64 { return it.TestAccuracy }); len(test) > 0 {
		if err := addLine(p, test, "test", 1); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func sizePlot(hist []learn.Iteration) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = "iteration"
	p.Y.Label.Text = "theory size"
	p.Legend.Top = true
	p.Legend.Left = true
	if err := addLine(p, series(hist, func(it learn.Iteration) float64 { return float64(it.Rules) }), "rules", 2); err != nil {
		return nil, err
	}
	if err := addLine(p, series(hist, func(it learn.Iteration) float64 { return float64(it.Levels) }), "levels", 3); err != nil {
		return nil, err
	}
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
