package logic

import "strconv"

// Auxiliary atoms are the atoms an encoding makes for its own use: the
// subformulas ClausesNamed names by atoms, the registers of Sinz's counter
// over a table's values, the variables a WCNF file leaves unnamed. They are
// all named by one rule (FreshName): an underscore, the encoding's purpose
// and a number, the first such name that is not taken. An encoding makes
// its atoms once the data's are known, so that it never takes an atom of
// the data for one of its own; a name of the rule is one the parser reads,
// so that a checkpoint can spell it; and which atoms are auxiliary is known
// by the encoding that made them, never guessed from a name (a user's atom
// may start with an underscore).

// FreshName returns the first name _PURPOSE1, _PURPOSE2, … after the n-th
// that taken does not hold, and its number.
func FreshName(purpose string, n int, taken func(string) bool) (string, int) {
	for {
		n++
		if name := "_" + purpose + strconv.Itoa(n); !taken(name) {
			return name, n
		}
	}
}

// Fresh returns a maker of auxiliary atoms of v for purpose (a few
// letters): each call interns the next name of the rule (FreshName) that
// v does not hold yet.
func Fresh(v *Vocabulary, purpose string) func() Atom {
	n := 0
	held := func(name string) bool { _, ok := v.Lookup(name); return ok }
	return func() Atom {
		var name string
		name, n = FreshName(purpose, n, held)
		return v.Intern(name)
	}
}
