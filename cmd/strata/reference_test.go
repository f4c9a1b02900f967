package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// referenceFile is the CLI reference, generated from the commands by
// TestCLIReference -update (go generate ./cmd/strata).
var referenceFile = filepath.Join("..", "..", "docs", "cli.md")

// TestCLIReference checks that docs/cli.md is what the commands say of
// themselves: their usage, description, examples and flags, and the
// vocabulary of flag names. With -update it writes it.
func TestCLIReference(t *testing.T) {
	want := renderReference(newRoot())
	if *update {
		if err := os.WriteFile(referenceFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(referenceFile)
	if err != nil || string(got) != want {
		t.Fatalf("%s is not what the commands say (%v): regenerate it with go generate ./cmd/strata", referenceFile, err)
	}
}

// renderReference writes the CLI reference of the command tree.
func renderReference(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString(`# Command-line reference

<!-- Generated from the commands by go generate ./cmd/strata (TestCLIReference); do not edit. -->

Every command, as ` + "`strata help COMMAND`" + ` prints it. The names of the flags follow the
[CLI conventions](cli-conventions.md); the table at the end gives every flag's one meaning.

`)
	var all []*cobra.Command
	var collect func(c *cobra.Command)
	collect = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		all = append(all, c)
		for _, sub := range c.Commands() {
			collect(sub)
		}
	}
	collect(root)
	for _, c := range all {
		fmt.Fprintf(&b, "- [%s](#%s): %s\n", c.CommandPath(), anchor(c.CommandPath()), c.Short)
	}
	for _, c := range all {
		renderCommand(&b, c)
	}
	renderVocabulary(&b, all)
	return b.String()
}

// anchor is the anchor GitHub gives a heading.
func anchor(heading string) string {
	return strings.ReplaceAll(strings.ToLower(heading), " ", "-")
}

func renderCommand(b *strings.Builder, c *cobra.Command) {
	fmt.Fprintf(b, "\n## %s\n\n%s\n\n", c.CommandPath(), c.Short)
	fmt.Fprintf(b, "```text\n%s\n", c.UseLine())
	if c.Long != "" {
		fmt.Fprintf(b, "\n%s\n", strings.TrimRight(c.Long, "\n"))
	}
	b.WriteString("```\n")
	if c.Example != "" {
		fmt.Fprintf(b, "\nExamples:\n\n```sh\n%s\n```\n", c.Example)
	}
	var subs []string
	for _, sub := range c.Commands() {
		if !sub.Hidden && sub.Name() != "help" && sub.Name() != "completion" {
			subs = append(subs, fmt.Sprintf("[%s](#%s)", sub.Name(), anchor(sub.CommandPath())))
		}
	}
	if len(subs) > 0 {
		fmt.Fprintf(b, "\nCommands: %s.\n", strings.Join(subs, ", "))
	}
	var rows []string
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Name == "help" {
			return
		}
		name := "`--" + f.Name + "`"
		if f.Shorthand != "" {
			name = "`-" + f.Shorthand + "`, " + name
		}
		def := f.DefValue
		switch {
		case f.Value.Type() == "bool" && def == "false", def == "" || def == "[]" || def == "0" || def == "0s":
			def = ""
		default:
			def = "`" + def + "`"
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", name, cell(valueType(f)), def, cell(f.Usage)))
	})
	if len(rows) > 0 {
		b.WriteString("\n| flag | value | default | meaning |\n|---|---|---|---|\n")
		b.WriteString(strings.Join(rows, "\n") + "\n")
	}
}

// valueType names the kind of value a flag takes: the words of a flag
// that takes one of a few, else its type.
func valueType(f *pflag.Flag) string {
	if ch, ok := f.Value.(chooser); ok {
		sep := "|"
		if f.Value.Type() == "list" {
			sep = ","
		}
		return strings.Join(ch.Choices(), sep)
	}
	if f.Value.Type() == "bool" {
		return ""
	}
	return f.Value.Type()
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

func renderVocabulary(b *strings.Builder, all []*cobra.Command) {
	users := map[string][]string{}
	for _, c := range all {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				users[f.Name] = append(users[f.Name], strings.TrimPrefix(c.CommandPath(), "strata "))
			}
		})
	}
	var names []string
	for n := range flagMeanings {
		names = append(names, n)
	}
	slices.Sort(names)
	b.WriteString("\n## Flags across commands\n\nEach flag name has one meaning in every command that has it (`flagMeanings`, checked by\n`TestFlagVocabulary`).\n\n| flag | meaning | commands |\n|---|---|---|\n")
	for _, n := range names {
		fmt.Fprintf(b, "| `--%s` | %s | %s |\n", n, cell(flagMeanings[n]), strings.Join(users[n], ", "))
	}
}
