package repro

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	defaultrules "github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/internal/experiment/experimenttest"
	"github.com/strata-logic/strata/internal/learntest"
	"github.com/strata-logic/strata/internal/shared"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/mln"
	"github.com/strata-logic/strata/possibilistic"
)

// dataRoot returns ../shared/data, or skips (fails in CI) without NLTCS.
func dataRoot(t testing.TB) string {
	t.Helper()
	return shared.Data(t, "debd/nltcs/nltcs.train.data")
}

// reproduce runs the reproduction with settings s on the datasets named.
func reproduce(ctx context.Context, s experiment.Settings, datasets ...string) (*Report, error) {
	return Reproduce(ctx, Options{Settings: benchSettings(s), Datasets: datasets})
}

// benchSettings gives s the protocol settings of strata bench map where it
// leaves them zero.
func benchSettings(s experiment.Settings) experiment.Settings {
	return experimenttest.WithProtocol(s, DefaultFolds)
}

// TestQuick runs the small version end to end and checks what it wrote
// against independent computations from the files alone: the theory file
// scored by the possibilistic reasoner, the ARFF files decoded, the labels
// recomputed by brute-force MAP over all 2¹⁶ worlds of the network file.
func TestQuick(t *testing.T) {
	rep, q := experimenttest.Quick(t, dataRoot(t), "strata bench map --quick", reproduce)
	if len(rep.Rows) != 1 || rep.Rows[0].Dataset.Name != "nltcs" {
		t.Fatalf("quick run has rows %v, want NLTCS alone", rep.Rows)
	}
	row := rep.Rows[0]
	dir, md := q.Dir, q.Markdown
	steps := []string{"network", "examples", "validate", "learn", "evaluate", "done"}
	if q.Weka {
		steps = append(steps, "weka")
	}
	experimenttest.CheckEvents(t, q.Events, steps...)
	cells, paper := experimenttest.AccuracyRow(t, q, "NLTCS")
	for i, want := range []string{"78.1", "69.6", "70.2", "67.7"} {
		if got := strings.Trim(paper[i], "*"); got != want {
			t.Errorf("paper's %s is %s, want %s", experiment.Columns[i], got, want)
		}
	}

	net, err := mln.ReadNetworkFile(filepath.Join(dir, "nltcs", "nltcs.mln"))
	if err != nil {
		t.Fatal(err)
	}
	if net.NumAtoms() != 16 {
		t.Fatalf("the NLTCS network has %d atoms", net.NumAtoms())
	}
	v := net.Vocab
	sets := map[string][2][]logic.Rule{}
	for _, set := range []string{"train", "test"} {
		pos := defaultrules.Rules(experimenttest.Read(t, filepath.Join(dir, "nltcs", set+".defaults"), v, defaultrules.ReadRules))
		neg := defaultrules.Rules(experimenttest.Read(t, filepath.Join(dir, "nltcs", set+".nondefaults"), v, defaultrules.ReadRules))
		if len(pos)+len(neg) != QuickExamples {
			t.Errorf("%s has %d + %d examples, want %d", set, len(pos), len(neg), QuickExamples)
		}
		sets[set] = [2][]logic.Rule{pos, neg}
		checkARFF(t, filepath.Join(dir, "nltcs", set+".arff"), v, 16, pos, neg)
	}
	c := row.Counts
	if c.TrainPos != len(sets["train"][0]) || c.TestNeg != len(sets["test"][1]) {
		t.Errorf("the report counts %+v, the files differ", c)
	}

	// The theory file, scored on the test files, gets the table's accuracy.
	th := experimenttest.Read(t, filepath.Join(dir, "nltcs.theory"), v, experimenttest.ReadTheory)
	correct, total := score(th, sets["test"][0], sets["test"][1])
	if correct != row.Correct || total != row.Total || total != QuickExamples {
		t.Errorf("the theory file gets %d of %d; the report says %d of %d", correct, total, row.Correct, row.Total)
	}
	if got, want := strings.Trim(cells[0], "*"), fmt.Sprintf("%.1f", 100*float64(correct)/float64(total)); got != want {
		t.Errorf("the table says Poss. %s, the theory file gets %s", got, want)
	}
	size := experimenttest.Literals(th.Levels)
	if size != row.Hypothesis.NumLiterals() || !strings.Contains(md, fmt.Sprintf("| NLTCS | %d (%d, ", size, row.Hypothesis.NumClauses())) {
		t.Errorf("the theory file has %d literals; the report says %d", size, row.Hypothesis.NumLiterals())
	}

	// The linear and lex theory files, read back and scored under their
	// semantics, get the table's accuracies.
	test, err := learn.FromRules(v, sets["test"][0], sets["test"][1])
	if err != nil {
		t.Fatal(err)
	}
	for k, sem := range []possibilistic.Semantics{possibilistic.Linear, possibilistic.Lex} {
		m, err := learn.FromTheory(experimenttest.Read(t, filepath.Join(dir, "nltcs."+sem.String()+".theory"), v, experimenttest.ReadTheory))
		if err != nil {
			t.Fatal(err)
		}
		c, n := learn.Score(m, test, 1, sem)
		if got, want := strings.Trim(cells[1+k], "*"), fmt.Sprintf("%.1f", 100*float64(c)/float64(n)); got != want || n != QuickExamples {
			t.Errorf("the table says %v %s, the theory file gets %s of %d", sem, got, want, n)
		}
		if l := row.Semantics[1+k]; l.Semantics != sem || l.Correct != c || l.Learning.Validation == nil || l.Learning.Validation.Skipped != "" {
			t.Errorf("the report's %v run: %v, %d correct, validation %+v", sem, l.Semantics, l.Correct, l.Learning.Validation)
		}
	}

	d := row.Diagnostics
	if d.Consistent+d.Inconsistent != total || d.ConsistentCorrect+d.InconsistentCorrect != correct ||
		d.ConsistentCorrect > d.Consistent || d.SignRule < 0 || d.SignRule > 1 {
		t.Errorf("diagnostics %+v do not add up to %d of %d", d, correct, total)
	}
	if pos := sum(d.Positives); pos != row.Counts.TestPos || len(d.Positives) != row.Network.Atoms {
		t.Errorf("%d positive test examples by atom over %d atoms, want %d over %d", pos, len(d.Positives), row.Counts.TestPos, row.Network.Atoms)
	}
	experimenttest.CheckBaselines(t, q, &row.Row, QuickExamples)

	// The labels are MAP entailment in the network written out.
	checkLabels(t, net, append(append([]logic.Rule(nil), sets["train"][0]...), sets["test"][0]...), true)
	checkLabels(t, net, append(append([]logic.Rule(nil), sets["train"][1]...), sets["test"][1]...), false)

	for i := range DefaultFolds { // each fold's validation curve, beside the pooled one
		if _, err := os.Stat(filepath.Join(dir, "nltcs", fmt.Sprintf("validation-fold%d.csv", i+1))); err != nil {
			t.Error(err)
		}
	}
	// The number of iterations was chosen by cross-validation on the
	// training examples: every one is held out once, by one of the folds.
	if vl := experimenttest.Chosen(t, row.Learning); vl != nil && (vl.Folds != DefaultFolds || vl.Held != QuickExamples ||
		len(vl.Selection.Folds) != DefaultFolds || len(row.Learning.History) > vl.Chosen ||
		vl.FitExamples < QuickExamples*(DefaultFolds-1)/DefaultFolds-10 || vl.FitExamples > QuickExamples*(DefaultFolds-1)/DefaultFolds+10) {
		t.Errorf("chose %d iterations, final run %d iterations, %d folds (%d runs), %d examples held out, %d learned from on average",
			vl.Chosen, len(row.Learning.History), vl.Folds, len(vl.Selection.Folds), vl.Held, vl.FitExamples)
	}
}

