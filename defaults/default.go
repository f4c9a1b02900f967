package defaults

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Default is a default rule α |~ β, "if α then typically β", over arbitrary
// formulas, together with where it came from.
type Default struct {
	logic.Rule
	// Pos is where the default was read (file and line); zero when the
	// default was built in code.
	Pos logic.Position
	// Text is the default as written in its source, for messages; empty when
	// built in code.
	Text string
}

// NewDefault returns the default α |~ β.
func NewDefault(alpha, beta *logic.Formula) Default {
	return Default{Rule: logic.Rule{Antecedent: alpha, Consequent: beta}}
}

// Material returns the material counterpart ¬α ∨ β of the default: the
// formula a world must satisfy not to violate it. A clausal default
// (a conjunction of literals implying a clause) gives a clause, so that
// Θ_Z reads "!bird | !antarctic | !flies" rather than "!(bird & antarctic) | !flies".
func (d Default) Material() *logic.Formula {
	if t, c, ok := d.Clausal(); ok {
		lits := append(t.Negate(), c...)
		if _, taut := logic.Normalize(slices.Clone(lits)); !taut {
			return logic.ClauseF(dedupe(lits)) // in written order: ¬α first
		}
	}
	return d.Rule.Material()
}

// Verification returns α ∧ β: the formula of the worlds that verify the default.
func (d Default) Verification() *logic.Formula { return logic.And(d.Antecedent, d.Consequent) }

// Violation returns α ∧ ¬β: the formula of the worlds that falsify the default.
func (d Default) Violation() *logic.Formula { return logic.And(d.Antecedent, logic.Not(d.Consequent)) }

// Describe names the default for a message: "rules.txt:3: penguin -> !flies"
// when its position is known, else the rule in the dataset syntax.
func (d Default) Describe(v *logic.Vocabulary) string {
	text := d.Text
	if text == "" {
		text = d.String(v)
	}
	if p := d.Pos.String(); p != "" {
		return p + ": " + text
	}
	return text
}

// Base is a default base: a set Δ of defaults, background knowledge K (hard
// formulas that hold in every world considered) and the vocabulary over
// which both are written. The worlds of the semantics are the assignments
// of the vocabulary's atoms that satisfy K.
type Base struct {
	Name       string // the base's name, as in a .cl block; may be empty
	Vocab      *logic.Vocabulary
	Defaults   []Default
	Background []*logic.Formula
	// BackgroundPos holds where each formula of Background was read
	// (ReadClausesAt), for the error naming the ones that clash; it may be
	// empty.
	BackgroundPos []logic.Position
}

// vocab returns the base's vocabulary, creating one for a zero Base.
func (b *Base) vocab() *logic.Vocabulary {
	if b.Vocab == nil {
		b.Vocab = &logic.Vocabulary{}
	}
	return b.Vocab
}

// Tolerates reports whether the default α |~ β is tolerated by the base's
// defaults under its background knowledge: whether
// K ∧ α ∧ β ∧ ⋀(¬αi ∨ βi) is satisfiable. The antecedent α is a
// conjunction, whatever its number of literals. It fails with ctx's error
// when ctx is done first.
func (b *Base) Tolerates(ctx context.Context, d Default) (bool, error) {
	e := newEngine(b)
	all := make([]int, len(b.Defaults))
	for i := range all {
		all[i] = i
	}
	x := e.addDefault(d)
	return e.tolerated(ctx, all, x)
}

// ReadRules reads defaults in the dataset format: one rule per line,
// "ANTECEDENT -> CONSEQUENT" or "α |~ β" with any formulas (see
// logic.ParseRule), blank lines and '#' comments ignored. Each default
// remembers its file and line. name is used in error messages, which give
// file, line and column. Atoms are interned in v.
func ReadRules(r io.Reader, name string, v *logic.Vocabulary) ([]Default, error) {
	var ds []Default
	err := logic.TextLines.Each(r, name, func(line int, text string) error {
		pos := logic.Position{File: name, Line: line}
		rule, err := logic.ParseRuleAt(v, pos, text)
		if err != nil {
			return err
		}
		ds = append(ds, Default{Rule: rule, Pos: pos, Text: strings.TrimSpace(text)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ds, nil
}

// dedupe removes repeated literals, keeping the first occurrence.
func dedupe(ls logic.Clause) logic.Clause {
	out := ls[:0]
	for i, l := range ls {
		if !slices.Contains(ls[:i], l) {
			out = append(out, l)
		}
	}
	return out
}
