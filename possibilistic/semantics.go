package possibilistic

import "fmt"

// Semantics says how a stratified theory is used when evidence α clashes
// with it.
//
//   - Poss is the paper's (Θ, α) ⊢poss β: every level at or below the
//     inconsistency level that α causes is drowned.
//   - Linear (Nebel's linear base revision) goes down the levels from the
//     top, keeps a level whole when it is consistent with α and the levels
//     kept so far, and skips it otherwise.
//   - Lex (Benferhat, Cayrol, Dubois, Lang and Prade 1993) keeps the models
//     of α whose vector of violated-formula counts, level by level from the
//     top, is lexicographically least.
//
// Linear and Lex never lose a consequence of Poss. The zero value is Poss,
// the default everywhere.
type Semantics uint8

const (
	Poss Semantics = iota
	Linear
	Lex
)

// AllSemantics lists every semantics, in the order of their constants.
var AllSemantics = []Semantics{Poss, Linear, Lex}

// String returns the name used on the command line and in files: poss,
// linear or lex.
func (s Semantics) String() string {
	switch s {
	case Poss:
		return "poss"
	case Linear:
		return "linear"
	case Lex:
		return "lex"
	}
	return fmt.Sprintf("Semantics(%d)", uint8(s))
}

// ParseSemantics reads a name written by String.
func ParseSemantics(name string) (Semantics, error) {
	for _, s := range AllSemantics {
		if s.String() == name {
			return s, nil
		}
	}
	return Poss, fmt.Errorf("unknown semantics %q (want poss, linear or lex)", name)
}

// MarshalText implements encoding.TextMarshaler, so that a Semantics reads
// and writes as its name in JSON.
func (s Semantics) MarshalText() ([]byte, error) {
	if s > Lex {
		return nil, fmt.Errorf("invalid semantics %d", uint8(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Semantics) UnmarshalText(b []byte) error {
	v, err := ParseSemantics(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}