// score counts the examples that th classifies correctly, a default being
// predicted when (Θ, α) ⊢poss β.
func score(th *possibilistic.Theory, pos, neg []logic.Rule) (correct, total int) {
	ctx := context.Background()
	r, err := possibilistic.NewReasoner(ctx, th)
	if err != nil {
		panic(err)
	}
	for i, rules := range [][]logic.Rule{pos, neg} {
		for _, rule := range rules {
			if ok, _ := r.Entails(ctx, possibilistic.Poss, rule.Antecedent, rule.Consequent); ok == (i == 0) {
				correct++
			}
			total++
		}
	}
	return correct, total
}

// checkARFF decodes the ARFF file by its attribute names and checks that
// its rows are the positive then the negative examples, in file order.
func checkARFF(t *testing.T, path string, v *logic.Vocabulary, atoms int, pos, neg []logic.Rule) {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var attrs []string
	var rows [][]string
	inData := false
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "%"):
		case strings.EqualFold(line, "@data"):
			inData = true
		case inData:
			rows = append(rows, strings.Split(line, ","))
		case strings.HasPrefix(strings.ToLower(line), "@attribute"):
			attrs = append(attrs, strings.Fields(line)[1])
		}
	}
	if len(attrs) != 4*atoms+1 || attrs[len(attrs)-1] != "class" {
		t.Fatalf("%s: %d attributes, want %d ending in class", path, len(attrs), 4*atoms+1)
	}
	var want []string
	for i, rules := range [][]logic.Rule{pos, neg} {
		for _, r := range rules {
			want = append(want, canonical(r.String(v), i == 0))
		}
	}
	if len(rows) != len(want) {
		t.Fatalf("%s: %d rows for %d examples", path, len(rows), len(want))
	}
	for i, row := range rows {
		if len(row) != len(attrs) {
			t.Fatalf("%s row %d: %d values", path, i+1, len(row))
		}
		var ante, cons []string
		for j, val := range row[:len(row)-1] {
			if val == "0" {
				continue
			}
			if val != "1" {
				t.Fatalf("%s row %d: value %q", path, i+1, val)
			}
			name, rest, _ := strings.Cut(attrs[j], "_")
			lit := name
			if strings.HasSuffix(rest, "_neg") {
				lit = "!" + name
			}
			if strings.HasPrefix(rest, "ante") {
				ante = append(ante, lit)
			} else {
				cons = append(cons, lit)
			}
		}
		if len(ante) < 1 || len(ante) > 5 || len(cons) != 1 {
			t.Errorf("%s row %d: antecedent %v, consequent %v", path, i+1, ante, cons)
		}
		got := canonical(strings.Join(ante, ", ")+" -> "+strings.Join(cons, ", "), row[len(row)-1] == "positive")
		if got != want[i] {
			t.Fatalf("%s row %d decodes to %s; the example files say %s", path, i+1, got, want[i])
		}
	}
}

