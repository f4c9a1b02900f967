package defaults

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// WriteCL writes the base in the .cl format, so that it can be given to
// InfOCF or other tools of the conditional-logic community: the
// vocabulary as the signature, then one block of conditionals (B|A). The
// block is named after the base ("base" when it has no name). Implications
// and biconditionals are written with '!', ',' and ';'. It fails when the
// base has background knowledge (the format has no place for it), an atom
// name is not a .cl name, or a formula uses atleast.
func WriteCL(w io.Writer, b *Base) error {
	v := b.vocab()
	if len(b.Background) > 0 {
		return errors.New("write .cl: the format cannot hold background knowledge")
	}
	names := v.Names()
	for _, n := range names {
		if !validCLName(n) {
			return fmt.Errorf("write .cl: atom %q is not a .cl name (a letter, then letters, digits, '_' or '-')", n)
		}
	}
	name := b.Name
	if !validCLName(name) {
		name = "base"
	}
	conds := make([]string, len(b.Defaults))
	for i, d := range b.Defaults {
		var sb strings.Builder
		sb.WriteByte('(')
		err := writeCLFormula(&sb, v, d.Consequent, 0)
		sb.WriteByte('|')
		if err == nil {
			err = writeCLFormula(&sb, v, d.Antecedent, 0)
		}
		if err != nil {
			return fmt.Errorf("write .cl: default %d: %w", i+1, err)
		}
		sb.WriteByte(')')
		conds[i] = sb.String()
	}
	bw := bufio.NewWriter(logic.LineLimit(w, "knowledge base"))
	fmt.Fprintf(bw, "signature\n  %s\n\nconditionals\n%s{\n", strings.Join(names, ", "), name)
	for i, c := range conds {
		bw.WriteString("  " + c)
		if i < len(conds)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func validCLName(s string) bool {
	if s == "" || !isCLIdent(s[0], true) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isCLIdent(s[i], false) {
			return false
		}
	}
	switch s {
	case "Top", "Bottom", "signature", "conditionals", "true", "false", "atleast":
		return false
	}
	return true
}

// Binding strength in the .cl syntax: ';' < ',' < '!' < operands.
const (
	clPrecOr = iota + 1
	clPrecAnd
	clPrecNot
	clPrecAtom
)

func clPrec(f *logic.Formula) int {
	switch f.Op {
	case logic.OpOr, logic.OpImplies, logic.OpIff:
		return clPrecOr
	case logic.OpAnd:
		return clPrecAnd
	case logic.OpNot:
		return clPrecNot
	}
	return clPrecAtom
}

// writeCLFormula writes f, parenthesised when its binding is not stronger
// than outer requires. It fails when the text would nest more than
// logic.MaxDepth levels ('!' and parentheses), which ReadCL refuses.
func writeCLFormula(b *strings.Builder, v *logic.Vocabulary, f *logic.Formula, outer int) error {
	return (&clWriter{b: b, v: v}).formula(f, outer)
}

// clWriter writes formulas in the .cl syntax, counting how deeply the text
// nests.
type clWriter struct {
	b     *strings.Builder
	v     *logic.Vocabulary
	depth int
}

// enter counts a '!' or '(' written; leave undoes it.
func (w *clWriter) enter() error {
	w.depth++
	if w.depth > logic.MaxDepth {
		return fmt.Errorf("the formula would nest more than %d levels deep in the .cl syntax", logic.MaxDepth)
	}
	return nil
}

func (w *clWriter) leave() { w.depth-- }

// clDisjunction returns the implication chain a -> b -> … -> c as the one
// disjunction !a ; !b ; … ; c, so that a chain does not nest a parenthesis
// per arrow; other formulas are returned as they are.
func clDisjunction(f *logic.Formula) *logic.Formula {
	var parts []*logic.Formula
	for f.Op == logic.OpImplies {
		parts = append(parts, logic.Not(f.Args[0]))
		f = f.Args[1]
	}
	if parts == nil {
		return f
	}
	return logic.Or(append(parts, f)...)
}

func (w *clWriter) formula(f *logic.Formula, outer int) error {
	switch f.Op {
	case logic.OpImplies:
		f = clDisjunction(f)
	case logic.OpIff:
		p, q := f.Args[0], f.Args[1]
		f = logic.Or(logic.And(p, q), logic.And(logic.Not(p), logic.Not(q)))
	case logic.OpAtLeast:
		return errors.New("atleast cannot be written in the .cl syntax")
	}
	if f.Op == logic.OpOr && slices.ContainsFunc(f.Args, func(g *logic.Formula) bool { return g.Op == logic.OpImplies }) {
		// (a -> b) | c is !a ; b ; c: one disjunction, no parentheses.
		args := make([]*logic.Formula, len(f.Args))
		for i, g := range f.Args {
			args[i] = clDisjunction(g)
		}
		f = logic.Or(args...)
	}
	b := w.b
	paren := clPrec(f) <= outer
	if paren {
		if err := w.enter(); err != nil {
			return err
		}
		defer w.leave()
		b.WriteByte('(')
	}
	var err error
	switch f.Op {
	case logic.OpTrue:
		b.WriteString("Top")
	case logic.OpFalse:
		b.WriteString("Bottom")
	case logic.OpAtom:
		b.WriteString(w.v.Name(f.Atom))
	case logic.OpNot:
		if err = w.enter(); err != nil {
			return err
		}
		b.WriteByte('!')
		err = w.formula(f.Args[0], clPrecNot-1)
		w.leave()
	case logic.OpAnd, logic.OpOr:
		sep, prec := ",", clPrecAnd
		if f.Op == logic.OpOr {
			sep, prec = ";", clPrecOr
		}
		for i, g := range f.Args {
			if i > 0 {
				b.WriteString(sep)
			}
			if err = w.formula(g, prec); err != nil {
				break
			}
		}
	}
	if paren {
		b.WriteByte(')')
	}
	return err
}
