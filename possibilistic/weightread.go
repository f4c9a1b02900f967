package possibilistic

import (
	"fmt"
	"strconv"
	"strings"
)

// A weight is read as a float64, which keeps about 16 significant digits.
// Two weights written differently in one theory that read as the same
// float64 (0.3 and 0.30000000000000001) would merge two levels, and a weight
// below 1 that reads as 1 (0.99999999999999999999) would make its formulas
// certain; weightReader refuses both rather than change the theory
// silently. Weights that are the same number however written (0.5, 0.50,
// 5e-1) are one level, as always.

// weightReader reads the weights of one theory, remembering, for each
// float64 read, the decimal number first written for it and where.
type weightReader struct {
	seen map[float64]weightText
}

type weightText struct {
	value string // the decimal number, normalised: digits "e" exponent (decimalValue)
	text  string // as written
	at    string // where, for messages: "line 3"
}

// read parses the weight text s, written at at. It returns the weight, or
// a message saying what is wrong with s: not a decimal number in ]0,1],
// or one that a float64 does not tell apart from 1 or from another weight
// of the theory.
func (wr *weightReader) read(s, at string) (float64, string) {
	w, err := strconv.ParseFloat(s, 64)
	digits, exp, decimal := decimalValue(s)
	if err != nil || !decimal || !(w > 0 && w <= 1) {
		return 0, fmt.Sprintf("expected a weight in ]0,1] before ':', found %q", s)
	}
	if w == 1 && (digits != "1" || exp != 0) {
		if len(digits)-1+exp >= 0 { // at least 1, and not 1
			return 0, fmt.Sprintf("weight %s is above 1 (weights are in ]0,1])", s)
		}
		return 0, fmt.Sprintf("weight %s is below 1 but reads as 1, which would make its formulas certain: a weight keeps about 16 significant digits", s)
	}
	if wr.seen == nil {
		wr.seen = map[float64]weightText{}
	}
	value := digits + "e" + strconv.Itoa(exp)
	if first, ok := wr.seen[w]; ok && first.value != value {
		return 0, fmt.Sprintf("weight %s reads as the same number as weight %s (%s), which would merge their levels: a weight keeps about 16 significant digits", s, first.text, first.at)
	} else if !ok {
		wr.seen[w] = weightText{value: value, text: s, at: at}
	}
	return w, ""
}

// decimalValue returns the number that the decimal literal s
// ([+]digits[.digits][e[±]digits], or .digits) writes as its significant
// digits and the power of ten of the last one, so that two literals of the
// same number give the same pair: ("5", -1) for 0.5, 0.50 and 5e-1; ("1", 0)
// for 1 and 1.000; ("", 0) for zero. decimal is false for anything else
// (hexadecimal, inf, nan, a minus sign).
func decimalValue(s string) (digits string, exp int, decimal bool) {
	s = strings.TrimPrefix(s, "+")
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || strings.HasPrefix(s[i+1:], "+-") {
			return "", 0, false
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return "", 0, false
	}
	all := strings.TrimLeft(intPart+frac, "0")
	digits = strings.TrimRight(all, "0")
	if digits == "" {
		return "", 0, true
	}
	return digits, exp - len(frac) + len(all) - len(digits), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
