package defaults

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// The .cl format of the conditional-logic community (CLKR, InfOCF):
//
//	signature
//	  b, p, f
//	conditionals
//	birds{
//	  (f|b),
//	  (!f|p),
//	  (b|p)
//	}
//
// A conditional (B|A) is the default A |~ B: consequent first. Formulas use
// '!' for not, ',' for and and ';' for or (binding in that order) and
// parentheses; Top and Bottom are true and false. Comments are // and
// /* */. A file may hold several blocks, each a belief base over the one
// signature; each block may be preceded by its own 'conditionals'. A .clq
// file lists query conditionals separated by ','.
//
// Whitespace and line breaks are free. Unlike InfOCF, strata refuses an
// atom of a conditional that is missing from the signature: it is more
// often a misspelling than a new atom.

type clKind uint8

const (
	clEOF clKind = iota
	clIdent
	clLParen
	clRParen
	clLBrace
	clRBrace
	clComma
	clSemi
	clNot
	clBar
	clBad
)

var clNames = [...]string{
	clEOF: "end of file", clIdent: "name", clLParen: "'('", clRParen: "')'", clLBrace: "'{'",
	clRBrace: "'}'", clComma: "','", clSemi: "';'", clNot: "'!'", clBar: "'|'", clBad: "character",
}

type clToken struct {
	kind clKind
	off  int
	text string
}

func (t clToken) describe() string {
	switch t.kind {
	case clIdent, clBad:
		return fmt.Sprintf("%q", t.text)
	}
	return clNames[t.kind]
}

func isCLIdent(c byte, first bool) bool {
	letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
	if first {
		return letter
	}
	return letter || c >= '0' && c <= '9' || c == '-'
}

// clParser reads one .cl or .clq text. Errors carry file, line and column.
type clParser struct {
	name  string
	src   string
	v     *logic.Vocabulary
	toks  []clToken
	i     int
	err   error           // a lexical error
	lines []int           // byte offset of the start of each line, built on first use
	sig   map[string]bool // the atoms of the signature; nil: not checked
	depth int             // nesting of the formula being parsed, at most logic.MaxDepth
}

// enter descends one nesting level ('!' or '(') at offset off; leave undoes
// it. Deeper text is an error, not a recursion that exhausts the stack.
func (p *clParser) enter(off int) error {
	p.depth++
	if p.depth > logic.MaxDepth {
		return p.errorAt(off, "formula nested more than %d levels deep (parentheses or '!')", logic.MaxDepth)
	}
	return nil
}

func (p *clParser) leave() { p.depth-- }

func newCLParser(r io.Reader, name string, v *logic.Vocabulary) (*clParser, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	p := &clParser{name: name, src: string(logic.TrimBOM(data)), v: v}
	p.lex()
	return p, p.err
}

func (p *clParser) lex() {
	src := p.src
	single := map[byte]clKind{'(': clLParen, ')': clRParen, '{': clLBrace, '}': clRBrace,
		',': clComma, ';': clSemi, '!': clNot, '|': clBar}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
		case strings.HasPrefix(src[i:], "//"):
			// To the end of the line: "\n", "\r\n" or a lone "\r".
			for i < len(src) && src[i] != '\n' && src[i] != '\r' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				p.err = p.errorAt(i, "comment '/*' is never closed with '*/'")
				return
			}
			i += end + 4
		case single[c] != 0:
			p.toks = append(p.toks, clToken{single[c], i, src[i : i+1]})
			i++
		case isCLIdent(c, true):
			start := i
			for i < len(src) && isCLIdent(src[i], false) {
				i++
			}
			p.toks = append(p.toks, clToken{clIdent, start, src[start:i]})
		default:
			start := i
			i++
			for i < len(src) && src[i] >= 0x80 && src[i] < 0xC0 {
				i++ // keep a multi-byte character whole in the message
			}
			p.toks = append(p.toks, clToken{clBad, start, src[start:i]})
		}
	}
	p.toks = append(p.toks, clToken{clEOF, len(src), ""})
}

// pos converts a byte offset into file, line and column; "\n", "\r\n"
// and a lone "\r" each end a line, as for logic.LineCol.
func (p *clParser) pos(off int) logic.Position {
	if p.lines == nil {
		p.lines = []int{0}
		for i := 0; i < len(p.src); i++ {
			switch {
			case p.src[i] == '\n', p.src[i] == '\r' && (i+1 == len(p.src) || p.src[i+1] != '\n'):
				p.lines = append(p.lines, i+1)
			}
		}
	}
	line, found := slices.BinarySearch(p.lines, off)
	if !found {
		line-- // off lies inside the line that starts before it
	}
	return logic.Position{File: p.name, Line: line + 1, Col: off - p.lines[line] + 1}
}

func (p *clParser) errorAt(off int, format string, args ...any) error {
	return logic.Errorf(p.pos(off), format, args...)
}

func (p *clParser) peek() clToken { return p.toks[p.i] }
func (p *clParser) next() clToken { t := p.toks[p.i]; p.i++; return t }

