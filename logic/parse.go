package logic

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tNumber
	tTrue
	tFalse
	tAtLeast
	tNot
	tAnd
	tOr
	tImplies
	tIff
	tDefault
	tComma
	tLParen
	tRParen
	tBad
	tNegIdent // the negation of a comparison atom: age > 30, odor!=foul (compare.go)
	tCmpErr   // a malformed comparison; its text says what is wrong
)

var tokNames = [...]string{
	tEOF: "end of text", tIdent: "atom", tNumber: "number", tTrue: "'true'", tFalse: "'false'",
	tAtLeast: "'atleast'", tNot: "'!'", tAnd: "'&'", tOr: "'|'", tImplies: "'->'", tIff: "'<->'",
	tDefault: "'|~'", tComma: "','", tLParen: "'('", tRParen: "')'", tBad: "character",
	tNegIdent: "atom", tCmpErr: "comparison",
}

type token struct {
	kind tokKind
	off  int // byte offset in the source
	text string
}

func (t token) describe() string {
	switch t.kind {
	case tBad:
		if !utf8.ValidString(t.text) {
			return fmt.Sprintf("invalid UTF-8 (byte %#x): text must be UTF-8", t.text[0])
		}
		return strconv.Quote(t.text)
	case tIdent, tNumber, tNegIdent:
		return strconv.Quote(t.text)
	case tCmpErr:
		return t.text
	}
	return tokNames[t.kind]
}

// runeAt returns the length of the character at src[i], or 0 where
// invalid UTF-8 starts: a name holds UTF-8 only, since every output (JSON
// above all) would write an invalid byte as U+FFFD, a name other than the
// one read.
func runeAt(src string, i int) int {
	if src[i] < utf8.RuneSelf {
		return 1
	}
	r, n := utf8.DecodeRuneInString(src[i:])
	if r == utf8.RuneError && n <= 1 {
		return 0
	}
	return n
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// lex splits src into tokens. Identifiers may contain '-' (poker descriptors
// such as check-raised) as long as it does not start an arrow, and may carry
// the empty argument list "()" of the paper's Java tool.
func lex(src string) []token {
	// A token takes at least one byte and one more ends the list: sizing
	// the list for a token every four bytes saves the growth steps that
	// were a large share of a short query's allocations.
	toks := make([]token, 0, len(src)/4+2)
	i := 0
	for i < len(src) {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case (c == '"' || c == '-' || isBareByte(c)) && comparisonAt(src, i, &toks, &i):
			continue
		case strings.HasPrefix(src[i:], "<->"), strings.HasPrefix(src[i:], "<=>"):
			i += 3
			toks = append(toks, token{tIff, start, src[start:i]})
		case strings.HasPrefix(src[i:], "->"), strings.HasPrefix(src[i:], "=>"):
			i += 2
			toks = append(toks, token{tImplies, start, src[start:i]})
		case strings.HasPrefix(src[i:], "|~"):
			i += 2
			toks = append(toks, token{tDefault, start, src[start:i]})
		case strings.HasPrefix(src[i:], "||"), strings.HasPrefix(src[i:], "&&"):
			i += 2
			k := tOr
			if c == '&' {
				k = tAnd
			}
			toks = append(toks, token{k, start, src[start:i]})
		case c == '|':
			i++
			toks = append(toks, token{tOr, start, "|"})
		case c == '&' || c == '^':
			i++
			toks = append(toks, token{tAnd, start, src[start:i]})
		case c == '!' || c == '~':
			i++
			toks = append(toks, token{tNot, start, src[start:i]})
		case c == ',':
			i++
			toks = append(toks, token{tComma, start, ","})
		case c == '(':
			i++
			toks = append(toks, token{tLParen, start, "("})
		case c == ')':
			i++
			toks = append(toks, token{tRParen, start, ")"})
		case isIdentStart(c) && runeAt(src, i) > 0:
			for i < len(src) {
				if n := runeAt(src, i); n > 0 && isIdentStart(src[i]) {
					i += n
				} else if src[i] == '\'' || src[i] == '-' && !strings.HasPrefix(src[i:], "->") {
					i++
				} else {
					break
				}
			}
			text := src[start:i]
			kind := tIdent
			switch {
			case text == "true":
				kind = tTrue
			case text == "false":
				kind = tFalse
			case text == "atleast" && strings.HasPrefix(strings.TrimLeft(src[i:], " \t"), "("):
				kind = tAtLeast
			case isNumber(text):
				kind = tNumber
			}
			if kind == tIdent && strings.HasPrefix(src[i:], "()") {
				i += 2 // bird() is the Java tool's spelling of bird
			}
			toks = append(toks, token{kind, start, text})
		default:
			i++
			for i < len(src) && src[i] >= 0x80 && src[i] < 0xC0 {
				i++ // keep a multi-byte character whole in the message
			}
			toks = append(toks, token{tBad, start, src[start:i]})
		}
	}
	return append(toks, token{tEOF, len(src), ""})
}

