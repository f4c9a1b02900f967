package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/fileutil"
)

// exampleFiles holds the built-in examples: the files that strata
// examples writes and that the help, the README and docs/ name as
// examples/NAME.
//
//go:embed examples
var exampleFiles embed.FS

// exampleAbout says what each example file is; TestExamplesCommand checks
// that every embedded file has a line here.
var exampleAbout = map[string]string{
	"penguin.theory":            "the paper's penguin theory (strata demo reasons with it)",
	"wings.theory":              "penguins with wings: where poss, linear and lex differ",
	"bad.theory":                "a theory with a syntax error, to see an error message",
	"animals.theory":            "the hidden theory of strata learn's built-in example",
	"animals/train.defaults":    "training defaults of the built-in learning example (5% of labels flipped)",
	"animals/train.nondefaults": "negative training examples of the built-in learning example",
	"animals/test.defaults":     "test defaults of the built-in learning example",
	"animals/test.nondefaults":  "negative test examples of the built-in learning example",
	"penguins.rules":            "a default base: birds fly, penguins are birds that do not",
	"birds.cl":                  "birds, penguins and wings as a .cl knowledge base (InfOCF, CLKR)",
	"birds.clq":                 "queries about it, in the .clq format",
	"calls.csv":                 "20 play calls by 5 teams: an answer table for strata crowd table",
	"loans.csv":                 "120 loan decisions: a table for strata learn --table, predict and eval --table",
	"loans.theory":              "the theory strata learn --table examples/loans.csv --label decision --folds 3 learns",
	"applicants.csv":            "four new loan applicants, without a decision: a table for strata predict",
	"applicants.parquet":        "the same applicants as a Parquet file",
	"loans.arff":                "the loan decisions in Weka's ARFF, as a table for strata learn --table",
}

func init() { register(newExamplesCmd) }

func newExamplesCmd() *cobra.Command {
	var force, asJSON bool
	cmd := &cobra.Command{
		Use:   "examples [DIR]",
		Short: "Write the built-in example files to DIR (default ./examples)",
		Long: `examples writes the example files that strata's help, README and guides use
to DIR, ./examples when DIR is left out, and lists them: theories, default
bases, the data of the built-in learning example and an answer table. The
commands of the guides run in the directory that holds examples/.

A file that exists with the same content is left as it is; one that exists
with other content is an error (nothing is written) unless --force
overwrites it. Every file is written atomically, and a directory that did
not exist appears whole or not at all. --json prints the files written, each
with what it is, as JSON.`,
		Example: `  strata examples
  strata examples /tmp/strata-examples
  strata examples --force --json`,
		Args: argsBetween(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "examples"
			if len(args) == 1 {
				dir = args[0]
			}
			if dir == "-" {
				return usageError{errors.New("examples writes a directory, not standard output; give DIR")}
			}
			names, err := writeExamples(dir, force)
			if err != nil {
				return err
			}
			if asJSON {
				out := examplesView{Dir: dir, Files: []exampleView{}}
				for _, n := range names {
					out.Files = append(out.Files, exampleView{Path: filepath.ToSlash(filepath.Join(dir, n)), About: exampleAbout[n]})
				}
				return writeJSON(cmd.OutOrStdout(), out)
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			for _, n := range names {
				fmt.Fprintf(tw, "%s\t%s\n", filepath.ToSlash(filepath.Join(dir, n)), exampleAbout[n])
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite example files that exist with other content")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the files written as JSON")
	return cmd
}

// examplesView is strata examples --json: the directory and every file
// written there, with what it is.
type examplesView struct {
	Dir   string        `json:"dir"`
	Files []exampleView `json:"files"`
}

type exampleView struct {
	Path  string `json:"path"`
	About string `json:"about"`
}

// exampleNames lists the embedded example files, relative to examples/,
// in the order of a walk (sorted by path).
func exampleNames() ([]string, error) {
	var names []string
	err := fs.WalkDir(exampleFiles, "examples", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel("examples", p)
		names = append(names, filepath.ToSlash(rel))
		return nil
	})
	return names, err
}

// writeExamples writes the example files into dir and returns their names.
// Every file is checked before any is written: one that exists with other
// content is an error unless force. A dir that does not exist is filled in
// a temporary directory beside it and renamed.
func writeExamples(dir string, force bool) ([]string, error) {
	names, err := exampleNames()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return names, writeNewExamples(dir, names)
	}
	var write []string
	for _, n := range names {
		want, _ := exampleFiles.ReadFile(path.Join("examples", n))
		got, err := os.ReadFile(filepath.Join(dir, n))
		switch {
		case err == nil && bytes.Equal(got, want):
		case err == nil && !force:
			return nil, fmt.Errorf("%s exists and is not the built-in example (--force overwrites it)", filepath.Join(dir, n))
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, err
		default:
			write = append(write, n)
		}
	}
	for _, n := range write {
		if err := writeExample(dir, n); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// writeNewExamples writes every example into a temporary directory beside
// dir, then renames it to dir.
func writeNewExamples(dir string, names []string) (err error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for _, n := range names {
		if err := writeExample(tmp, n); err != nil {
			return err
		}
	}
	return os.Rename(tmp, dir)
}

// writeExample writes the example file name into dir, atomically.
func writeExample(dir, name string) error {
	data, err := exampleFiles.ReadFile(path.Join("examples", name))
	if err != nil {
		return err
	}
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return fileutil.WriteAtomic(p, func(w io.Writer) error { _, err := w.Write(data); return err })
}