func (p *clParser) expected(what string) error {
	t := p.peek()
	return p.errorAt(t.off, "expected %s, found %s", what, t.describe())
}

func (p *clParser) want(k clKind, what string) (clToken, error) {
	if p.peek().kind != k {
		return clToken{}, p.expected(what)
	}
	return p.next(), nil
}

func (p *clParser) keyword(word string) bool {
	t := p.peek()
	return t.kind == clIdent && t.text == word
}

// signature := 'signature' name (',' name)*
func (p *clParser) signature() error {
	if !p.keyword("signature") {
		return p.expected("'signature' starting a .cl knowledge base")
	}
	p.next()
	for {
		t, err := p.want(clIdent, "an atom name in the signature")
		if err != nil {
			return err
		}
		switch t.text {
		case "Top", "Bottom", "conditionals", "signature", "true", "false", "atleast":
			return p.errorAt(t.off, "%q cannot name an atom in the signature", t.text)
		}
		p.v.Intern(t.text)
		if p.sig == nil {
			p.sig = map[string]bool{}
		}
		p.sig[t.text] = true
		if p.peek().kind != clComma {
			return nil
		}
		p.next()
	}
}

// blocks := ('conditionals'? name '{' conditionals '}')+
func (p *clParser) blocks() ([]*Base, error) {
	if !p.keyword("conditionals") {
		return nil, p.expected("',' or 'conditionals' after the signature")
	}
	var bases []*Base
	seen := map[string]int{} // block name to the offset of its first use
	for p.peek().kind != clEOF {
		if p.keyword("conditionals") {
			p.next()
		}
		t, err := p.want(clIdent, "the name of a belief base")
		if err != nil {
			return nil, err
		}
		// SelectBase picks a base by name: a second block of one name
		// could never be chosen.
		if first, dup := seen[t.text]; dup {
			return nil, p.errorAt(t.off, "a second belief base named %q (the first is at line %d)", t.text, p.pos(first).Line)
		}
		seen[t.text] = t.off
		if _, err := p.want(clLBrace, "'{' after the belief base name "+t.text); err != nil {
			return nil, err
		}
		ds, err := p.list(clRBrace)
		if err != nil {
			return nil, err
		}
		p.next()
		bases = append(bases, &Base{Name: t.text, Vocab: p.v, Defaults: ds})
	}
	if len(bases) == 0 {
		return nil, p.expected("a belief base 'name{ ... }'")
	}
	return bases, nil
}

// list := (conditional (',' conditional)* ','?)? followed by end
func (p *clParser) list(end clKind) ([]Default, error) {
	var ds []Default
	for p.peek().kind != end {
		d, err := p.conditional()
		if err != nil {
			return nil, err
		}
		ds = append(ds, d)
		if p.peek().kind == clComma {
			p.next()
			continue
		}
		if p.peek().kind != end {
			return nil, p.expected("',' or " + clNames[end] + " after a conditional")
		}
	}
	return ds, nil
}

// conditional := '(' formula '|' formula ')'
func (p *clParser) conditional() (Default, error) {
	open, err := p.want(clLParen, "a conditional '(B|A)'")
	if err != nil {
		return Default{}, err
	}
	cons, err := p.formula()
	if err != nil {
		return Default{}, err
	}
	if _, err := p.want(clBar, "'|' between the consequent and the antecedent of a conditional '(B|A)'"); err != nil {
		return Default{}, err
	}
	ante, err := p.formula()
	if err != nil {
		return Default{}, err
	}
	closing, err := p.want(clRParen, "')' closing the conditional opened at column "+fmt.Sprint(p.pos(open.off).Col))
	if err != nil {
		return Default{}, err
	}
	pos := p.pos(open.off)
	pos.Col = 0 // messages name the line, as for rule files
	return Default{
		Rule: logic.Rule{Antecedent: ante, Consequent: cons},
		Pos:  pos,
		Text: p.src[open.off : closing.off+1],
	}, nil
}

// formula := and (';' and)*
func (p *clParser) formula() (*logic.Formula, error) { return p.chain(clSemi, logic.Or, p.and) }

// and := unary (',' unary)*
func (p *clParser) and() (*logic.Formula, error) { return p.chain(clComma, logic.And, p.unary) }

func (p *clParser) chain(sep clKind, join func(...*logic.Formula) *logic.Formula, operand func() (*logic.Formula, error)) (*logic.Formula, error) {
	f, err := operand()
	if err != nil {
		return nil, err
	}
	fs := []*logic.Formula{f}
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
	return join(fs...), nil
}

