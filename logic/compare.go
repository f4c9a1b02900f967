package logic

import (
	"math"
	"strconv"
	"strings"
)

// Comparison atoms are the atoms a learner makes from a table's columns:
//
//	odor=foul          a categorical column has a value; its negation is written odor!=foul
//	age <= 30          a numeric column is at most a threshold; its negation is written age > 30
//
// Each is one atom: its name in a Vocabulary is the canonical text
// ("odor=foul", "age<=30"), and the negative literal of a threshold atom
// is printed and read as the opposite comparison, as a person writes it.
// A column or value that is not a bare word (letters, digits, '_', '.',
// '+', '\'', '-' not starting "->", and any non-ASCII character) is written
// in double quotes with Go's escapes: label="<=50K", "native country"=Peru.
// Blanks around the operator are allowed; a threshold is a finite decimal
// number, read to a float64 and named by its shortest text, so that
// "age <= 30.0" and "age<=30" are the same atom.

// Comparison operators of comparison atoms.
const (
	OpEq = "="  // col=value
	OpLe = "<=" // col<=threshold
)

// Comparison is a comparison atom taken apart.
type Comparison struct {
	Column string
	Op     string // OpEq or OpLe
	Value  string // for OpLe the threshold's canonical number text (see FormatThreshold)
}

// Threshold returns the number of an OpLe comparison.
func (c Comparison) Threshold() float64 {
	x, _ := strconv.ParseFloat(c.Value, 64)
	return x
}

// Name returns the canonical atom name of c.
func (c Comparison) Name() string {
	return quoteWord(c.Column) + c.Op + quoteWord(c.Value)
}

// EqualityName returns the name of the atom col=value.
func EqualityName(col, value string) string { return Comparison{col, OpEq, value}.Name() }

// ThresholdName returns the name of the atom col<=t; t must be finite.
func ThresholdName(col string, t float64) string {
	return Comparison{col, OpLe, FormatThreshold(t)}.Name()
}

// FormatThreshold returns the shortest decimal text that reads back as t,
// without an exponent unless t is very large or very small.
func FormatThreshold(t float64) string {
	if a := math.Abs(t); t == 0 || a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(t, 'f', -1, 64)
	}
	return strconv.FormatFloat(t, 'g', -1, 64)
}

// ParseComparison takes a canonical comparison atom name apart; ok is false
// for any other atom name.
func ParseComparison(name string) (c Comparison, ok bool) {
	if !strings.Contains(name, "=") {
		return c, false // the fast path of every ordinary atom
	}
	col, n := scanWord(name, 0)
	if n < 0 {
		return c, false
	}
	op, neg, m := scanCompareOp(name, n)
	if m < 0 || neg {
		return c, false
	}
	val, k := scanWord(name, m)
	if k != len(name) {
		return c, false
	}
	return Comparison{Column: col, Op: op, Value: val}, true
}

// litText returns the text of literal l of the atom named name: the name
// itself, or "!name", except that comparison atoms read as a person writes
// them ("age <= 30", "age > 30", "odor=foul", "odor!=foul").
func litText(name string, neg bool) string {
	c, ok := ParseComparison(name)
	switch {
	case !ok && neg:
		return "!" + name
	case !ok:
		return name
	case c.Op == OpLe && neg:
		return quoteWord(c.Column) + " > " + c.Value
	case c.Op == OpLe:
		return quoteWord(c.Column) + " <= " + c.Value
	case neg:
		return quoteWord(c.Column) + "!=" + quoteWord(c.Value)
	}
	return name
}

// isBareByte reports whether c may appear in a bare column or value; '-'
// may too, when it does not start "->".
func isBareByte(c byte) bool {
	return isIdentStart(c) || c == '.' || c == '+' || c == '\''
}

// bareLen returns the length of the bare word at the start of s. Invalid
// UTF-8 ends it: a column or value holding some is quoted, with Go's \x
// escapes, so that the atom's name is text every output writes as read.
func bareLen(s string) int {
	i := 0
	for i < len(s) {
		switch n := runeAt(s, i); {
		case n > 0 && isBareByte(s[i]):
			i += n
		case s[i] == '-' && !strings.HasPrefix(s[i:], "->"):
			i++
		default:
			return i
		}
	}
	return i
}

// quoteWord returns s bare when it is a bare word, else in double quotes.
func quoteWord(s string) string {
	if s != "" && bareLen(s) == len(s) {
		return s
	}
	return strconv.Quote(s)
}

// scanWord reads a bare or quoted word at src[i:] and returns it and the
// offset after it; the offset is -1 when there is none, -2 for a quoted
// word that does not end or does not unquote.
func scanWord(src string, i int) (string, int) {
	if i < len(src) && src[i] == '"' {
		j := i + 1
		for j < len(src) && src[j] != '"' {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(src) {
			return "", -2
		}
		s, err := strconv.Unquote(src[i : j+1])
		if err != nil {
			return "", -2
		}
		return s, j + 1
	}
	n := bareLen(src[i:])
	if n == 0 {
		return "", -1
	}
	return src[i : i+n], i + n
}

// scanCompareOp reads a comparison operator at src[i:], after blanks, and
// returns it as the operator of the atom, whether the literal is its
// negation, and the offset after it (and the blanks after it); -1 when
// there is none. "<=>" and "=>" are connectives, not comparisons.
func scanCompareOp(src string, i int) (op string, neg bool, next int) {
	i = skipBlanks(src, i)
	rest := src[i:]
	switch {
	case strings.HasPrefix(rest, "<=>"), strings.HasPrefix(rest, "=>"):
		return "", false, -1
	case strings.HasPrefix(rest, "<="):
		return OpLe, false, skipBlanks(src, i+2)
	case strings.HasPrefix(rest, "!="):
		return OpEq, true, skipBlanks(src, i+2)
	case strings.HasPrefix(rest, ">"):
		return OpLe, true, skipBlanks(src, i+1)
	case strings.HasPrefix(rest, "="):
		return OpEq, false, skipBlanks(src, i+1)
	}
	return "", false, -1
}

func skipBlanks(src string, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

// lexComparison reads a comparison at src[start:] if there is one: a word,
// an operator and a value. It returns the token (an atom, a negated atom,
// or an error token whose text says what is wrong) and the offset after
// it; ok is false when the text is not a comparison, to be lexed as before.
func lexComparison(src string, start int) (tok token, next int, ok bool) {
	col, i := scanWord(src, start)
	if i == -2 {
		return token{tCmpErr, start, "a quoted name that does not end or holds a bad escape"}, len(src), true
	}
	if i < 0 {
		return token{}, 0, false
	}
	op, neg, j := scanCompareOp(src, i)
	if j < 0 {
		if src[start] == '"' {
			return token{tCmpErr, start, "a quoted column name must be followed by =, !=, <= or >"}, i, true
		}
		return token{}, 0, false
	}
	val, k := scanWord(src, j)
	switch {
	case k == -2:
		return token{tCmpErr, j, "a quoted value that does not end or holds a bad escape"}, len(src), true
	case k < 0:
		return token{tCmpErr, j, "expected a value after " + strconv.Quote(strings.TrimSpace(src[i:j]))}, j, true
	}
	if op == OpLe {
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || src[j] == '"' {
			return token{tCmpErr, j, "expected a finite number after " + strconv.Quote(strings.TrimSpace(src[i:j])) + ", found " + strconv.Quote(val)}, k, true
		}
		val = FormatThreshold(x)
	}
	kind := tIdent
	if neg {
		kind = tNegIdent
	}
	return token{kind, start, Comparison{Column: col, Op: op, Value: val}.Name()}, k, true
}
