package mln

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// ReadAlchemy reads a propositional network in Alchemy's syntax, one entry
// per line:
//
//	a1                    declares the atom a1 (fixes its place in the order)
//	1.5  a1 ^ !a2 => a3   a formula with weight 1.5
//	-0.25 a2 v a4         a negative weight
//	a1 => a2.             a hard formula (ends with '.', has no weight)
//
// Connectives are ! (not), ^ (and), v (or), => (implies), <=> (iff) and
// parentheses; strata's own &, |, -> and <-> are accepted too, so 'v' cannot
// be an atom name. Blank lines and comments (// or # to the end of the line)
// are ignored. Every atom is declared before a formula uses it (as Alchemy
// requires its predicates declared); atoms are numbered in the order of
// their declarations. Errors give name, line and column and say what was
// expected.
func ReadAlchemy(r io.Reader, name string) (*Network, error) {
	n := &Network{Vocab: &logic.Vocabulary{}}
	err := alchemyLines.Each(r, name, func(line int, text string) error {
		f, err := parseAlchemyLine(n.Vocab, name, line, text)
		if err != nil {
			return err
		}
		if f.F != nil {
			n.Formulas = append(n.Formulas, f)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// alchemyLines is the line format of Alchemy's files: comments start with
// "//" (strata's own "#" too).
var alchemyLines = logic.LineFormat{Comments: []string{"//", "#"}}

// parseAlchemyLine parses one non-blank line; a declaration returns a
// Formula with a nil F.
func parseAlchemyLine(v *logic.Vocabulary, name string, line int, text string) (Formula, error) {
	pos := func(off int) logic.Position { return logic.Position{File: name, Line: line, Col: off + 1} }
	fail := func(off int, format string, args ...any) error {
		return logic.Errorf(pos(off), format, args...)
	}
	start := len(text) - len(strings.TrimLeft(text, " \t"))
	body := strings.TrimRight(text, " \t\r")
	first := start // where the text starts, before a weight
	weight, hasWeight := 0.0, false
	// A weight is a number followed by a space: atom names may start with
	// digits too (00a1), but never hold a space.
	if end := numberEnd(body, start); end > start && end < len(body) && (body[end] == ' ' || body[end] == '\t') {
		w, err := strconv.ParseFloat(body[start:end], 64)
		if err != nil {
			return Formula{}, fail(start, "weight %q is not a number", body[start:end])
		}
		weight, hasWeight = w, true
		start = end + len(body[end:]) - len(strings.TrimLeft(body[end:], " \t"))
	}
	hard := strings.HasSuffix(body, ".")
	if hard {
		body = body[:len(body)-1]
		if hasWeight {
			// "1e5 v b." is the hard formula on an atom named 1e5, if that
			// parses; otherwise a weight and a '.' that do not go together.
			if f, err := parseHard(v, pos(first), body[first:]); err == nil {
				return f, nil
			}
			return Formula{}, fail(len(body), "a weighted formula must not end with '.' (hard formulas have no weight)")
		}
	}
	src := alchemyToStrata(body[start:])
	if !hasWeight && !hard {
		if raw := body[start:]; isDeclaration(raw) { // v too, which src reads as '|'
			name := strings.TrimSuffix(strings.Trim(raw, asciiSpace), "()")
			if !alchemyAtomName(name) {
				return Formula{}, fail(start, "%q cannot name an atom (v is Alchemy's 'or'; numbers and true or false are not atoms)", strings.Trim(body[start:], asciiSpace))
			}
			v.Intern(name)
			return Formula{}, nil
		}
		return Formula{}, fail(start, "expected a weight before the formula, or '.' after it for a hard formula")
	}
	if strings.Trim(src, asciiSpace) == "" {
		return Formula{}, fail(start, "expected a formula")
	}
	declared := v.Len()
	f, err := logic.ParseFormulaAt(v, pos(start), src)
	if err != nil {
		return Formula{}, err
	}
	if a, ok := undeclared(f, declared); ok {
		name := v.Name(a)
		return Formula{}, fail(start+atomOffset(src, name), "atom %q is not declared (declare it on a line of its own before the formulas)", name)
	}
	return Formula{F: f, Weight: weight, Hard: hard}, nil
}

// parseHard parses src, without its '.', as a hard formula over the atoms
// declared in v, adding none.
func parseHard(v *logic.Vocabulary, at logic.Position, src string) (Formula, error) {
	n := v.Len()
	f, err := logic.ParseFormulaAt(v.Clone(), at, alchemyToStrata(src))
	if err != nil {
		return Formula{}, err
	}
	if _, ok := undeclared(f, n); ok {
		return Formula{}, errors.New("undeclared atom")
	}
	return Formula{F: f, Hard: true}, nil
}

// undeclared returns an atom of f numbered from n on: one that parsing f
// interned, so that no declaration named it.
func undeclared(f *logic.Formula, n int) (logic.Atom, bool) {
	for _, a := range f.Atoms() {
		if int(a) >= n {
			return a, true
		}
	}
	return 0, false
}

// atomOffset returns where the atom name first stands alone in s (0 if it
// cannot be found, which only misplaces the column).
func atomOffset(s, name string) int {
	for from := 0; ; {
		k := strings.Index(s[from:], name)
		if k < 0 {
			return 0
		}
		i, j := from+k, from+k+len(name)
		if (i == 0 || !identByte(s[i-1])) && (j == len(s) || !identByte(s[j])) {
			return i
		}
		from = i + 1
	}
}

// numberEnd returns the end of a decimal number (sign, digits, point,
// exponent) starting at i, or i when there is none.
func numberEnd(s string, i int) int {
	j := i
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		j++
	}
	digits := 0
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
		if s[j] != '.' {
			digits++
		}
		j++
	}
	if digits == 0 {
		return i
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '-' || s[k] == '+') {
			k++
		}
		if k < len(s) && s[k] >= '0' && s[k] <= '9' {
			for k < len(s) && s[k] >= '0' && s[k] <= '9' {
				k++
			}
			j = k
		}
	}
	return j
}

// identByte reports whether c can be part of an atom name in strata's
// lexer.
func identByte(c byte) bool {
	return c == '_' || c == '\'' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// alchemyToStrata replaces Alchemy's disjunction 'v' (a lone letter v) by
// '|'. The text keeps its length, so columns in error messages stay right.
func alchemyToStrata(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c == 'v' && (i == 0 || !identByte(b[i-1])) && (i+1 == len(b) || !identByte(b[i+1]) || b[i+1] == '-' && i+2 < len(b) && b[i+2] == '>') {
			b[i] = '|'
		}
	}
	return string(b)
}

func isDeclaration(s string) bool {
	s = strings.TrimSuffix(strings.Trim(s, asciiSpace), "()")
	if s == "" || s == "true" || s == "false" || s[0] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !identByte(s[i]) {
			return false
		}
	}
	return true
}

