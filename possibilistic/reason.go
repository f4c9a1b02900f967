package possibilistic

import (
	"strconv"
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
	r := reasonWriter{v: v, given: v.alpha.Op != logic.OpTrue}
	b := &r.b
	b.Grow(160)
	alpha, beta := v.alpha.String(v.vocab), v.beta.String(v.vocab)
	if v.Inconsistency == 1 {
		b.WriteString(alpha)
		if v.contradictory {
			b.WriteString(" is contradictory")
		} else {
			b.WriteString(" contradicts the formulas of weight 1")
		}
		b.WriteString(", so only tautologies follow (inconsistency level 1)")
		return b.String()
	}
	switch {
	case v.Entailed:
		b.WriteString("level ")
		r.weight(v.Necessity)
		b.WriteString(": ")
		r.subject(alpha, "of weight >= ", v.Necessity, true)
		r.verb(" entails ", " entail ")
		b.WriteString(beta)
		r.inconsistency()
	case v.Semantics == Poss:
		r.subject(alpha, "above the inconsistency level ", v.Inconsistency, false)
		r.verb(" does not entail ", " do not entail ")
		b.WriteString(beta)
	default:
		r.subject(alpha, "", 0, true)
		r.verb(" does not entail ", " do not entail ")
		b.WriteString(beta)
		r.inconsistency()
	}
	b.WriteString("\nset aside by the evidence: ")
	switch {
	case v.Semantics == Lex && len(v.Formulas) > 0:
		r.formulas(v.Formulas)
	case v.Semantics != Lex && len(v.SetAside) > 0:
		for i, j := range v.SetAside {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("level ")
			r.weight(v.weights[j])
		}
	default:
		b.WriteString("nothing")
	}
	switch {
	case v.Entailed && len(e.Support) > 0:
		b.WriteString("\nbecause ")
		if r.given {
			b.WriteString(alpha)
			b.WriteString(" with ")
		}
		r.formulas(e.Support)
		if r.given || len(e.Support) == 1 {
			b.WriteString(" entails ")
		} else {
			b.WriteString(" entail ")
		}
		b.WriteString(beta)
	case v.Entailed && r.given:
		b.WriteString("\nbecause ")
		b.WriteString(alpha)
		b.WriteString(" alone entails ")
		b.WriteString(beta)
	case v.Entailed:
		b.WriteString("\nbecause ")
		b.WriteString(beta)
		b.WriteString(" is a tautology")
	case e.Counter != nil:
		b.WriteString("\ncounter-example, a preferred world: ")
		writeWorld(b, v.vocab, e.Counter)
	}
	return b.String()
}

// reasonWriter writes the parts of a Reason.
type reasonWriter struct {
	b     strings.Builder
	v     *Verdict
	given bool // α is not true
}

// weight writes w as FormatWeight does.
func (r *reasonWriter) weight(w float64) {
	var buf [32]byte
	r.b.Write(strconv.AppendFloat(buf[:0], w, 'g', -1, 64))
}

// subject writes "α, with the formulas F," or, for α = true, "the
// formulas F", where F is what (a weight when it has one) and, under
// Linear and Lex when keeps is set, "that lex keeps".
func (r *reasonWriter) subject(alpha, what string, w float64, keeps bool) {
	b := &r.b
	if r.given {
		b.WriteString(alpha)
		b.WriteString(", with ")
	}
	b.WriteString("the formulas ")
	if what != "" {
		b.WriteString(what)
		r.weight(w)
	}
	if keeps && r.v.Semantics != Poss {
		if what != "" {
			b.WriteString(" that ")
		}
		b.WriteString(r.v.Semantics.String())
		b.WriteString(" keeps")
	}
	if r.given {
		b.WriteByte(',')
	}
}

// verb writes the verb that agrees with the subject.
func (r *reasonWriter) verb(singular, plural string) {
	if r.given {
		r.b.WriteString(singular)
	} else {
		r.b.WriteString(plural)
	}
}

func (r *reasonWriter) inconsistency() {
	r.b.WriteString(" (inconsistency level ")
	r.weight(r.v.Inconsistency)
	r.b.WriteByte(')')
}

// formulas writes formulas as "0.5: !bird | flies; 1: !penguin | bird".
func (r *reasonWriter) formulas(fs []FormulaRef) {
	for i, f := range fs {
		if i > 0 {
			r.b.WriteString("; ")
		}
		r.weight(r.v.weights[f.Level])
		r.b.WriteString(": ")
		r.b.WriteString(f.Formula.String(r.v.vocab))
	}
}

// writeWorld writes a world as its literals, "penguin, bird, !flies".
func writeWorld(b *strings.Builder, v *logic.Vocabulary, w []bool) {
	for a, val := range w {
		if a > 0 {
			b.WriteString(", ")
		}
		if !val {
			b.WriteByte('!')
		}
		b.WriteString(v.Name(logic.Atom(a)))
	}
}