// comparisonAt appends the comparison atom at src[i:] to toks and moves
// *next past it, if there is one there (compare.go).
func comparisonAt(src string, i int, toks *[]token, next *int) bool {
	tok, n, ok := lexComparison(src, i)
	if ok {
		*toks = append(*toks, tok)
		*next = n
	}
	return ok
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parser is a recursive-descent parser over a token slice. comma says what a
// top-level ',' means: OpOr in clause lists and consequents, OpAnd in
// antecedents.
type parser struct {
	v       *Vocabulary
	at      Position
	src     string
	toks    []token
	i       int
	comma   Op
	depth   int // nesting of the formula being parsed, bounded by MaxDepth
	deepest int // the largest depth reached, for tests
}

// MaxDepth bounds how deeply a formula may nest: parentheses, negations,
// and the operands of '->', '<->' and atleast each count one level. Deeper
// text is a syntax error rather than a parse, and later a conversion, whose
// recursion could exhaust the stack; no formula a person writes comes near.
const MaxDepth = 10000

// ErrTooDeep is the cause (errors.Is) of the ParseError of a formula nested
// more than MaxDepth levels deep.
var ErrTooDeep = errors.New("formula nested more than " + strconv.Itoa(MaxDepth) + " levels deep")

// enter descends one nesting level at token t, failing beyond MaxDepth;
// leave undoes it.
func (p *parser) enter(t token) error {
	p.depth++
	p.deepest = max(p.deepest, p.depth)
	if p.depth > MaxDepth {
		return p.errorf(t, "%w (parentheses, '!', '->', '<->' or atleast)", ErrTooDeep)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// operandDepth refuses an implication or biconditional g, read at token t
// as an operand of a ',' list (or before '|~'), that is too deep to be
// printed: the printer writes it in parentheses, a level more than the
// list syntax needs, and text it writes must read back.
func (p *parser) operandDepth(t token, g *Formula) error {
	if (g.Op == OpImplies || g.Op == OpIff) && g.Depth()+1 > MaxDepth {
		return p.errorf(t, "%w once printed in parentheses", ErrTooDeep)
	}
	return nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

// posOf converts a byte offset into a position, counting lines inside src.
func (p *parser) posOf(off int) Position {
	pos := p.at
	if pos.Line == 0 {
		pos.Line = 1
	}
	if pos.Col == 0 {
		pos.Col = 1
	}
	line, col := LineCol(p.src, off)
	if line > 1 {
		pos.Line += line - 1
		pos.Col = col
	} else {
		pos.Col += col - 1
	}
	return pos
}

func (p *parser) errorf(t token, format string, args ...any) error {
	return Errorf(p.posOf(t.off), format, args...)
}

func (p *parser) expected(what string) error {
	t := p.peek()
	return p.errorf(t, "expected %s, found %s", what, t.describe())
}

// list := iff (',' iff)*
func (p *parser) list() (*Formula, error) {
	first := p.peek()
	f, err := p.iff()
	if err != nil || p.peek().kind != tComma {
		return f, err
	}
	if err := p.operandDepth(first, f); err != nil {
		return nil, err
	}
	fs := []*Formula{f}
	for p.peek().kind == tComma {
		p.next()
		t := p.peek()
		g, err := p.iff()
		if err != nil {
			return nil, err
		}
		if err := p.operandDepth(t, g); err != nil {
			return nil, err
		}
		fs = append(fs, g)
	}
	if len(fs) == 1 {
		return f, nil
	}
	return &Formula{Op: p.comma, Args: fs}, nil
}

// iff := implies ('<->' implies)*
func (p *parser) iff() (*Formula, error) {
	f, err := p.implies()
	if err != nil {
		return nil, err
	}
	levels := 0
	defer func() { p.depth -= levels }()
	for p.peek().kind == tIff {
		t := p.next()
		// The chain nests to the left: each '<->' adds a level.
		levels++
		if err := p.enter(t); err != nil {
			return nil, err
		}
		g, err := p.implies()
		if err != nil {
			return nil, err
		}
		f = Iff(f, g)
	}
	return f, nil
}

// implies := or ('->' implies)?
func (p *parser) implies() (*Formula, error) {
	f, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tImplies {
		return f, nil
	}
	if err := p.enter(p.next()); err != nil {
		return nil, err
	}
	g, err := p.implies()
	p.leave()
	if err != nil {
		return nil, err
	}
	return Implies(f, g), nil
}

// or := and ('|' and)*
func (p *parser) or() (*Formula, error) { return p.chain(tOr, OpOr, p.and) }

// and := unary ('&' unary)*
func (p *parser) and() (*Formula, error) { return p.chain(tAnd, OpAnd, p.unary) }

func (p *parser) chain(sep tokKind, op Op, operand func() (*Formula, error)) (*Formula, error) {
	f, err := operand()
	if err != nil || p.peek().kind != sep {
		// One operand, the common case: no list to allocate.
		return f, err
	}
	fs := []*Formula{f}
	for p.peek().kind == sep {
		p.next()
		g, err := operand()
		if err != nil {
			return nil, err
		}
		fs = append(fs, g)
	}
	if len(fs) == 1 {
		return f, nil
	}
	// Nested operands of the same connective are merged by flatten once the
	// whole formula is read: merging here would copy a long operand list at
	// every level of ((a | b) | c) | d, quadratic in the formula's length.
	return &Formula{Op: op, Args: fs}, nil
}

// unary := '!' unary | primary
func (p *parser) unary() (*Formula, error) {
	if p.peek().kind == tNot {
		if err := p.enter(p.next()); err != nil {
			return nil, err
		}
		f, err := p.unary()
		p.leave()
		if err != nil {
			return nil, err
		}
		return Not(f), nil
	}
	return p.primary()
}

// primary := atom | 'true' | 'false' | '(' iff ')' | 'atleast' '(' number (',' iff)* ')'
func (p *parser) primary() (*Formula, error) {
	t := p.peek()
	switch t.kind {
	case tIdent:
		p.next()
		return AtomF(p.v.Intern(t.text)), nil
	case tNegIdent:
		p.next()
		return Not(AtomF(p.v.Intern(t.text))), nil
	case tCmpErr:
		return nil, p.errorf(t, "%s", t.text)
	case tTrue:
		p.next()
		return True(), nil
	case tFalse:
		p.next()
		return False(), nil
	case tLParen:
		if err := p.enter(p.next()); err != nil {
			return nil, err
		}
		f, err := p.iff()
		p.leave()
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tRParen {
			return nil, p.expected("')' closing the '(' at column " + strconv.Itoa(p.posOf(t.off).Col))
		}
		p.next()
		return f, nil
	case tAtLeast:
		return p.atLeast()
	case tNumber:
		return nil, p.errorf(t, "expected formula, found number %s (atom names start with a letter or '_')", t.text)
	}
	return nil, p.expected("formula")
}

func (p *parser) atLeast() (*Formula, error) {
	at := p.next()
	if err := p.enter(at); err != nil {
		return nil, err
	}
	defer p.leave()
	if p.peek().kind != tLParen {
		return nil, p.expected("'(' after atleast")
	}
	p.next()
	t := p.peek()
	if t.kind != tNumber {
		return nil, p.expected("number of arguments that must hold")
	}
	p.next()
	k, err := strconv.Atoi(t.text)
	if err != nil {
		return nil, p.errorf(t, "number %s is too large", t.text)
	}
	var fs []*Formula
	for p.peek().kind == tComma {
		p.next()
		f, err := p.iff()
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	if p.peek().kind != tRParen {
		return nil, p.expected("',' or ')' in atleast")
	}
	p.next()
	f := AtLeast(k, fs...)
	if total := CounterCells(f); total > MaxCounterCells {
		return nil, &ParseError{p.posOf(at.off), counterLimitError(k, len(fs), total)}
	}
	return f, nil
}

func newParser(v *Vocabulary, at Position, src string, comma Op) *parser {
	return &parser{v: v, at: at, src: src, toks: lex(src), comma: comma}
}

// whole parses a complete formula and rejects trailing text.
func (p *parser) whole() (*Formula, error) {
	if p.peek().kind == tEOF {
		return nil, p.expected("formula")
	}
	f, err := p.list()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.kind == tDefault {
			return nil, p.errorf(t, "unexpected '|~': a default rule is not a formula here")
		}
		return nil, p.expected("end of formula or an operator")
	}
	f = flatten(f)
	if total := CounterCells(f); total > MaxCounterCells {
		return nil, Errorf(p.posOf(p.toks[0].off), "the atleast operators of this formula need %s counter registers in CNF, more than the %s a formula may take: split it into several formulas, or use fewer operands", thousands(total), thousands(MaxCounterCells))
	}
	return f, nil
}

// flatten merges, in place, the operands of every conjunction and
// disjunction that are themselves conjunctions or disjunctions of the same
// kind, as And and Or do, in one pass over f: linear in f's size however
// the operands nest. It is for formulas the parser has just built, which
// nothing else shares.
func flatten(f *Formula) *Formula {
	switch f.Op {
	case OpAnd, OpOr:
		var args []*Formula
		var collect func(g *Formula)
		collect = func(g *Formula) {
			for _, h := range g.Args {
				if h.Op == f.Op {
					collect(h)
				} else {
					args = append(args, flatten(h))
				}
			}
		}
		collect(f)
		f.Args = args
	default:
		for i, g := range f.Args {
			f.Args[i] = flatten(g)
		}
	}
	return f
}

// ParseFormula parses a formula in the full syntax: atoms, true, false, !,
// &, |, ->, <->, parentheses and atleast(k, f1, ..., fn). A top-level
// comma-separated list is a disjunction, so the clause list "!bird, flies"
// and "!bird | flies" are the same formula. Atoms are interned in v.
func ParseFormula(v *Vocabulary, src string) (*Formula, error) {
	return ParseFormulaAt(v, Position{}, src)
}

// ParseFormulaAt is ParseFormula for text found at position at (its first
// byte), so that errors point into the user's file.
func ParseFormulaAt(v *Vocabulary, at Position, src string) (*Formula, error) {
	return newParser(v, at, src, OpOr).whole()
}

// ParseEvidence parses evidence α as it stands left of '->' in a default
// rule: a formula in the full syntax in which a top-level comma-separated
// list is a conjunction, so "penguin, !flies" is penguin ∧ ¬flies. Blank
// text is true, the empty evidence.
func ParseEvidence(v *Vocabulary, src string) (*Formula, error) {
	if strings.TrimSpace(src) == "" {
		return True(), nil
	}
	return newParser(v, Position{}, src, OpAnd).whole()
}

// ParseClause parses a clause: literals separated by ',' or '|', or false.
func ParseClause(v *Vocabulary, src string) (Clause, error) {
	p := newParser(v, Position{}, src, OpOr)
	f, err := p.whole()
	if err != nil {
		return nil, err
	}
	if c, ok := f.AsClause(); ok {
		return c, nil
	}
	if f.Op == OpOr || f.Op == OpTrue {
		return nil, Errorf(p.posOf(0), "clause is a tautology (contains a literal and its negation)")
	}
	return nil, Errorf(p.posOf(0), "expected a clause: literals separated by ',' or '|'")
}