// canonical writes a rule "l1, l2 -> l3" with sorted antecedent literals,
// and its label.
func canonical(rule string, positive bool) string {
	ante, cons, _ := strings.Cut(rule, "->")
	lits := strings.Split(ante, ",")
	for i := range lits {
		lits[i] = strings.TrimSpace(lits[i])
	}
	slices.Sort(lits)
	return fmt.Sprintf("%s -> %s (%v)", strings.Join(lits, ", "), strings.TrimSpace(cons), positive)
}

// checkLabels checks that every rule α |~ β has the label positive by brute
// force over all worlds: positive iff every world of α with the best score
// (to 1e-9) satisfies β.
func checkLabels(t *testing.T, net *mln.Network, rules []logic.Rule, positive bool) {
	t.Helper()
	n := net.NumAtoms()
	scores := make([]float64, 0, 1<<n)
	worlds := make([][]bool, 0, 1<<n)
	logic.ForEachWorld(n, func(w []bool) bool {
		s, ok := net.Score(w)
		if !ok {
			s = math.Inf(-1)
		}
		scores = append(scores, s)
		worlds = append(worlds, slices.Clone(w))
		return true
	})
	for _, r := range rules {
		alpha, beta, ok := r.Clausal()
		if !ok || len(beta) != 1 {
			t.Fatalf("example %s is not α |~ literal", r.String(net.Vocab))
		}
		best := math.Inf(-1)
		for i, w := range worlds {
			if alpha.Holds(w) {
				best = max(best, scores[i])
			}
		}
		entailed := true
		for i, w := range worlds {
			if alpha.Holds(w) && scores[i] > best-1e-9 && !beta[0].Holds(w) {
				entailed = false
				break
			}
		}
		if entailed != positive {
			t.Fatalf("%s is labelled %v; brute-force MAP says %v", r.String(net.Vocab), positive, entailed)
		}
	}
}

// TestQuickDeterministic: without a timeout, a seed fixes the examples and
// the theory.
func TestQuickDeterministic(t *testing.T) {
	data := dataRoot(t)
	experimenttest.CheckDeterministic(t, func(dir string) error {
		_, err := Reproduce(context.Background(), Options{Settings: benchSettings(experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 7}), Train: 100, Test: 50})
		return err
	}, "nltcs.theory", "nltcs/train.defaults", "nltcs/test.nondefaults", "nltcs/train.arff")
}

func TestNoValidation(t *testing.T) {
	data := dataRoot(t)
	dir := t.TempDir()
	rep, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 1, Learning: learntest.Legacy(learn.Settings{Iterations: 3})}, Train: 60, Test: 40})
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Rows[0]
	experimenttest.CheckNoValidation(t, row.Learning, 3, filepath.Join(dir, "nltcs"))
	if row.Total != 40 || row.Counts.TrainPos+row.Counts.TrainNeg != 60 {
		t.Errorf("%d test examples, counts %+v", row.Total, row.Counts)
	}
}

