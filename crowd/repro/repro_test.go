package repro

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strata-logic/strata/crowd"
	defaultrules "github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/experiment/experimenttest"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// dataRoot returns ../shared/data, or skips (fails in CI) without it.
func dataRoot(t testing.TB) string {
	t.Helper()
	return shared.Data(t, "poker/pluribus_hands.txt.gz", "football/playoffs", "football/fourth_down")
}

// reproduce runs the reproduction with settings s on the domains named.
func reproduce(ctx context.Context, s experiment.Settings, domains ...string) (*Report, error) {
	return Reproduce(ctx, Options{Settings: benchSettings(s), Domains: domains})
}

// benchSettings gives s the protocol settings of strata bench crowd where it
// leaves them zero.
func benchSettings(s experiment.Settings) experiment.Settings {
	s.Learning.Rule, s.Learning.Specialise = DefaultRule, DefaultSpecialise
	return experimenttest.WithProtocol(s, DefaultFolds)
}

// TestQuick runs the small version end to end and checks what it wrote
// against independent computations from the files alone.
func TestQuick(t *testing.T) {
	rep, q := experimenttest.Quick(t, dataRoot(t), "strata bench crowd --quick", reproduce)
	if len(rep.Rows) != len(Domains) {
		t.Fatalf("%d rows, want %d", len(rep.Rows), len(Domains))
	}
	experimenttest.CheckEvents(t, q.Events, "read", "build", "validate", "learn", "evaluate", "done")
	for _, label := range []string{"Poker", "Football"} {
		experimenttest.TableRow(t, q.Markdown, experimenttest.AccuracyHeader, label)
	}
	if !strings.Contains(q.Markdown, "each answer's own action (`--examples answers`)") {
		t.Error("results.md does not say which examples the theories learn from")
	}
	for _, row := range rep.Rows {
		t.Run(row.Domain.Name, func(t *testing.T) {
			checkRow(t, q, row)
		})
	}
}