// unary := '!' unary | '(' formula ')' | name
func (p *clParser) unary() (*logic.Formula, error) {
	t := p.peek()
	switch t.kind {
	case clNot:
		if err := p.enter(p.next().off); err != nil {
			return nil, err
		}
		f, err := p.unary()
		p.leave()
		if err != nil {
			return nil, err
		}
		return logic.Not(f), nil
	case clLParen:
		if err := p.enter(p.next().off); err != nil {
			return nil, err
		}
		f, err := p.formula()
		p.leave()
		if err != nil {
			return nil, err
		}
		if _, err := p.want(clRParen, "')' closing the '(' at column "+fmt.Sprint(p.pos(t.off).Col)); err != nil {
			return nil, err
		}
		return f, nil
	case clIdent:
		p.next()
		switch t.text {
		case "Top":
			return logic.True(), nil
		case "Bottom":
			return logic.False(), nil
		case "true", "false", "atleast":
			// strata's own syntax reads these as constants and a connective,
			// so an atom of that name could not be written back.
			return nil, p.errorAt(t.off, "%q cannot name an atom (write Top or Bottom for the constants)", t.text)
		}
		if p.sig != nil && !p.sig[t.text] {
			return nil, p.errorAt(t.off, "atom %q is not in the signature", t.text)
		}
		return logic.AtomF(p.v.Intern(t.text)), nil
	}
	return nil, p.expected("a formula")
}

// ReadCL reads a knowledge base in the .cl format: one Base per block, all
// over the vocabulary v, whose atoms are interned in signature order
// first. Each default remembers its file, line and text. name is used in
// error messages, which give file, line and column and what was expected.
func ReadCL(r io.Reader, name string, v *logic.Vocabulary) ([]*Base, error) {
	p, err := newCLParser(r, name, v)
	if err != nil {
		return nil, err
	}
	if err := p.signature(); err != nil {
		return nil, err
	}
	return p.blocks()
}

// ReadCLQ reads queries in the .clq format: conditionals (B|A) separated by
// ',', each returned as the default A |~ B with its position and text.
func ReadCLQ(r io.Reader, name string, v *logic.Vocabulary) ([]Default, error) {
	p, err := newCLParser(r, name, v)
	if err != nil {
		return nil, err
	}
	return p.list(clEOF)
}

// ParseQuery reads a query for a default base: a rule 'α -> β' or 'α |~ β'
// (see logic.ParseRule), or a .cl conditional '(β|α)'. A plain formula is not
// a query: '(a | b)' would be ambiguous between the two syntaxes, so it is
// read as a conditional.
func ParseQuery(v *logic.Vocabulary, src string) (Default, error) {
	if strings.Contains(src, "->") || strings.Contains(src, "|~") || !strings.HasPrefix(strings.TrimSpace(src), "(") {
		r, err := logic.ParseRule(v, src)
		if err != nil {
			return Default{}, err
		}
		return Default{Rule: r, Text: strings.TrimSpace(src)}, nil
	}
	return parseConditional(v, src)
}

// LooksLikeCL reports whether data reads as a .cl knowledge base rather than
// a rule file: its first line that is not blank or a comment starts with the
// word "signature" and is not a rule.
func LooksLikeCL(data []byte) bool {
	cl := false
	errFirst := errors.New("the first line decides")
	sniffLines.Each(bytes.NewReader(data), "", func(_ int, s string) error {
		words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
		cl = len(words) > 0 && words[0] == "signature" && !strings.Contains(s, "->") && !strings.Contains(s, "|~")
		return errFirst
	})
	return cl
}

// sniffLines are the comments of both formats LooksLikeCL tells apart.
var sniffLines = logic.LineFormat{Comments: []string{"#", "//"}}

// parseConditional parses one conditional "(B|A)" in the .cl syntax and
// returns the default A |~ B.
func parseConditional(v *logic.Vocabulary, src string) (Default, error) {
	p, err := newCLParser(strings.NewReader(src), "", v)
	if err != nil {
		return Default{}, err
	}
	d, err := p.conditional()
	if err != nil {
		return Default{}, err
	}
	if p.peek().kind != clEOF {
		return Default{}, p.expected("end of the conditional")
	}
	d.Pos = logic.Position{}
	return d, nil
}

// SelectBase returns the base named want among the bases of one file, or
// its only base when want is empty. A file of several bases needs a name,
// and a name must be one of them; the *BaseChoiceError says which there are.
func SelectBase(bases []*Base, want string) (*Base, error) {
	var names []string
	for _, b := range bases {
		if b.Name == want {
			return b, nil
		}
		names = append(names, b.Name)
	}
	if want == "" && len(bases) == 1 {
		return bases[0], nil
	}
	return nil, &BaseChoiceError{Want: want, Names: names}
}

// BaseChoiceError is SelectBase's error: no base is named Want (or none
// was named among several), and these are the names there are.
type BaseChoiceError struct {
	Want  string
	Names []string
}

func (e *BaseChoiceError) Error() string { return e.Explain("the file", "a name") }

// Explain says the error about file name, telling the user to choose with
// how (a flag or a field) when no name was given.
func (e *BaseChoiceError) Explain(name, how string) string {
	if e.Want == "" {
		return fmt.Sprintf("%s holds %d belief bases (%s); choose one with %s", name, len(e.Names), strings.Join(e.Names, ", "), how)
	}
	return fmt.Sprintf("%s holds no belief base %q; it has %s", name, e.Want, strings.Join(e.Names, ", "))
}
