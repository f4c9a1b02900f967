package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

var update = flag.Bool("update", false, "rewrite the generated files: the built-in example's data in examples/animals and docs/cli.md (go generate ./cmd/strata)")

// TestExampleFiles checks the example files that have a source of truth in
// the code: animals/ holds the built-in learning example's data, drawn
// from the hidden theory examples/animals.theory (-update rewrites them).
func TestExampleFiles(t *testing.T) {
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
		p := filepath.Join("examples", "animals", name)
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
			t.Errorf("%s is not the built-in example's data (%v); rewrite it with go test ./cmd/strata -run ExampleFiles -update", p, err)
		}
	}
}

// TestExamplesCommand checks strata examples: it writes every embedded
// file, each of which it describes; a second run changes nothing; a file
// with other content stops it before it writes anything, unless --force.
func TestExamplesCommand(t *testing.T) {
	names, err := exampleNames()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != len(exampleAbout) {
		t.Errorf("%d example files, %d descriptions: every file needs one line in exampleAbout", len(names), len(exampleAbout))
	}
	dir := filepath.Join(t.TempDir(), "sub", "examples")
	out, errs, code := strata(t, "", "examples", dir)
	if code != 0 || errs != "" || strings.Count(out, "\n") != len(names) {
		t.Fatalf("examples: exit %d, stderr %q, stdout\n%s", code, errs, out)
	}
	for _, n := range names {
		if exampleAbout[n] == "" {
			t.Errorf("%s has no description", n)
		}
		want, _ := exampleFiles.ReadFile("examples/" + n)
		got, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: not written as embedded (%v)", n, err)
		}
		if !strings.Contains(out, filepath.ToSlash(filepath.Join(dir, n))+" ") {
			t.Errorf("the listing lacks %s:\n%s", n, out)
		}
	}
	again, _, code := strata(t, "", "examples", dir)
	if code != 0 || again != out {
		t.Errorf("a second run: exit %d\n%s", code, again)
	}
	changed := filepath.Join(dir, "penguin.theory")
	os.WriteFile(changed, []byte("1: mine\n"), 0o644)
	os.Remove(filepath.Join(dir, "wings.theory"))
	_, errs, code = strata(t, "", "examples", dir)
	if b, _ := os.ReadFile(changed); code != 1 || !strings.Contains(errs, "penguin.theory exists and is not the built-in example (--force overwrites it)") || string(b) != "1: mine\n" {
		t.Errorf("a changed file: exit %d, %q, file %q", code, errs, b)
	}
	if _, err := os.Stat(filepath.Join(dir, "wings.theory")); err == nil {
		t.Errorf("a refused run wrote a file")
	}
	if _, errs, code = strata(t, "", "examples", "--force", dir); code != 0 {
		t.Fatalf("--force: exit %d %q", code, errs)
	}
	if b, _ := os.ReadFile(changed); string(b) != penguinTheory {
		t.Errorf("--force did not overwrite: %q", b)
	}
	if _, errs, code = strata(t, "", "examples", "-"); code != 2 {
		t.Errorf("examples -: exit %d %q", code, errs)
	}
}

// TestExampleFilesNamed checks that every example file the help names
// (examples/NAME in a command's description, examples or flags) and every
// one strata demo and strata learn print is one strata examples writes.
func TestExampleFilesNamed(t *testing.T) {
	names, _ := exampleNames()
	known := map[string]bool{}
	for _, n := range names {
		known["examples/"+n] = true
	}
	re := regexp.MustCompile(`\bexamples/[A-Za-z0-9_./-]*[A-Za-z0-9_]`)
	check := func(where, text string) {
		for _, m := range re.FindAllString(text, -1) {
			if !known[m] {
				t.Errorf("%s names %s, which strata examples does not write", where, m)
			}
		}
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		text := c.Long + "\n" + c.Example
		c.LocalFlags().VisitAll(func(f *pflag.Flag) { text += "\n" + f.Usage })
		check(c.CommandPath(), text)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot())
	out, errs, _ := strata(t, "", "demo")
	check("strata demo", out+errs)
	out, errs, _ = strata(t, "", "learn", "--iterations", "2")
	check("strata learn", out+errs)
	if !strings.Contains(errs, "examples/animals.theory") {
		t.Errorf("strata learn does not name the hidden theory's file:\n%s", errs)
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
	fmt.Fprintf(&b, "# The built-in example of strata learn: %s defaults drawn from the hidden theory\n# examples/animals.theory%s.\n", what, noise)
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
