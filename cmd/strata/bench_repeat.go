package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/experiment"
)

// runBenchRepeat runs a reproduction several times (startBench), repeat
// returning the runs, and prints their summary for a person or as JSON.
func runBenchRepeat(cmd *cobra.Command, s *experiment.Settings, b benchBaselines, asJSON bool,
	repeat func(context.Context) (*experiment.Repeated, error)) error {
	var rep *experiment.Repeated
	err := startBench(cmd, s, b, func(ctx context.Context) error {
		var err error
		rep, err = repeat(ctx)
		return err
	})
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if asJSON {
		return writeJSON(w, newRepeatJSON(rep))
	}
	printRepeated(w, rep)
	fmt.Fprintf(w, "summary and each run's results in %s (see summary.md)\n", rep.Settings.Dir)
	return nil
}

// printRepeated prints the mean accuracy of each column over the runs,
// with the least and greatest, and how often the best drowning-free theory
// was at least as accurate as every baseline.
func printRepeated(w io.Writer, rep *experiment.Repeated) {
	if len(rep.Rows) == 0 || len(rep.Rows[0]) == 0 {
		return
	}
	first := rep.Rows[0]
	width := 0
	for _, r := range first {
		width = max(width, len(r.Label))
	}
	cols := rep.Columns()
	fmt.Fprintf(w, "test accuracy over %d runs (seeds %d to %d): mean (least-greatest)\n", len(rep.Rows), rep.Seeds[0], rep.Seeds[len(rep.Seeds)-1])
	head := make([]string, len(cols))
	for i, c := range cols {
		head[i] = fmt.Sprintf("%15s", c)
	}
	fmt.Fprintf(w, "%-*s %s\n", width, "", strings.Join(head, " "))
	for i, r := range first {
		var cells []string
		for _, sp := range rep.Spreads(i) {
			if sp.N == 0 {
				cells = append(cells, fmt.Sprintf("%15s", "-"))
				continue
			}
			cells = append(cells, fmt.Sprintf("%15s", fmt.Sprintf("%.1f (%.1f-%.1f)", sp.Mean, sp.Min, sp.Max)))
		}
		fmt.Fprintf(w, "%-*s %s\n", width, r.Label, strings.Join(cells, " "))
	}
	fmt.Fprintln(w, "best drowning-free theory at least as accurate as every baseline (and with fewer literals than J48 has nodes):")
	for i, r := range first {
		judged, accurate, both := rep.Verdicts(i)
		if judged == 0 {
			fmt.Fprintf(w, "  %-*s - (no baseline ran)\n", width, r.Label)
			continue
		}
		fmt.Fprintf(w, "  %-*s %d of %d runs (%d)\n", width, r.Label, accurate, judged, both)
	}
}

// repeatJSON is the summary of repeated runs: each run's table as a single
// run prints it, and per subject each column's spread (accuracies as
// fractions; null for a baseline that was not run) and the verdict counts.
type repeatJSON struct {
	Output  string          `json:"output"`
	Command string          `json:"command"`
	Seeds   []uint64        `json:"seeds"`
	Rows    []repeatRowJSON `json:"rows"`
	Runs    []*benchJSON    `json:"runs"`
}

type repeatRowJSON struct {
	Name    string             `json:"name"`
	Columns []repeatColumnJSON `json:"columns"`
	// Judged counts the runs with a drowning-free theory and a baseline;
	// AtLeastAsAccurate those whose best drowning-free theory is at least
	// as accurate as every baseline; AndSmaller those of them where it
	// also has fewer literals than J48 has nodes.
	Judged            int `json:"judged"`
	AtLeastAsAccurate int `json:"at_least_as_accurate"`
	AndSmaller        int `json:"and_smaller"`
}

type repeatColumnJSON struct {
	Name string   `json:"name"`
	Mean *float64 `json:"mean"`
	Min  *float64 `json:"min"`
	Max  *float64 `json:"max"`
}

func newRepeatJSON(rep *experiment.Repeated) *repeatJSON {
	out := &repeatJSON{Output: rep.Settings.Dir, Command: rep.Settings.Command, Seeds: rep.Seeds, Rows: []repeatRowJSON{}, Runs: []*benchJSON{}}
	if len(rep.Rows) == 0 {
		return out
	}
	cols := rep.Columns()
	frac := func(x float64) *float64 {
		if math.IsNaN(x) {
			return nil
		}
		f := x / 100
		return &f
	}
	for i, r := range rep.Rows[0] {
		row := repeatRowJSON{Name: r.Label}
		for c, sp := range rep.Spreads(i) {
			row.Columns = append(row.Columns, repeatColumnJSON{Name: cols[c], Mean: frac(sp.Mean), Min: frac(sp.Min), Max: frac(sp.Max)})
		}
		row.Judged, row.AtLeastAsAccurate, row.AndSmaller = rep.Verdicts(i)
		out.Rows = append(out.Rows, row)
	}
	for k, rows := range rep.Rows {
		out.Runs = append(out.Runs, newBenchJSON(filepath.Join(rep.Settings.Dir, rep.Dirs[k]), rep.Settings.Command, rows,
			func(r *experiment.Row) string { return r.Label }))
	}
	return out
}
