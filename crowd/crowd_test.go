package crowd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/weka"
	"github.com/strata-logic/strata/weka/wekatest"
)

func syntheticTable() *AnswerTable {
	t := &AnswerTable{Actions: []string{"fold", "call", "raise"}}
	rng := NewRand(5)
	for i := 0; i < 400; i++ {
		sit := []string{fmt.Sprintf("street_%d", rng.IntN(4))}
		if rng.IntN(2) == 0 {
			sit = append(sit, "you_have_a_flush")
		}
		act := t.Actions[rng.IntN(3)]
		if rng.IntN(10) == 0 {
			act = DontKnow
		}
		slices.Sort(sit)
		t.Answers = append(t.Answers, Answer{Situation: sit, Annotator: fmt.Sprintf("w%d", rng.IntN(12)), Action: act})
	}
	return t
}

func TestBuildAndWrite(t *testing.T) {
	tab := syntheticTable()
	d, err := Build("synthetic", tab, Options{TestFraction: 0.25, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := d.Write(dir); err != nil {
		t.Fatal(err)
	}
	checkOutput(t, dir, tab.Actions)
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Train.Answers+m.Test.Answers != 400 || m.Train.Positive != m.Train.Answers-m.Train.DontKnow {
		t.Fatalf("manifest counts %+v %+v", m.Train, m.Test)
	}
	if m.Test.Answers < 100 {
		t.Fatalf("test part %d answers for a fraction of 0.25 of 400", m.Test.Answers)
	}
	// The seed fixes every file.
	dir2 := t.TempDir()
	d2, _ := Build("synthetic", tab, Options{TestFraction: 0.25, Seed: 3})
	d2.Write(dir2)
	for name := range Files {
		a, _ := os.ReadFile(filepath.Join(dir, name))
		b, _ := os.ReadFile(filepath.Join(dir2, name))
		if string(a) != string(b) {
			t.Fatalf("%s differs between two runs with the same seed", name)
		}
	}
	folds, err := BuildFolds("synthetic", tab, 4, Options{Seed: 1})
	if err != nil || len(folds) != 4 {
		t.Fatal(err)
	}
	tested := 0
	for _, f := range folds {
		tested += len(f.Split.Test)
	}
	if tested != 400 {
		t.Fatalf("the folds test %d answers, want 400", tested)
	}
}

// checkOutput reads back an output directory and checks it against its
// manifest: every file parses, counts agree, no annotator is on both sides,
// the hard rules exclude every pair of actions, and the two ARFF tables
// share one header.
func checkOutput(t *testing.T, dir string, actions []string) *Manifest {
	t.Helper()
	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Actions, actions) {
		t.Fatalf("manifest actions %v, want %v", m.Actions, actions)
	}
	for _, a := range m.Test.Annotators {
		if slices.Contains(m.Train.Annotators, a) {
			t.Fatalf("annotator %s is on both sides", a)
		}
	}
	v := &logic.Vocabulary{}
	count := func(name string) []logic.Rule {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ds, err := defaults.ReadRules(f, name, v)
		if err != nil {
			t.Fatal(err)
		}
		return defaults.Rules(ds)
	}
	parts := []struct {
		name string
		want int
	}{{"train.defaults", m.Train.Positive}, {"train.nondefaults", m.Train.Negative},
		{"test.defaults", m.Test.Positive}, {"test.nondefaults", m.Test.Negative}}
	for _, p := range parts {
		if n := len(count(p.name)); n != p.want || n == 0 {
			t.Fatalf("%s holds %d rules, the manifest says %d", p.name, n, p.want)
		}
	}
	pos, neg := count("train.defaults"), count("train.nondefaults")
	for i := range pos {
		if !pos[i].Antecedent.Equal(neg[i].Antecedent) || pos[i].Consequent.Equal(neg[i].Consequent) {
			t.Fatalf("non-default %d is not the default's situation with another action", i+1)
		}
	}
	f, _ := os.Open(filepath.Join(dir, "hard.rules"))
	hard, err := defaults.ReadClauses(f, "hard.rules", v)
	f.Close()
	if err != nil || len(hard) != len(actions)*(len(actions)-1)/2 || m.HardRules != len(hard) {
		t.Fatalf("hard rules: %d, %v", len(hard), err)
	}
	for _, name := range []string{"train", "test"} {
		f, _ := os.Open(filepath.Join(dir, name+".typical"))
		cases, err := ReadCases(f, name+".typical", v, actions)
		f.Close()
		want := map[string]Part{"train": m.Train, "test": m.Test}[name]
		if err != nil || len(cases) != want.Situations {
			t.Fatalf("%s.typical: %d cases, manifest %d, %v", name, len(cases), want.Situations, err)
		}
		rows := arffRows(t, filepath.Join(dir, name+".arff"))
		if rows != want.Situations {
			t.Fatalf("%s.arff: %d rows, want %d", name, rows, want.Situations)
		}
	}
	h1, _ := arffHeader(t, filepath.Join(dir, "train.arff"))
	h2, _ := arffHeader(t, filepath.Join(dir, "test.arff"))
	if h1 != h2 {
		t.Fatal("train.arff and test.arff have different attributes")
	}
	return m
}

func arffHeader(t *testing.T, path string) (string, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, body, ok := strings.Cut(string(data), "@data\n")
	if !ok {
		t.Fatalf("%s: no @data", path)
	}
	var attrs []string
	for _, l := range strings.Split(head, "\n") {
		if strings.HasPrefix(l, "@attribute") {
			attrs = append(attrs, l)
		}
	}
	return strings.Join(attrs, "\n"), strings.Split(strings.TrimSpace(body), "\n")
}

func arffRows(t *testing.T, path string) int {
	h, rows := arffHeader(t, path)
	n := strings.Count(h, "\n") + 1
	for i, r := range rows {
		if strings.Count(r, ",") != n-1 {
			t.Fatalf("%s: row %d has %d values, want %d", path, i+1, strings.Count(r, ",")+1, n)
		}
	}
	return len(rows)
}

// runBaselines checks that Weka reads the ARFF files, when it is installed.
func runBaselines(t *testing.T, dir string) {
	r := wekatest.Runner(t)
	if r == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := r.Run(ctx, weka.J48, filepath.Join(dir, "train.arff"), filepath.Join(dir, "test.arff"))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := ReadManifest(dir)
	if res.Total != m.Test.Situations || res.TreeSize < 1 {
		t.Fatalf("J48 tested %d situations (want %d), tree of %d nodes", res.Total, m.Test.Situations, res.TreeSize)
	}
}

// BuildSplit keeps the caller's split, annotators on both sides included;
// a table's vocabulary fixes the attributes, used or not.
func TestBuildSplitAndVocabulary(t *testing.T) {
	tab := syntheticTable()
	tab.Descriptors = []string{"street_0", "street_1", "street_2", "street_3", "street_4", "you_have_a_flush"}
	split := Split{Train: tab.Answers[:300], Test: tab.Answers[300:]}
	d, err := BuildSplit("synthetic", tab, split, "the last 100 answers", Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	m := d.Manifest
	if m.Split != "the last 100 answers" || m.Train.Answers != 300 || m.Test.Answers != 100 || len(m.BothSides) == 0 || m.TestFraction != 0 {
		t.Fatalf("manifest %+v", m)
	}
	for _, a := range []*weka.ARFF{d.TrainARFF, d.TestARFF} {
		if len(a.Attributes) != 7 || a.Attributes[4].Name != "street_4" {
			t.Fatalf("attributes %+v", a.Attributes)
		}
	}
	if _, err := BuildSplit("x", tab, Split{Train: tab.Answers}, "none", Options{}); err == nil {
		t.Fatal("empty test part accepted")
	}
	tab.Descriptors = []string{"street_0"}
	if _, err := Build("x", tab, Options{}); err == nil || !strings.Contains(err.Error(), "not in the vocabulary") {
		t.Fatalf("descriptor outside the vocabulary: %v", err)
	}
	// Without a vocabulary, the attributes are the descriptors seen.
	tab.Descriptors = nil
	d, err = Build("x", tab, Options{Seed: 1})
	if err != nil || len(d.TrainARFF.Attributes) != 6 || d.Manifest.Split == "" {
		t.Fatalf("%v %+v", err, d.TrainARFF.Attributes)
	}
}