func TestOptionErrors(t *testing.T) {
	experimenttest.CheckErrors(t, reproduce, "dataset", "dna", "debd/dna")
}

// TestNegativeCounts: a negative number of training examples is refused.
func TestNegativeCounts(t *testing.T) {
	dir := t.TempDir()
	if _, err := Reproduce(context.Background(), Options{Settings: experiment.Settings{Data: dir, Dir: dir}, Train: -1}); err == nil || !strings.Contains(err.Error(), "-1 training") {
		t.Errorf("error %v, want -1 training", err)
	}
}

// BenchmarkQuick measures the small reproduction without Weka: learning the
// NLTCS network, drawing and labelling 200 + 200 examples, the validation
// and final learning runs, scoring, and writing the files.
func BenchmarkQuick(b *testing.B) {
	experimenttest.Bench(b, dataRoot(b), reproduce)
}

// TestQuickPrune runs the small version with support pruning: each final
// theory (read back from its file) keeps only clauses that more training
// examples need than the threshold its validation chose, and the report
// says so.
func TestQuickPrune(t *testing.T) {
	for _, folds := range []int{DefaultFolds, 1} {
		t.Run(fmt.Sprintf("folds=%d", folds), func(t *testing.T) { checkQuickPrune(t, folds) })
	}
}

// checkQuickPrune checks a small run with pruning whose validation has the
// given folds (1: one held-out part).
func checkQuickPrune(t *testing.T, folds int) {
	data := dataRoot(t)
	dir := t.TempDir()
	rep, err := Reproduce(context.Background(), Options{Settings: benchSettings(experiment.Settings{Data: data, Dir: dir, Quick: true, Seed: 3, Learning: learn.Settings{Prune: true, Folds: folds}}), Train: 200, Test: 50})
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Rows[0]
	want := 0 // one held-out part
	if folds > 1 {
		want = folds
	}
	for _, l := range row.Semantics {
		if v := l.Learning.Validation; v == nil || v.Folds != want || len(v.Selection.Folds) != want {
			t.Fatalf("%v: validation %+v, want %d folds", l.Semantics, v, want)
		}
	}
	net, err := mln.ReadNetworkFile(filepath.Join(dir, "nltcs", "nltcs.mln"))
	if err != nil {
		t.Fatal(err)
	}
	v := net.Vocab
	train, err := learn.FromRules(v,
		defaultrules.Rules(experimenttest.Read(t, filepath.Join(dir, "nltcs", "train.defaults"), v, defaultrules.ReadRules)),
		defaultrules.Rules(experimenttest.Read(t, filepath.Join(dir, "nltcs", "train.nondefaults"), v, defaultrules.ReadRules)))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range row.Semantics {
		lr := l.Learning
		sup, pr := lr.Validation.Support, lr.Pruned
		if sup == nil || pr == nil {
			t.Fatalf("%v: no pruning recorded", l.Semantics)
		}
		best := sup.Accuracy[sup.Best]
		for k, a := range sup.Accuracy {
			if a > best || (k > sup.Chosen && a >= best-sup.StdErr) || (k == sup.Chosen && a < best-sup.StdErr) {
				t.Fatalf("%v: threshold %d of %v chosen against the one-standard-error rule (s.e. %v)", l.Semantics, sup.Chosen, sup.Accuracy, sup.StdErr)
			}
		}
		name := "nltcs.theory"
		if l.Semantics != possibilistic.Poss {
			name = "nltcs." + l.Semantics.String() + ".theory"
		}
		m, err := learn.FromTheory(experimenttest.Read(t, filepath.Join(dir, name), v, experimenttest.ReadTheory))
		if err != nil {
			t.Fatal(err)
		}
		if m.NumLiterals() != pr.After || pr.After > pr.Before {
			t.Errorf("%v: the theory file has %d literals; the report says %d → %d", l.Semantics, m.NumLiterals(), pr.Before, pr.After)
		}
		supports, err := learn.Supports(context.Background(), learn.Problem{Vocab: v, Train: train}, m, learn.Settings{Semantics: l.Semantics})
		if err != nil {
			t.Fatal(err)
		}
		for k, s := range supports {
			if s <= pr.Threshold {
				t.Errorf("%v: clause %d has support %d, at most the threshold %d", l.Semantics, k, s, pr.Threshold)
			}
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "results.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| support pruning |") {
		t.Error("results.md has no support pruning column")
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
