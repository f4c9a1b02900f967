package defaults

import (
	"bufio"
	"io"

	"github.com/strata-logic/strata/logic"
)

// Rules returns the rules of the defaults, for the code that takes
// logic.Rule: the learner's examples, their evaluation.
func Rules(ds []Default) []logic.Rule {
	rules := make([]logic.Rule, len(ds))
	for i, d := range ds {
		rules[i] = d.Rule
	}
	return rules
}

// ClausalRules is Rules for the examples of the learner: every default
// must have a conjunction of literals as antecedent and a clause as
// consequent (logic.Rule.Clausal), and the error names the position of the
// first that has not and says why.
func ClausalRules(ds []Default, v *logic.Vocabulary) ([]logic.Rule, error) {
	for _, d := range ds {
		if err := d.ClausalError(v); err != nil {
			return nil, &logic.ParseError{Pos: d.Pos, Err: err}
		}
	}
	return Rules(ds), nil
}

// WriteRules writes rules one per line in the dataset format that
// ReadRules reads.
func WriteRules(w io.Writer, v *logic.Vocabulary, rules []logic.Rule) error {
	bw := bufio.NewWriter(logic.LineLimit(w, "rules"))
	for _, r := range rules {
		bw.WriteString(r.String(v))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadClauses reads hard rules, the background knowledge of a base or of
// the learner: one clause per line, literals separated by ',' or '|' (a
// line may also hold any formula, which must then hold whatever the
// evidence). Blank lines and '#' comments are ignored; name is used in
// error messages, which give file, line and column.
func ReadClauses(r io.Reader, name string, v *logic.Vocabulary) ([]*logic.Formula, error) {
	fs, _, err := ReadClausesAt(r, name, v)
	return fs, err
}

// ReadClausesAt is ReadClauses that also returns where each formula was
// read (file and line), for the errors that name a formula: the hard rules
// or background knowledge that clash (Base.BackgroundPos,
// learn.CheckHardAt).
func ReadClausesAt(r io.Reader, name string, v *logic.Vocabulary) ([]*logic.Formula, []logic.Position, error) {
	var fs []*logic.Formula
	var pos []logic.Position
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		at := logic.Position{File: name, Line: line}
		f, err := logic.ParseFormulaAt(v, at, text)
		if err != nil {
			return err
		}
		fs, pos = append(fs, f), append(pos, at)
		return nil
	})
	return fs, pos, err
}

// WriteClauses writes one clause per line, literals separated by ", ",
// in the format ReadClauses reads.
func WriteClauses(w io.Writer, v *logic.Vocabulary, cs []logic.Clause) error {
	bw := bufio.NewWriter(logic.LineLimit(w, "hard rules"))
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
