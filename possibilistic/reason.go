package possibilistic

import (
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Reason says why in words, the text strata's command line and server
// show, in lines without a trailing newline. A level is named by its
// weight, as a theory file shows it:
//
//	level 1: penguin, with the formulas of weight >= 1, entails !flies (inconsistency level 0.5)
//	set aside by the evidence: level 0.5
//	because penguin with 1: !penguin | !flies entails !flies
//
// The first line is the verdict; the second what the evidence set aside
// (under Lex, formulas); the third the formulas of Support, or the
// preferred world of Counter. When α has no world of positive possibility
// the first line says so and is the only one.
func (e Explanation) Reason() string {
	v := &e.Verdict
	var b strings.Builder
	alpha, beta := v.alpha.String(v.vocab), v.beta.String(v.vocab)
	given := v.alpha.Op != logic.OpTrue
	inc := FormatWeight(v.Inconsistency)
	if v.Inconsistency == 1 {
		if v.contradictory {
			b.WriteString(alpha + " is contradictory")
		} else {
			b.WriteString(alpha + " contradicts the formulas of weight 1")
		}
		b.WriteString(", so only tautologies follow (inconsistency level 1)")
		return b.String()
	}
	// subject is "α, with the formulas F," or, for α = true, "the
	// formulas F"; verb agrees with it.
	subject := func(formulas string) string {
		if !given {
			return "the formulas " + formulas
		}
		return alpha + ", with the formulas " + formulas + ","
	}
	verb := func(singular, plural string) string {
		if given {
			return singular
		}
		return plural
	}
	keeps := ""
	if v.Semantics != Poss {
		keeps = " that " + v.Semantics.String() + " keeps"
	}
	switch {
	case v.Entailed:
		n := FormatWeight(v.Necessity)
		b.WriteString("level " + n + ": " + subject("of weight >= "+n+keeps) + verb(" entails ", " entail ") + beta +
			" (inconsistency level " + inc + ")")
	case v.Semantics == Poss:
		b.WriteString(subject("above the inconsistency level "+inc) + verb(" does not entail ", " do not entail ") + beta)
	default:
		b.WriteString(subject(strings.TrimPrefix(keeps, " that ")) + verb(" does not entail ", " do not entail ") + beta +
			" (inconsistency level " + inc + ")")
	}
	b.WriteString("\nset aside by the evidence: ")
	switch {
	case v.Semantics == Lex && len(v.Formulas) > 0:
		v.writeFormulas(&b, v.Formulas)
	case v.Semantics != Lex && len(v.SetAside) > 0:
		for i, j := range v.SetAside {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("level " + FormatWeight(v.weights[j]))
		}
	default:
		b.WriteString("nothing")
	}
	switch {
	case v.Entailed && len(e.Support) > 0:
		b.WriteString("\nbecause ")
		if given {
			b.WriteString(alpha + " with ")
		}
		v.writeFormulas(&b, e.Support)
		if given || len(e.Support) == 1 {
			b.WriteString(" entails " + beta)
		} else {
			b.WriteString(" entail " + beta)
		}
	case v.Entailed && given:
		b.WriteString("\nbecause " + alpha + " alone entails " + beta)
	case v.Entailed:
		b.WriteString("\nbecause " + beta + " is a tautology")
	case e.Counter != nil:
		b.WriteString("\ncounter-example, a preferred world: " + worldString(v.vocab, e.Counter))
	}
	return b.String()
}

// writeFormulas writes formulas as "0.5: !bird | flies; 1: !penguin | bird".
func (v *Verdict) writeFormulas(b *strings.Builder, fs []FormulaRef) {
	for i, f := range fs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(FormatWeight(v.weights[f.Level]) + ": " + f.Formula.String(v.vocab))
	}
}

// worldString writes a world as its literals, "penguin, bird, !flies".
func worldString(v *logic.Vocabulary, w []bool) string {
	var b strings.Builder
	for a, val := range w {
		if a > 0 {
			b.WriteString(", ")
		}
		b.WriteString(v.LitString(logic.MkLit(logic.Atom(a), !val)))
	}
	return b.String()
}