// WriteAlchemy writes n in the syntax ReadAlchemy reads: the atoms declared
// one per line in order, then one formula per line, weights as the shortest
// decimal that denotes them, which reads back as the same float64. It fails,
// writing nothing, on what would not read back: an atom name that is not
// one in Alchemy's syntax (an atom of strata's, other than "v"), a formula
// nested too deeply (logic.MaxDepth), a weight that is not a finite number.
func WriteAlchemy(w io.Writer, n *Network) error {
	if err := n.Check(); err != nil {
		return err
	}
	for _, name := range n.Vocab.Names() {
		if !alchemyAtomName(name) {
			return fmt.Errorf("write Alchemy: %q is not an atom name of Alchemy's syntax", name)
		}
	}
	for i, f := range n.Formulas {
		if d := f.F.Depth(); d > logic.MaxDepth {
			return fmt.Errorf("write Alchemy: formula %d nests %d levels deep, more than the %d a reader accepts", i+1, d, logic.MaxDepth)
		}
		if !f.Hard && (math.IsNaN(f.Weight) || math.IsInf(f.Weight, 0)) {
			return fmt.Errorf("write Alchemy: formula %d has weight %v, not a finite number", i+1, f.Weight)
		}
	}
	bw := bufio.NewWriter(logic.LineLimit(w, "network"))
	bw.WriteString("// propositional Markov logic network: atoms, then weighted and hard formulas\n")
	for _, name := range n.Vocab.Names() {
		bw.WriteString(name)
		bw.WriteByte('\n')
	}
	bw.WriteByte('\n')
	for _, f := range n.Formulas {
		text := alchemyString(n.Vocab, f.F)
		if f.Hard {
			fmt.Fprintf(bw, "%s.\n", text)
		} else {
			fmt.Fprintf(bw, "%s  %s\n", strconv.FormatFloat(f.Weight, 'f', -1, 64), text)
		}
	}
	return bw.Flush()
}

// alchemyAtomName reports whether name can be an atom of a network in
// Alchemy's syntax: an atom of strata's syntax (logic.IsAtomName) other
// than "v", Alchemy's disjunction.
func alchemyAtomName(name string) bool {
	return logic.IsAtomName(name) && name != "v"
}

var toAlchemy = strings.NewReplacer(" & ", " ^ ", " | ", " v ", " <-> ", " <=> ", " -> ", " => ")

// alchemyString returns f in Alchemy's connectives (^, v, =>, <=>).
func alchemyString(v *logic.Vocabulary, f *logic.Formula) string {
	// strata's printer puts spaces around binary connectives only, and atom
	// names hold no spaces, so the replacement touches connectives alone.
	return toAlchemy.Replace(f.String(v))
}

// asciiSpace is the blank space of the syntax. Unicode spaces are not
// trimmed, since strata's lexer takes bytes >= 0x80 as parts of atom names.
const asciiSpace = " \t\r"