func checkRow(t *testing.T, q *experimenttest.Run, row *Row) {
	dir := q.Dir
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
	if v := experimenttest.Chosen(t, row.Learning); v != nil {
		for _, a := range v.HeldOut {
			if !slices.Contains(m.Train.Annotators, a) {
				t.Errorf("validation annotator %s is not a training annotator", a)
			}
		}
	}

	// Accuracies in [0, 100]; the baselines are there when Weka and
	// XGBoost are. Eight columns of this run, then the paper's four.
	cells, paper := experimenttest.AccuracyRow(t, q, row.Domain.Label)
	for i, c := range paper {
		want := "–"
		if row.Domain.Paper != nil {
			want = fmt.Sprintf("%.1f", row.Domain.Paper[i])
		}
		if strings.Trim(c, "*") != want {
			t.Errorf("row %q: paper's column %d is %q, want %q", row.Domain.Label, i, c, want)
		}
	}
	experimenttest.CheckBaselines(t, q, &row.Row, m.Test.Situations)
	// The harness's majority class, on the ARFF tables, is the report's
	// own, on the test situations (eval.Majority).
	if mj := row.Row.Majority; mj.Classifier.Options[0] != row.MajorityAction || mj.Accuracy() != row.Majority {
		t.Errorf("majority class %s %.4f on the tables, %s %.4f on the situations", mj.Classifier.Options[0], mj.Accuracy(), row.MajorityAction, row.Majority)
	}

	// The theory file reads back; its top level is exactly the hard rules.
	v := &logic.Vocabulary{}
	th := readTheory(t, filepath.Join(dir, row.Domain.Name+".theory"), v)
	hard := experimenttest.Read(t, filepath.Join(dir, row.Domain.Name, "hard.rules"), v, defaultrules.ReadClauses)
	top := th.Levels[0]
	if top.Weight != 1 {
		t.Fatalf("top level has weight %v", top.Weight)
	}
	if got, want := clauseSet(t, v, top.Formulas), clauseSet(t, v, hard); !slices.Equal(got, want) {
		t.Errorf("top level\n%v\nis not the hard rules\n%v", got, want)
	}
	size := experimenttest.Literals(th.Levels[1:])
	if size != row.Hypothesis.NumLiterals() || !strings.Contains(q.Markdown, fmt.Sprintf("| %s | %d (", row.Domain.Label, size)) {
		t.Errorf("theory file has %d literals below the hard rules; the report says %d", size, row.Hypothesis.NumLiterals())
	}

	// The Poss. accuracy is what eval.Cases gives for the file.
	f, err := os.Open(filepath.Join(dir, row.Domain.Name, "test.typical"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := crowd.ReadCases(f, "test.typical", v, m.Actions)
	if err != nil {
		t.Fatal(err)
	}
	classes := eval.NewClasses(v, m.Actions)
	c, err := eval.Cases(context.Background(), mustReasoner(t, th), possibilistic.Poss, classes, cases)
	if err != nil {
		t.Fatal(err)
	}
	if c.Correct() != row.Poss.Correct() || c.Total() != row.Poss.Total() || c.Total() != m.Test.Situations {
		t.Errorf("the written theory gets %d of %d; the report %d of %d", c.Correct(), c.Total(), row.Poss.Correct(), row.Poss.Total())
	}
	if got := strings.Trim(cells[0], "*"); got != fmt.Sprintf("%.1f", 100*c.Accuracy()) {
		t.Errorf("table says Poss. %s, the written theory gets %.1f", got, 100*c.Accuracy())
	}
	// So are the linear and lex columns for their files.
	for k, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
		th := readTheory(t, filepath.Join(dir, row.Domain.Name+"."+sem.String()+".theory"), v)
		c, err := eval.Cases(context.Background(), mustReasoner(t, th), sem, classes, cases)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Trim(cells[1+k], "*"); got != fmt.Sprintf("%.1f", 100*c.Accuracy()) || c.Total() != m.Test.Situations {
			t.Errorf("table says %v %s, the written theory gets %.1f of %d", sem, got, 100*c.Accuracy(), c.Total())
		}
	}
}

// readTheory reads a theory file and checks that it has levels.
func readTheory(t *testing.T, path string, v *logic.Vocabulary) *possibilistic.Theory {
	t.Helper()
	th := experimenttest.Read(t, path, v, experimenttest.ReadTheory)
	if len(th.Levels) == 0 {
		t.Fatalf("%s is empty", path)
	}
	return th
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
	experimenttest.CheckDeterministic(t, func(dir string) error {
		_, err := Reproduce(context.Background(), Options{Settings: benchSettings(experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 7}), Domains: []string{"football"}})
		return err
	}, "football.theory")
}

func TestNoValidation(t *testing.T) {
	data := dataRoot(t)
	dir := t.TempDir()
	rep, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 1, Learning: learntest.Legacy(learn.Settings{Iterations: 3})}, Domains: []string{"fourth_down"}})
	if err != nil {
		t.Fatal(err)
	}
	experimenttest.CheckNoValidation(t, rep.Rows[0].Learning, 3, filepath.Join(dir, "fourth_down"))
	if _, err := os.Stat(filepath.Join(dir, "poker.theory")); err == nil {
		t.Error("a domain that was not selected was run")
	}
}

