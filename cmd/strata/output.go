package main

import (
	"encoding/json"
	"errors"
	"io"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/fileutil"
)

// The outputs of the commands, in one style (docs/cli-conventions.md):
// results as text on standard output, or with --json as one JSON object;
// files named by -o written atomically, "-" being standard output as it is
// standard input for every input.

// writeJSON writes v on w as strata writes every JSON document: indented
// by two spaces, one object per document, formulas as written ("a -> b",
// not "a -\u003e b").
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// stdout reports whether the value of an output flag means standard
// output: empty (the flag not given) or "-".
func stdout(path string) bool { return path == "" || path == "-" }

// writeOutput writes to the file path atomically, or to the command's
// standard output when path is "" or "-".
func writeOutput(cmd *cobra.Command, path string, write func(io.Writer) error) error {
	if stdout(path) {
		return write(cmd.OutOrStdout())
	}
	return fileutil.WriteAtomic(path, write)
}

// writeTheoryOutputs writes a command's file (a theory: text) to -o out,
// and its result: with --json, view() on standard output (then the file
// only with -o FILE), else the text on standard output when out is empty
// or "-".
func writeTheoryOutputs(cmd *cobra.Command, out string, asJSON bool, text func(io.Writer) error, view func() (any, error)) error {
	if !asJSON {
		return writeOutput(cmd, out, text)
	}
	if err := checkJSONOutput(asJSON, out); err != nil {
		return err
	}
	v, err := view()
	if err != nil {
		return err
	}
	if !stdout(out) {
		if err := writeOutput(cmd, out, text); err != nil {
			return err
		}
	}
	return writeJSON(cmd.OutOrStdout(), v)
}

// checkJSONOutput refuses --json with -o -: both would write standard
// output.
func checkJSONOutput(asJSON bool, out string) error {
	if asJSON && out == "-" {
		return usageError{errors.New("-o - and --json both write standard output: give -o FILE, or leave -o out (the JSON holds the result)")}
	}
	return nil
}

// checkOutputDir checks the -o of a command that writes a directory:
// given, and not "-", which names standard output.
func checkOutputDir(dir string) error {
	switch dir {
	case "":
		return usageError{errors.New("give the output directory with -o DIR")}
	case "-":
		return usageError{errors.New("-o -: this command writes a directory, not standard output; give -o DIR")}
	}
	return nil
}
