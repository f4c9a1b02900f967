package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

var update = flag.Bool("update", false, "rewrite the generated files of ../../examples (go test ./cmd/strata -run ExampleFiles -update)")

// TestExampleFiles checks the files of examples/ that have a source of
// truth in the code: penguin.theory is the built-in theory of strata demo,
// and animals/ holds the built-in learning example's data, drawn from the
// hidden theory cmd/strata/examples/animals.theory (-update rewrites them).
func TestExampleFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "examples")
	b, err := os.ReadFile(filepath.Join(dir, "penguin.theory"))
	if err != nil || string(b) != penguinTheory {
		t.Errorf("examples/penguin.theory differs from the built-in cmd/strata/examples/penguin.theory (%v)", err)
	}
	d, err := builtinExample(&learnData{vocab: &logic.Vocabulary{}})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, set := range []struct {
		name, noise string
		ex          *learn.Examples
	}{{"train", ", 5% of all training labels flipped", d.train}, {"test", "", d.test}} {
		for _, positive := range []bool{true, false} {
			name := set.name + ".defaults"
			if !positive {
				name = set.name + ".nondefaults"
			}
			files[name] = examplesText(d.vocab, set.ex, positive, set.noise)
		}
	}
	for name, want := range files {
		p := filepath.Join(dir, "animals", name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != want {
			t.Errorf("%s is not the built-in example's data (%v); rewrite it with -update", p, err)
		}
	}
}

// examplesText writes the examples of one label as a rule dataset, each as
// many times as it was drawn.
func examplesText(v *logic.Vocabulary, ex *learn.Examples, positive bool, noise string) string {
	var b strings.Builder
	what := "positive"
	if !positive {
		what = "negative"
	}
	fmt.Fprintf(&b, "# The built-in example of strata learn: %s defaults drawn from the hidden theory\n# cmd/strata/examples/animals.theory%s.\n", what, noise)
	for _, e := range ex.List {
		if e.Positive != positive {
			continue
		}
		for range e.Count {
			fmt.Fprintf(&b, "%s -> %s\n", v.Join(e.Alpha, ", "), v.Join(e.Beta, ", "))
		}
	}
	return b.String()
}
