package logic

import (
	"errors"
	"fmt"
)

// Rule is a default rule α |~ β, "if α then typically β". In a dataset the
// antecedent is a conjunction of literals and the consequent a disjunction,
// but any formulas are allowed.
type Rule struct {
	Antecedent *Formula // α; True for an empty antecedent
	Consequent *Formula // β
}

// Material returns the material counterpart ¬α ∨ β of the rule.
func (r Rule) Material() *Formula { return Or(Not(r.Antecedent), r.Consequent) }

// Clausal reports whether the rule has the form the learner works with: a
// conjunction of literals as antecedent and a clause as consequent.
func (r Rule) Clausal() (Term, Clause, bool) {
	t, ok := r.Antecedent.AsTerm()
	if !ok {
		return nil, nil, false
	}
	c, ok := r.Consequent.AsClause()
	if !ok {
		return nil, nil, false
	}
	return t, c, true
}

// ClausalError says why the rule is not clausal (see Clausal), in words
// that name at most the clashing literals, never the whole rule (which may
// be long); it returns nil for a clausal rule.
func (r Rule) ClausalError(v *Vocabulary) error {
	if ls, ok := r.Antecedent.rawLits(OpAnd, OpTrue); !ok {
		return errors.New("the learner needs a conjunction of literals before the arrow (literals separated by ',' or '&')")
	} else if l, ok := clash(ls); ok {
		return fmt.Errorf("the antecedent holds in no situation: it has both %s and %s", v.LitString(l), v.LitString(l.Not()))
	}
	if ls, ok := r.Consequent.rawLits(OpOr, OpFalse); !ok {
		return errors.New("the learner needs a disjunction of literals after the arrow (literals separated by ',' or '|')")
	} else if l, ok := clash(ls); ok {
		return fmt.Errorf("the consequent holds in every situation: it has both %s and %s", v.LitString(l), v.LitString(l.Not()))
	}
	return nil
}

// clash returns a literal of ls whose negation is in ls too.
func clash(ls []Lit) (Lit, bool) {
	seen := make(map[Lit]bool, len(ls))
	for _, l := range ls {
		if seen[l.Not()] {
			return l.Not(), true
		}
		seen[l] = true
	}
	return 0, false
}

// String returns the rule in the dataset syntax when it is clausal
// ("bird, antarctic -> !flies", " -> bird" for an empty antecedent), and as
// "α |~ β" otherwise. Parsing the result with v gives back an equal rule.
func (r Rule) String(v *Vocabulary) string {
	t, ok1 := r.Antecedent.rawLits(OpAnd, OpTrue)
	c, ok2 := r.Consequent.rawLits(OpOr, OpFalse)
	if ok1 && ok2 && len(c) > 0 {
		return v.Join(t, ", ") + " -> " + v.Join(c, ", ")
	}
	ante := r.Antecedent.String(v)
	if r.Antecedent.Op.precedence() <= OpImplies.precedence() {
		ante = "(" + ante + ")"
	}
	return ante + " |~ " + r.Consequent.String(v)
}

// ParseQuery reads a query for a theory: a default rule α -> β (see
// ParseRule), or a plain formula φ, read as the rule true |~ φ. When neither
// parses, the error is the rule parser's, since a query is usually a rule,
// unless the formula is nested too deeply (ErrTooDeep): that is what is
// wrong with it, not a missing '->'.
func ParseQuery(v *Vocabulary, src string) (Rule, error) {
	rule, err := ParseRule(v, src)
	if err == nil {
		return rule, nil
	}
	f, ferr := ParseFormula(v, src)
	switch {
	case ferr == nil:
		return Rule{Antecedent: True(), Consequent: f}, nil
	case errors.Is(ferr, ErrTooDeep) && !errors.Is(err, ErrTooDeep):
		return Rule{}, ferr
	}
	return Rule{}, err
}

// ParseRule parses a default rule. The antecedent and consequent are
// separated by '|~' or, when there is none, by the first '->' outside
// parentheses; so "bird, antarctic -> !flies" and "(a -> b) |~ c" both work.
// In the antecedent ',' means and; in the consequent it means or. An empty
// antecedent (" -> bird") is true.
func ParseRule(v *Vocabulary, src string) (Rule, error) { return ParseRuleAt(v, Position{}, src) }

// ParseRuleAt is ParseRule for text found at position at.
func ParseRuleAt(v *Vocabulary, at Position, src string) (Rule, error) {
	toks := lex(src)
	sep := -1
	depth := 0
	for i, t := range toks {
		switch t.kind {
		case tLParen:
			depth++
		case tRParen:
			depth--
		case tDefault:
			if depth == 0 && (sep < 0 || toks[sep].kind != tDefault) {
				sep = i
			}
		case tImplies:
			if depth == 0 && sep < 0 {
				sep = i
			}
		}
	}
	p := &parser{v: v, at: at, src: src, toks: toks}
	if sep < 0 {
		return Rule{}, p.errorf(toks[len(toks)-1], "expected '->' or '|~' between antecedent and consequent")
	}
	ante := True()
	if sep > 0 {
		pa := &parser{v: v, at: at, src: src, toks: append(toks[:sep:sep], token{tEOF, toks[sep].off, ""}), comma: OpAnd}
		f, err := pa.whole()
		if err != nil {
			return Rule{}, err
		}
		// String puts an implication before '|~' in parentheses.
		if err := pa.operandDepth(toks[0], f); err != nil {
			return Rule{}, err
		}
		ante = f
	}
	pc := &parser{v: v, at: at, src: src, toks: toks[sep+1:], comma: OpOr}
	if pc.peek().kind == tEOF {
		return Rule{}, pc.expected("consequent after " + toks[sep].describe())
	}
	cons, err := pc.whole()
	if err != nil {
		return Rule{}, err
	}
	return Rule{Antecedent: ante, Consequent: cons}, nil
}
