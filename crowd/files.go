package crowd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
)

// Write writes the datasets into dir, created if needed, whole: every file
// into a temporary directory that then replaces dir (fileutil.WriteDir), so
// that an interrupted or failed run leaves dir as it was and a finished one
// leaves no output of an earlier run (fold directories included). Files of
// dir that Write does not write (a theory learned from them) are kept. See
// Files for what each file holds.
func (d *Datasets) Write(dir string) error {
	return fileutil.WriteDir(dir, ownedOutput, d.writeFiles)
}

// WriteFolds writes the datasets of a cross-validation into dir/fold1 …
// dir/foldK, whole, as Write writes one split: the other outputs of an
// earlier run in dir (more folds, or one split) are gone.
func WriteFolds(dir string, folds []*Datasets) error {
	return fileutil.WriteDir(dir, ownedOutput, func(tmp string) error {
		for i, d := range folds {
			sub := filepath.Join(tmp, FoldDir(i))
			if err := os.Mkdir(sub, 0o755); err != nil {
				return err
			}
			if err := d.writeFiles(sub); err != nil {
				return err
			}
		}
		return nil
	})
}

// FoldDir is the directory of the i-th fold (from 0) in WriteFolds's
// output: fold1, fold2, …
func FoldDir(i int) string { return "fold" + strconv.Itoa(i+1) }

// outputFiles are the files Write writes.
var outputFiles = []string{"train.defaults", "train.nondefaults", "test.defaults", "test.nondefaults", "hard.rules",
	"train.typical", "test.typical", "train.arff", "test.arff", "manifest.json"}

// ownedOutput reports whether an entry of an output directory is an output
// of Write or WriteFolds, which a new run replaces.
func ownedOutput(name string, isDir bool) bool {
	if isDir {
		n, ok := strings.CutPrefix(name, "fold")
		k, err := strconv.Atoi(n)
		return ok && err == nil && k > 0 && strconv.Itoa(k) == n
	}
	return slices.Contains(outputFiles, name)
}

// writeFiles writes the files of the datasets into the directory dir.
func (d *Datasets) writeFiles(dir string) error {
	rules := func(rs []logic.Rule) func(io.Writer) error {
		return func(w io.Writer) error { return defaults.WriteRules(w, d.Vocab, rs) }
	}
	var mb bytes.Buffer // without HTML escaping, as every JSON strata writes
	enc := json.NewEncoder(&mb)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d.Manifest); err != nil {
		return err
	}
	manifest := bytes.TrimSuffix(mb.Bytes(), []byte("\n"))
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"train.defaults", rules(d.TrainPos)},
		{"train.nondefaults", rules(d.TrainNeg)},
		{"test.defaults", rules(d.TestPos)},
		{"test.nondefaults", rules(d.TestNeg)},
		{"hard.rules", func(w io.Writer) error { return defaults.WriteClauses(w, d.Vocab, d.Hard) }},
		{"train.typical", func(w io.Writer) error { return writeTypical(w, d.Descriptors, d.TrainSituations) }},
		{"test.typical", func(w io.Writer) error { return writeTypical(w, d.Descriptors, d.TestSituations) }},
		{"train.arff", d.TrainARFF.Write},
		{"test.arff", d.TestARFF.Write},
		{"manifest.json", func(w io.Writer) error { _, err := w.Write(append(manifest, '\n')); return err }},
	}
	for _, f := range files {
		if !slices.Contains(outputFiles, f.name) {
			panic("crowd: " + f.name + " is not among the output files")
		}
		if err := fileutil.WriteAtomic(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}

// writeTypical writes "situation -> typical action  # counts" lines after
// a comment naming the descriptors, the attributes of the ARFF tables.
func writeTypical(w io.Writer, descriptors []string, sits []Situation) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# situation -> most typical action (%s when none is); answers per option after '#'\n", NoAction)
	fmt.Fprintf(bw, "# %d descriptors: %s\n", len(descriptors), strings.Join(descriptors, " "))
	for _, s := range sits {
		fmt.Fprintf(bw, "%s -> %s  # %s\n", strings.Join(s.Descriptors, ", "), s.Typical, countsText(s.Counts))
	}
	return bw.Flush()
}

func countsText(counts map[string]int) string {
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, k := range keys {
		name := k
		if k == DontKnow {
			name = "don't know"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, counts[k]))
	}
	return strings.Join(parts, ", ")
}

// Case is a situation of the multi-class task with its most typical
// action (or NoAction) as its target.
type Case = eval.Case

// ReadCases reads a *.typical file: "d1, d2 -> action" lines (blank lines
// and '#' comments ignored) whose consequent is one of actions or
// NoAction. Atoms are interned in v. Errors name file, line and
// column.
func ReadCases(r io.Reader, name string, v *logic.Vocabulary, actions []string) ([]Case, error) {
	var cases []Case
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		at := logic.Position{File: name, Line: line}
		rule, err := logic.ParseRuleAt(v, at, text)
		if err != nil {
			return err
		}
		alpha, ok := rule.Antecedent.AsTerm()
		if !ok {
			return logic.Errorf(at, "the situation must be a conjunction of descriptors")
		}
		target := ""
		if a, ok := rule.Consequent.AsLit(); ok && !a.IsNeg() {
			target = v.Name(a.Atom())
		}
		if target != NoAction && !slices.Contains(actions, target) {
			return logic.Errorf(at, "the consequent must be one action of %s or %s", strings.Join(actions, ", "), NoAction)
		}
		cases = append(cases, Case{Situation: alpha, Target: target})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cases, nil
}

// ReadManifest reads the manifest.json of an output directory.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "manifest.json"), err)
	}
	return &m, nil
}
