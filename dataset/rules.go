package dataset

import (
	"bufio"
	"io"

	"github.com/strata-logic/strata/logic"
)

// ReadRules reads a default-rule dataset: one rule "ANTECEDENT -> CONSEQUENT"
// per line (see logic.ParseRule; the Java tool's "bird()" atoms are
// accepted), with blank lines and '#' comments ignored. Duplicates are kept:
// examples are multisets. name is used in error messages, which give file,
// line and column.
func ReadRules(r io.Reader, name string, v *logic.Vocabulary) ([]logic.Rule, error) {
	var rules []logic.Rule
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		rule, err := logic.ParseRuleAt(v, logic.Position{File: name, Line: line}, text)
		if err != nil {
			return err
		}
		rules = append(rules, rule)
		return nil
	})
	return rules, err
}

// ReadClausalRules is ReadRules for the examples of the learner: every rule
// must have a conjunction of literals as antecedent and a clause as
// consequent (logic.Rule.Clausal), and an error names the line of the first
// that has not and says why.
func ReadClausalRules(r io.Reader, name string, v *logic.Vocabulary) ([]logic.Rule, error) {
	var rules []logic.Rule
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		at := logic.Position{File: name, Line: line}
		rule, err := logic.ParseRuleAt(v, at, text)
		if err != nil {
			return err
		}
		if err := rule.ClausalError(v); err != nil {
			return &logic.ParseError{Pos: at, Err: err}
		}
		rules = append(rules, rule)
		return nil
	})
	return rules, err
}

// WriteRules writes rules one per line in the dataset syntax.
func WriteRules(w io.Writer, v *logic.Vocabulary, rules []logic.Rule) error {
	bw := bufio.NewWriter(w)
	for _, r := range rules {
		bw.WriteString(r.String(v))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadClauses reads hard rules: one clause per line, literals separated by
// ',' or '|' (a line may also hold any formula, which must then hold
// whatever the evidence). Blank lines and '#' comments are ignored.
func ReadClauses(r io.Reader, name string, v *logic.Vocabulary) ([]*logic.Formula, error) {
	var fs []*logic.Formula
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		f, err := logic.ParseFormulaAt(v, logic.Position{File: name, Line: line}, text)
		if err != nil {
			return err
		}
		fs = append(fs, f)
		return nil
	})
	return fs, err
}

// WriteClauses writes one clause per line, literals separated by ", ".
func WriteClauses(w io.Writer, v *logic.Vocabulary, cs []logic.Clause) error {
	bw := bufio.NewWriter(w)
	for _, c := range cs {
		if len(c) == 0 {
			bw.WriteString("false")
		} else {
			bw.WriteString(v.Join(c, ", "))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}
