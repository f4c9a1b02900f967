package logic

import (
	"strconv"
	"strings"
)

// Atom is a propositional variable, identified by its index in a Vocabulary.
type Atom int32

// Lit is a literal: an atom or its negation. The encoding 2*atom+sign keeps
// literals dense so that solvers can index arrays by them.
type Lit int32

// Pos returns the positive literal of a.
func Pos(a Atom) Lit { return Lit(a) << 1 }

// Neg returns the negative literal of a.
func Neg(a Atom) Lit { return Lit(a)<<1 | 1 }

// MkLit returns the literal of a that is negative when neg is true.
func MkLit(a Atom, neg bool) Lit {
	if neg {
		return Neg(a)
	}
	return Pos(a)
}

// Atom returns the atom of l.
func (l Lit) Atom() Atom { return Atom(l >> 1) }

// IsNeg reports whether l is a negative literal.
func (l Lit) IsNeg() bool { return l&1 == 1 }

// Not returns the complement of l.
func (l Lit) Not() Lit { return l ^ 1 }

// Holds reports whether l is true in the world w, given as one truth value
// per atom.
func (l Lit) Holds(w []bool) bool { return w[l.Atom()] != l.IsNeg() }

// Vocabulary interns atom names. The zero value is an empty vocabulary ready
// to use. A Vocabulary is not safe for concurrent mutation; concurrent reads
// (Name, Lookup, Len) are safe once interning has stopped.
type Vocabulary struct {
	names []string
	index map[string]Atom
}

// NewVocabulary returns a vocabulary holding the given names, in order.
func NewVocabulary(names ...string) *Vocabulary {
	v := &Vocabulary{}
	for _, n := range names {
		v.Intern(n)
	}
	return v
}

// Intern returns the atom named name, adding it if it is new.
func (v *Vocabulary) Intern(name string) Atom {
	if a, ok := v.index[name]; ok {
		return a
	}
	if v.index == nil {
		v.index = make(map[string]Atom)
	}
	a := Atom(len(v.names))
	v.names = append(v.names, name)
	v.index[name] = a
	return a
}

// Lookup returns the atom named name, if it exists.
func (v *Vocabulary) Lookup(name string) (Atom, bool) {
	a, ok := v.index[name]
	return a, ok
}

// Len returns the number of atoms.
func (v *Vocabulary) Len() int { return len(v.names) }

// Name returns the name of a. Atoms outside the vocabulary (auxiliary
// variables of an encoding) are named by their index, "_17".
func (v *Vocabulary) Name(a Atom) string {
	if int(a) < len(v.names) && a >= 0 {
		return v.names[a]
	}
	return "_" + strconv.Itoa(int(a))
}

// Names returns a copy of all atom names, indexed by atom.
func (v *Vocabulary) Names() []string { return append(make([]string, 0, len(v.names)), v.names...) }

// Clone returns an independent copy of v.
func (v *Vocabulary) Clone() *Vocabulary { return NewVocabulary(v.names...) }

// LitString returns l in the textual syntax: "bird" or "!bird"; a
// comparison atom as a person writes it, "age <= 30" or "age > 30"
// (compare.go).
func (v *Vocabulary) LitString(l Lit) string { return litText(v.Name(l.Atom()), l.IsNeg()) }

// Join writes the literals of ls separated by sep, e.g. ", " or " | ".
func (v *Vocabulary) Join(ls []Lit, sep string) string {
	var b strings.Builder
	for i, l := range ls {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(v.LitString(l))
	}
	return b.String()
}

// IsAtomName reports whether name reads back as exactly that atom in the
// textual syntax: not a keyword, a number, a connective or text with
// spaces. Writers check the names they write with it, so that a vocabulary
// from another format (a WCNF file's comments) cannot give a file that does
// not read back.
func IsAtomName(name string) bool {
	toks := lex(name)
	return len(toks) == 2 && toks[0].kind == tIdent && toks[0].text == name && toks[1].off == len(name)
}