// TestTypicalExamples: by default the theories learn from the datasets'
// own defaults and non-defaults; with Typical from the training answers
// relabelled with their situations' most typical actions, the answers of
// tied situations left out; results.md says which.
func TestTypicalExamples(t *testing.T) {
	data := dataRoot(t)
	examples := map[bool]int{}
	for _, typical := range []bool{false, true} {
		dir := t.TempDir()
		rep, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 1, Learning: learntest.Legacy(learn.Settings{Iterations: 3}),
			Semantics: []possibilistic.Semantics{possibilistic.Poss}}, Domains: []string{"football"}, Typical: typical})
		if err != nil {
			t.Fatal(err)
		}
		m := rep.Rows[0].Manifest
		examples[typical] = rep.Rows[0].Learning.Examples
		md, err := os.ReadFile(filepath.Join(dir, "results.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !typical && (examples[typical] != 2*m.Train.Positive || !strings.Contains(string(md), "`--examples answers`")) {
			t.Errorf("own actions: %d examples, want %d; or results.md does not say so", examples[typical], 2*m.Train.Positive)
		}
		if typical && !strings.Contains(string(md), "`--examples typical`") {
			t.Error("results.md does not say the answers state their situations' typical actions")
		}
	}
	// A quick run's playoff answers have tied situations, whose answers the
	// typical examples leave out.
	if examples[true] >= examples[false] || examples[true] == 0 {
		t.Errorf("typical examples %d, own %d: want fewer, tied situations left out", examples[true], examples[false])
	}
}

// TestQuickFolds chooses the iterations by cross-validation over the
// training annotators: every annotator is held out by one fold, and the
// pooled curve counts every fold's held-out examples; and on one held-out
// part of them.
func TestQuickFolds(t *testing.T) {
	data := dataRoot(t)
	dir := t.TempDir()
	rep, err := Reproduce(context.Background(), Options{Settings: benchSettings(experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 1, Learning: learn.Settings{Folds: 3},
		Semantics: []possibilistic.Semantics{possibilistic.Poss}}), Domains: []string{"fourth_down"}})
	if err != nil {
		t.Fatal(err)
	}
	v := rep.Rows[0].Learning.Validation
	if v == nil || v.Skipped != "" || v.Folds != 3 || len(v.Selection.Folds) != 3 || v.Chosen < 1 {
		t.Fatalf("validation %+v", v)
	}
	held := 0
	for _, f := range v.Selection.Folds {
		held += f.Held
	}
	if held != v.Held || len(v.HeldOut) < 3 {
		t.Errorf("%d examples held out by the folds, %d in the selection; %d annotators", held, v.Held, len(v.HeldOut))
	}
	// --folds 1: one held-out part of the training annotators.
	rep, err = Reproduce(context.Background(), Options{Settings: benchSettings(experiment.Settings{Data: data, Dir: t.TempDir(), Quick: true, Seed: 1, Learning: learn.Settings{Folds: 1},
		Semantics: []possibilistic.Semantics{possibilistic.Poss}}), Domains: []string{"fourth_down"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := experimenttest.Chosen(t, rep.Rows[0].Learning); v != nil && (v.Folds != 0 || v.Selection.Folds != nil || len(v.HeldOut) == 0) {
		t.Errorf("one held-out part: %d folds, %d fold runs, %d annotators held out", v.Folds, len(v.Selection.Folds), len(v.HeldOut))
	}
}

func TestOptionErrors(t *testing.T) {
	experimenttest.CheckErrors(t, reproduce, "domain", "football", "football/playoffs")
}

// TestTestFraction: a test share outside (0, 1) is refused.
func TestTestFraction(t *testing.T) {
	dir := t.TempDir()
	_, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: dir, Dir: dir}, TestFraction: 1.5})
	if err == nil || !strings.Contains(err.Error(), "test fraction 1.5") {
		t.Errorf("error %v, want test fraction 1.5", err)
	}
}

// BenchmarkQuick measures the small reproduction without Weka: reading the
// data, building the three domains' datasets, the validation and final
// learning runs, scoring, and writing the report.
func BenchmarkQuick(b *testing.B) {
	experimenttest.Bench(b, dataRoot(b), reproduce)
}

// mustReasoner compiles th, failing the test if it cannot.
func mustReasoner(t testing.TB, th *possibilistic.Theory) *possibilistic.Reasoner {
	t.Helper()
	r, err := possibilistic.NewReasoner(context.Background(), th)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
