package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/table"
)

// The values of flags that take one of a few words. Each knows its words
// (chooser), so that the shell completes them (completeChoices) and the
// help lists them; a flag of the same name has the same Type everywhere
// (TestFlagVocabulary).

// chooser is a flag value that takes one of a fixed list of words.
type chooser interface {
	Choices() []string
}

// choice is a string flag that takes one of words. Its Type is typ when
// set (one name for the values of --format, whose words depend on what the
// command reads), else the words joined by '|'.
type choice struct {
	value *string
	words []string
	typ   string
	// accept holds words the flag takes without listing them: old
	// spellings that the command reports as deprecated.
	accept []string
}

func (c *choice) String() string { return *c.value }

func (c *choice) Set(s string) error {
	if !slices.Contains(c.words, s) && !slices.Contains(c.accept, s) {
		return fmt.Errorf("want %s", orList(c.words))
	}
	*c.value = s
	return nil
}

func (c *choice) Type() string {
	if c.typ != "" {
		return c.typ
	}
	return strings.Join(c.words, "|")
}

func (c *choice) Choices() []string { return c.words }

// addChoice defines a flag that takes one of words, with the default def.
func addChoice(fl *pflag.FlagSet, p *string, name, def string, words []string, usage string) {
	*p = def
	fl.Var(&choice{value: p, words: words}, name, usage)
}

// addFormat defines --format, the format of the file the command reads,
// one of words ("auto" among them: by the file's name or content).
func addFormat(fl *pflag.FlagSet, p *string, words []string, usage string) {
	*p = "auto"
	fl.Var(&choice{value: p, words: words, typ: "format"}, "format", usage)
}

// orList writes words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// semanticsValue is the value of --semantics: how a possibilistic theory
// is read when the evidence clashes with it.
type semanticsValue struct{ s *possibilistic.Semantics }

func (v semanticsValue) String() string { return v.s.String() }

func (v semanticsValue) Set(x string) error { return v.s.UnmarshalText([]byte(x)) }

func (v semanticsValue) Type() string { return strings.Join(semanticsWords(), "|") }

func (v semanticsValue) Choices() []string { return semanticsWords() }

func semanticsWords() []string {
	var ws []string
	for _, s := range possibilistic.AllSemantics {
		ws = append(ws, s.String())
	}
	return ws
}

// addSemantics defines --semantics on fl: one of poss, linear or lex,
// poss by default. Every command that reads a theory defines it so.
func addSemantics(fl *pflag.FlagSet, s *possibilistic.Semantics, usage string) {
	*s = possibilistic.Poss
	fl.Var(semanticsValue{s}, "semantics", usage)
	fl.Lookup("semantics").DefValue = possibilistic.Poss.String()
}

// semanticsList is the value of --semantics-list: the semantics to learn
// and score one theory each under.
type semanticsList struct{ words *[]string }

func (v semanticsList) String() string { return strings.Join(*v.words, ",") }

func (v semanticsList) Set(x string) error {
	var out []string
	for _, w := range strings.Split(x, ",") {
		w = strings.TrimSpace(w)
		if _, err := possibilistic.ParseSemantics(w); err != nil {
			return err
		}
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	*v.words = out
	return nil
}

func (v semanticsList) Type() string { return "list" }

func (v semanticsList) Choices() []string { return semanticsWords() }

// relationWords are the inference relations of a default base, as
// entails --relation takes them.
var relationWords = []string{"p", "rational", "lex", "w", "c"}

// relationValue is the value of --relation: the inference relation with
// which a default base is extended.
type relationValue struct{ r *defaults.Semantics }

func (v relationValue) String() string {
	for _, w := range relationWords {
		if s, _ := defaults.ParseSemantics(w); s == *v.r {
			return w
		}
	}
	return v.r.String()
}

func (v relationValue) Set(x string) error {
	s, err := defaults.ParseSemantics(x)
	if err != nil {
		return fmt.Errorf("want %s", orList(relationWords))
	}
	*v.r = s
	return nil
}

func (v relationValue) Type() string { return strings.Join(relationWords, "|") }

func (v relationValue) Choices() []string { return relationWords }

// completeChoices registers, for every flag of the command tree whose
// value is a chooser, the completion of its words (after the last comma
// for a list), so that the shell completes them.
func completeChoices(c *cobra.Command) {
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		ch, ok := f.Value.(chooser)
		if !ok {
			return
		}
		// An alias shares its value with the flag it spells differently,
		// and both are completed.
		_ = c.RegisterFlagCompletionFunc(f.Name, words(ch.Choices()...))
	})
	for _, sub := range c.Commands() {
		completeChoices(sub)
	}
}

// words completes a flag's value from a list of words; in a
// comma-separated list, the word after the last comma.
func words(ws ...string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		prefix := ""
		if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
			prefix = toComplete[:i+1]
		}
		var out []cobra.Completion
		for _, w := range ws {
			if strings.HasPrefix(prefix+w, toComplete) {
				out = append(out, prefix+w)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// variantsValue is the value of --variants: the encodings of a table to
// learn with, or to choose among on held-out rows (table.ParseVariant).
type variantsValue struct{ vs *[]table.Variant }

func (v variantsValue) String() string {
	var ws []string
	for _, x := range *v.vs {
		ws = append(ws, x.String())
	}
	return strings.Join(ws, ",")
}

func (v variantsValue) Set(x string) error {
	out, err := table.ParseVariants(x)
	if err != nil {
		return err
	}
	*v.vs = out
	return nil
}

func (v variantsValue) Type() string { return "list" }

// variantsUsage describes --variants.
const variantsUsage = "how a table's rows are encoded for the learner, or with --folds the encodings to choose among on held-out rows, comma-separated: " +
	"mdl (the cut points the MDL criterion pays for) or cuts>=K (at least K per numeric column where it has them), " +
	"then +nearest (a value states only its nearest thresholds) and +unequal (a category also states the other values' negations)"
