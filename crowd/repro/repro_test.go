package repro

import (
	"context"
	"fmt"
	"github.com/strata-logic/strata/internal/experiment"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/dataset"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/weka/wekatest"
)

// dataRoot returns ../shared/data, or skips (fails in CI) without it.
func dataRoot(t testing.TB) string {
	t.Helper()
	shared.Path(t, "poker/pluribus_hands.txt.gz")
	shared.Path(t, "football/playoffs")
	shared.Path(t, "football/fourth_down")
	return filepath.Dir(shared.Path(t, "poker"))
}

// TestQuick runs the small version end to end and checks what it wrote
// against independent computations from the files alone.
func TestQuick(t *testing.T) {
	data := dataRoot(t)
	dir := t.TempDir()
	wk := wekatest.Runner(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var events []Event
	rep, err := Reproduce(ctx, Options{Settings: experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 1, Weka: wk, Command: "strata bench crowd --quick", Progress: func(e Event) { events = append(events, e) }}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != len(Domains) {
		t.Fatalf("%d rows, want %d", len(rep.Rows), len(Domains))
	}
	checkEvents(t, events)
	md, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := accuracyTable(t, string(md))
	for _, label := range []string{"Poker", "Football"} {
		if _, ok := table[label]; !ok {
			t.Fatalf("results.md has no %s row in the accuracy table:\n%s", label, md)
		}
	}
	if !strings.Contains(string(md), "`strata bench crowd --quick` (seed 1)") {
		t.Error("results.md does not give the command and seed")
	}
	for _, row := range rep.Rows {
		t.Run(row.Domain.Name, func(t *testing.T) {
			checkRow(t, dir, row, table[row.Domain.Label], wk != nil, string(md))
		})
	}
}

func checkEvents(t *testing.T, events []Event) {
	t.Helper()
	steps := map[string]int{}
	for _, e := range events {
		steps[e.Step]++
		if e.Iteration != nil && (e.Iteration.Iteration < 1 || e.Iteration.Iteration > e.MaxIterations) {
			t.Errorf("iteration %d of at most %d", e.Iteration.Iteration, e.MaxIterations)
		}
	}
	for _, s := range []string{"read", "build", "validate", "learn", "evaluate", "done"} {
		if steps[s] == 0 {
			t.Errorf("no %q progress event (got %v)", s, steps)
		}
	}
}

// accuracyTable parses the first table of results.md: label -> cells.
func accuracyTable(t *testing.T, md string) map[string][]string {
	t.Helper()
	_, rest, ok := strings.Cut(md, "| | Poss. | Linear | Lex | Rand. F. | C4.5 | RIPPER | paper: Poss. | Rand. F. | C4.5 | RIPPER |\n")
	if !ok {
		t.Fatalf("results.md has no accuracy table in the paper's layout:\n%s", md)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(rest, "\n")[1:] {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		rows[cells[0]] = cells[1:]
	}
	return rows
}

func checkRow(t *testing.T, dir string, row *Row, cells []string, withWeka bool, md string) {
	// A few hundred decisions.
	m, err := crowd.ReadManifest(filepath.Join(dir, row.Domain.Name))
	if err != nil {
		t.Fatal(err)
	}
	if n := m.Train.Answers + m.Test.Answers; n < 100 || n > 1000 {
		t.Errorf("quick run used %d answers, want a few hundred", n)
	}
	// No annotator on both sides; the validation annotators are training ones.
	for _, a := range m.Test.Annotators {
		if slices.Contains(m.Train.Annotators, a) {
			t.Errorf("annotator %s is in both the training and the test part", a)
		}
	}
	if v := row.Learning.Validation; v == nil || v.Skipped != "" {
		t.Errorf("no validation run: %+v", v)
	} else {
		for _, a := range v.HeldOut {
			if !slices.Contains(m.Train.Annotators, a) {
				t.Errorf("validation annotator %s is not a training annotator", a)
			}
		}
		if v.Chosen < 1 || v.Chosen > v.Best || row.Learning.Iterations != v.Chosen {
			t.Errorf("chose %d iterations, best %d, final limit %d", v.Chosen, v.Best, row.Learning.Iterations)
		}
	}

	// Accuracies in [0, 100]; the baselines are there when Weka is.
	// Six columns of this run, then the paper's four.
	if len(cells) != 10 {
		t.Fatalf("row %q has %d cells", row.Domain.Label, len(cells))
	}
	paper := cells[6:]
	cells = cells[:6]
	for i, c := range paper {
		want := "–"
		if row.Domain.Paper != nil {
			want = fmt.Sprintf("%.1f", row.Domain.Paper[i])
		}
		if strings.Trim(c, "*") != want {
			t.Errorf("row %q: paper's column %d is %q, want %q", row.Domain.Label, i, c, want)
		}
	}
	for i, c := range cells {
		if c == "–" && i > 2 && !withWeka {
			continue
		}
		x, err := strconv.ParseFloat(strings.Trim(c, "*"), 64)
		if err != nil || x < 0 || x > 100 {
			t.Errorf("cell %d %q is not an accuracy in %%", i, c)
		}
	}
	if withWeka {
		for _, b := range row.Baselines {
			if b.Total != m.Test.Situations {
				t.Errorf("%s tested %d situations, want %d", b.Classifier.Name, b.Total, m.Test.Situations)
			}
		}
		if j := row.Result("C4.5"); j == nil || j.TreeSize < 1 {
			t.Error("no J48 tree size")
		}
	}

	// The theory file reads back; its top level is exactly the hard rules.
	v := &logic.Vocabulary{}
	th := readTheory(t, filepath.Join(dir, row.Domain.Name+".theory"), v)
	hard := readHard(t, filepath.Join(dir, row.Domain.Name, "hard.rules"), v)
	top := th.Levels[len(th.Levels)-1]
	if top.Weight != 1 {
		t.Fatalf("top level has weight %v", top.Weight)
	}
	if got, want := clauseSet(t, v, top.Formulas), clauseSet(t, v, hard); !slices.Equal(got, want) {
		t.Errorf("top level\n%v\nis not the hard rules\n%v", got, want)
	}
	size := 0
	for _, l := range th.Levels[:len(th.Levels)-1] {
		for _, f := range l.Formulas {
			size += f.Size()
		}
	}
	if size != row.Model.NumLiterals() || !strings.Contains(md, fmt.Sprintf("| %s | %d (", row.Domain.Label, size)) {
		t.Errorf("theory file has %d literals below the hard rules; the report says %d", size, row.Model.NumLiterals())
	}

	// The Poss. accuracy is what crowd.EvaluateCases gives for the file.
	f, err := os.Open(filepath.Join(dir, row.Domain.Name, "test.typical"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := crowd.ReadCases(f, "test.typical", v, m.Actions)
	if err != nil {
		t.Fatal(err)
	}
	c := crowd.EvaluateCases(th, m.Actions, cases)
	if c.Correct() != row.Poss.Correct() || c.Total() != row.Poss.Total() || c.Total() != m.Test.Situations {
		t.Errorf("the written theory gets %d of %d; the report %d of %d", c.Correct(), c.Total(), row.Poss.Correct(), row.Poss.Total())
	}
	if got := strings.Trim(cells[0], "*"); got != fmt.Sprintf("%.1f", 100*c.Accuracy()) {
		t.Errorf("table says Poss. %s, the written theory gets %.1f", got, 100*c.Accuracy())
	}
	// So are the linear and lex columns for their files.
	for k, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
		th := readTheory(t, filepath.Join(dir, row.Domain.Name+"."+sem.String()+".theory"), v)
		c := crowd.EvaluateCasesUnder(th, m.Actions, cases, sem)
		if got := strings.Trim(cells[1+k], "*"); got != fmt.Sprintf("%.1f", 100*c.Accuracy()) || c.Total() != m.Test.Situations {
			t.Errorf("table says %v %s, the written theory gets %.1f of %d", sem, got, 100*c.Accuracy(), c.Total())
		}
	}
}

func readTheory(t *testing.T, path string, v *logic.Vocabulary) *possibilistic.Theory {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	th, err := possibilistic.ReadText(f, path, v)
	if err != nil {
		t.Fatal(err)
	}
	if len(th.Levels) == 0 {
		t.Fatalf("%s is empty", path)
	}
	return th
}

func readHard(t *testing.T, path string, v *logic.Vocabulary) []*logic.Formula {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fs, err := dataset.ReadClauses(f, path, v)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// clauseSet writes clauses with sorted literals, sorted: equal sets of
// clauses give equal slices.
func clauseSet(t *testing.T, v *logic.Vocabulary, fs []*logic.Formula) []string {
	t.Helper()
	var out []string
	for _, f := range fs {
		c, ok := f.AsClause()
		if !ok {
			t.Fatalf("%s is not a clause", f.String(v))
		}
		lits := strings.Split(c.String(v), " | ")
		slices.Sort(lits)
		out = append(out, strings.Join(lits, " | "))
	}
	slices.Sort(out)
	return out
}

// TestQuickDeterministic: without a timeout, a seed fixes every theory.
func TestQuickDeterministic(t *testing.T) {
	data := dataRoot(t)
	var theories [2][]byte
	for i := range theories {
		dir := t.TempDir()
		if _, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 7}, Domains: []string{"football"}}); err != nil {
			t.Fatal(err)
		}
		var err error
		if theories[i], err = os.ReadFile(filepath.Join(dir, "football.theory")); err != nil {
			t.Fatal(err)
		}
	}
	if string(theories[0]) != string(theories[1]) {
		t.Errorf("two runs with seed 7 differ:\n%s\n---\n%s", theories[0], theories[1])
	}
}

func TestNoValidation(t *testing.T) {
	data := dataRoot(t)
	dir := t.TempDir()
	rep, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 1, Validation: -1, Iterations: 3}, Domains: []string{"fourth_down"}})
	if err != nil {
		t.Fatal(err)
	}
	lr := rep.Rows[0].Learning
	if lr.Validation != nil || lr.Iterations != 3 || len(lr.History) > 3 {
		t.Errorf("validation %+v, limit %d, %d iterations", lr.Validation, lr.Iterations, len(lr.History))
	}
	if _, err := os.Stat(filepath.Join(dir, "fourth_down", "validation.csv")); err == nil {
		t.Error("validation.csv written without validation")
	}
	if _, err := os.Stat(filepath.Join(dir, "poker.theory")); err == nil {
		t.Error("a domain that was not selected was run")
	}
}

func TestOptionErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Settings: experiment.Settings{Dir: dir}}, "Data and Options.Dir are required"},
		{Options{Settings: experiment.Settings{Data: dir, Dir: dir}, Domains: []string{"chess"}}, `unknown domain "chess"`},
		{Options{Settings: experiment.Settings{Data: dir, Dir: dir}, TestFraction: 1.5}, "test fraction 1.5"},
		{Options{Settings: experiment.Settings{Data: dir, Dir: dir, Validation: 1}}, "validation share 1"},
		{Options{Settings: experiment.Settings{Data: filepath.Join(dir, "nothing"), Dir: dir}, Domains: []string{"football"}}, "nothing/football/playoffs"},
	} {
		_, err := Reproduce(context.Background(), tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.opts, err, tc.want)
		}
	}
}

// BenchmarkQuick measures the small reproduction without Weka: reading the
// data, building the three domains' datasets, the validation and final
// learning runs, scoring, and writing the report.
func BenchmarkQuick(b *testing.B) {
	data := dataRoot(b)
	for b.Loop() {
		if _, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: data, Dir: b.TempDir(), Quick: true, Seed: 1}}); err != nil {
			b.Fatal(err)
		}
	}
}
