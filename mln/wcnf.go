package mln

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// WriteWCNF writes the compiled network in the standard weighted CNF format
// of the MaxSAT evaluations ("p wcnf VARS CLAUSES TOP", then "WEIGHT LITS 0"
// per clause, hard clauses with weight TOP), so that other MaxSAT solvers can
// check strata's answers. Variable i+1 is atom i; soft terms get a fresh
// variable y with the soft unit clause y and hard clauses y → l. Comment lines
// record the atom names ("c atom 1 a1") and the cost scale ("c scale
// 1000000": a clause of weight k stands for a formula of weight k/scale), so
// that ReadWCNF gives back the names and weights.
func WriteWCNF(w io.Writer, n *Network) error {
	c, err := Compile(n)
	if err != nil {
		return err
	}
	p := c.Problem
	nv := p.NumVars
	type wclause struct {
		w    int64
		lits []logic.Lit
	}
	var cls []wclause
	top := p.TotalCost() + 1
	for _, h := range p.Hard {
		cls = append(cls, wclause{top, h})
	}
	for _, s := range p.Soft {
		if !s.Term || len(s.Lits) == 1 {
			cls = append(cls, wclause{s.Cost, s.Lits})
			continue
		}
		if len(s.Lits) == 0 {
			continue // the empty term always holds
		}
		y := logic.Atom(nv)
		nv++
		cls = append(cls, wclause{s.Cost, []logic.Lit{logic.Pos(y)}})
		for _, l := range s.Lits {
			cls = append(cls, wclause{top, []logic.Lit{logic.Neg(y), l}})
		}
	}
	for a := 0; a < c.Atoms; a++ {
		if name := n.Vocab.Name(logic.Atom(a)); !logic.IsAtomName(name) {
			return fmt.Errorf("write WCNF: %q is not an atom name that reads back", name)
		}
	}
	bw := bufio.NewWriter(logic.LineLimit(w, "network"))
	fmt.Fprintf(bw, "c propositional Markov logic network, MAP as weighted MaxSAT (written by strata)\n")
	// The scale as the exact decimal 10^Decimals, which a float64 is not
	// above 10^22.
	fmt.Fprintf(bw, "c scale 1%s\n", strings.Repeat("0", c.Decimals))
	for a := 0; a < c.Atoms; a++ {
		fmt.Fprintf(bw, "c atom %d %s\n", a+1, n.Vocab.Name(logic.Atom(a)))
	}
	fmt.Fprintf(bw, "p wcnf %d %d %d\n", nv, len(cls), top)
	for _, cl := range cls {
		bw.WriteString(strconv.FormatInt(cl.w, 10))
		for _, l := range cl.lits {
			d := int(l.Atom()) + 1
			if l.IsNeg() {
				d = -d
			}
			bw.WriteByte(' ')
			bw.WriteString(strconv.Itoa(d))
		}
		bw.WriteString(" 0\n")
	}
	return bw.Flush()
}

// ReadWCNF reads a weighted CNF file, in the classic format (a "p wcnf VARS
// CLAUSES [TOP]" line, then "WEIGHT LITS 0" with weight >= TOP for hard
// clauses) or the 2022 one (no p line; "h LITS 0" for hard clauses). Every
// soft clause becomes a formula of weight WEIGHT/scale, where scale comes
// from a "c scale S" comment (1 without one); with a power of ten, as
// WriteWCNF writes, the weight is the decimal WEIGHT·10^-k exactly. Atoms
// are named from "c atom I NAME" comments, and a<I> otherwise (_x<I> for
// the auxiliary variables of a file that names its atoms); a NAME must be
// an atom of strata's syntax, and name one variable. A file with fewer or
// more clauses than its p line says is an error (a truncated file), as is
// any other error, giving name, line and column.
func ReadWCNF(r io.Reader, name string) (*Network, error) {
	rd := wcnfReader{name: name, scale: 1, names: map[int]string{}, named: map[string]int{}, top: math.MaxInt64}
	// Comment lines ("c ...") carry the scale and the atom names, so the
	// reader sees them.
	err := logic.LineFormat{}.Each(r, name, func(line int, text string) error {
		rd.line = line
		return rd.parseLine(text)
	})
	if err != nil {
		return nil, err
	}
	if rd.pending != nil {
		return nil, rd.errorf(1, "expected 0 at the end of the last clause")
	}
	if rd.sawP && len(rd.clauses) != rd.declaredClauses {
		rd.line = rd.pLine
		return nil, rd.errorf(1, "the p line declares %d clauses, the file has %d (is it truncated?)", rd.declaredClauses, len(rd.clauses))
	}
	for i := range rd.names {
		if i > rd.maxVar {
			rd.line = rd.nameLine[i]
			return nil, rd.errorf(1, "atom name for variable %d, which no clause or p line has", i)
		}
	}
	return rd.network(), nil
}

// maxWCNFVars bounds the variables of a WCNF file, far above any network
// strata handles, so that a stray large number cannot exhaust memory.
const maxWCNFVars = 1 << 20

type wcnfReader struct {
	name     string
	line     int
	scale    float64
	decimals int // the scale is 10^decimals; -1: it is not a power of ten
	sawScale bool
	names    map[int]string
	named    map[string]int // name to variable
	nameLine map[int]int    // variable to the line naming it
	top      int64
	sawP     bool
	pLine    int
	maxVar   int
	clauses  []wcnfClause
	pending  *wcnfClause
	declared int
	// declaredClauses is the number of clauses the p line gives.
	declaredClauses int
}

type wcnfClause struct {
	hard bool
	w    int64
	lits []int
}

func (rd *wcnfReader) errorf(col int, format string, args ...any) error {
	return logic.Errorf(logic.Position{File: rd.name, Line: rd.line, Col: col}, format, args...)
}

// fields splits a line into words with their 1-based columns.
func fields(s string) (words []string, cols []int) {
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
			i++
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' {
			i++
		}
		if i > start {
			words = append(words, s[start:i])
			cols = append(cols, start+1)
		}
	}
	return words, cols
}

func (rd *wcnfReader) parseLine(text string) error {
	words, cols := fields(text)
	if len(words) == 0 {
		return nil
	}
	switch words[0] {
	case "c":
		return rd.comment(words, cols)
	case "p":
		return rd.header(words, cols)
	}
	for i, wd := range words {
		if rd.pending == nil {
			if err := rd.startClause(wd, cols[i]); err != nil {
				return err
			}
			continue
		}
		d, err := strconv.Atoi(wd)
		if err != nil {
			return rd.errorf(cols[i], "expected a literal (a non-zero integer) or 0, found %q", wd)
		}
		if d == 0 {
			rd.clauses = append(rd.clauses, *rd.pending)
			rd.pending = nil
			continue
		}
		if d < -maxWCNFVars || d > maxWCNFVars {
			return rd.errorf(cols[i], "variable %d is out of range (at most %d variables)", abs(d), maxWCNFVars)
		}
		if rd.sawP && abs(d) > rd.declared {
			return rd.errorf(cols[i], "variable %d is above the %d declared in the p line", abs(d), rd.declared)
		}
		rd.maxVar = max(rd.maxVar, abs(d))
		rd.pending.lits = append(rd.pending.lits, d)
	}
	return nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// comment reads the comments WriteWCNF writes, "c scale S" and "c atom I
// NAME" with a number S and I; other comments are free text.
func (rd *wcnfReader) comment(words []string, cols []int) error {
	if len(words) < 3 {
		return nil
	}
	num, err := strconv.ParseFloat(words[2], 64)
	if err != nil {
		return nil // free text
	}
	switch {
	case len(words) == 3 && words[1] == "scale":
		if rd.sawScale {
			return rd.errorf(cols[0], "a second 'c scale' line")
		}
		s := num
		if !(s > 0) || math.IsInf(s, 0) {
			return rd.errorf(cols[2], "expected the cost scale, a positive number, found %q", words[2])
		}
		rd.scale, rd.sawScale, rd.decimals = s, true, -1
		if z := strings.TrimLeft(words[2][1:], "0"); words[2][0] == '1' && z == "" {
			rd.decimals = len(words[2]) - 1 // "1000": weights are decimals
		}
	case len(words) == 4 && words[1] == "atom":
		i, err := strconv.Atoi(words[2])
		if err != nil || i <= 0 || i > maxWCNFVars || num != float64(i) {
			return rd.errorf(cols[2], "expected the variable an atom name is for, found %q", words[2])
		}
		name := words[3]
		if !logic.IsAtomName(name) {
			return rd.errorf(cols[3], "%q is not an atom name (a letter, digit or '_' first, then those, '-' or '\\'', no connective or keyword)", name)
		}
		if prev, ok := rd.names[i]; ok {
			return rd.errorf(cols[2], "variable %d is named twice (%s and %s)", i, prev, name)
		}
		if j, ok := rd.named[name]; ok {
			return rd.errorf(cols[3], "atom name %s is given to variables %d and %d", name, j, i)
		}
		if rd.sawP && i > rd.declared {
			return rd.errorf(cols[2], "variable %d is above the %d declared in the p line", i, rd.declared)
		}
		rd.names[i], rd.named[name] = name, i
		if rd.nameLine == nil {
			rd.nameLine = map[int]int{}
		}
		rd.nameLine[i] = rd.line
	}
	return nil
}

func (rd *wcnfReader) header(words []string, cols []int) error {
	if rd.sawP || len(rd.clauses) > 0 || rd.pending != nil {
		return rd.errorf(cols[0], "the p line must come once, before the clauses")
	}
	if len(words) < 4 || len(words) > 5 || words[1] != "wcnf" {
		return rd.errorf(cols[0], "expected 'p wcnf VARS CLAUSES [TOP]'")
	}
	nv, err := strconv.Atoi(words[2])
	if err != nil || nv < 0 || nv > maxWCNFVars {
		return rd.errorf(cols[2], "expected the number of variables, found %q", words[2])
	}
	nc, err := strconv.Atoi(words[3])
	if err != nil || nc < 0 {
		return rd.errorf(cols[3], "expected the number of clauses, found %q", words[3])
	}
	if len(words) == 5 {
		t, err := strconv.ParseInt(words[4], 10, 64)
		if err != nil || t <= 0 {
			return rd.errorf(cols[4], "expected the weight of hard clauses (top), found %q", words[4])
		}
		rd.top = t
	}
	for i := range rd.names {
		if i > nv {
			return rd.errorf(cols[2], "%d variables, but variable %d is named", nv, i)
		}
	}
	rd.sawP, rd.declared, rd.declaredClauses, rd.pLine = true, nv, nc, rd.line
	rd.maxVar = max(rd.maxVar, nv)
	return nil
}

func (rd *wcnfReader) startClause(wd string, col int) error {
	if wd == "h" {
		rd.pending = &wcnfClause{hard: true}
		return nil
	}
	w, err := strconv.ParseInt(wd, 10, 64)
	if err != nil || w < 0 {
		return rd.errorf(col, "expected a clause weight (a non-negative integer) or 'h', found %q", wd)
	}
	rd.pending = &wcnfClause{w: w, hard: w >= rd.top}
	return nil
}

func (rd *wcnfReader) network() *Network {
	v := &logic.Vocabulary{}
	n := &Network{Vocab: v}
	taken := map[string]bool{}
	for _, name := range rd.names {
		taken[name] = true
	}
	fresh := 0
	for i := 1; i <= rd.maxVar; i++ {
		name, ok := rd.names[i]
		aux := false
		if _, dup := v.Lookup(name); !ok || dup {
			// Unnamed (or named twice): a<i>, unless a comment gave that
			// name to another variable; in a file that names its atoms,
			// the unnamed ones are auxiliary, named by the rule of every
			// auxiliary atom (logic.FreshName: _x1, _x2, …).
			name = "a" + strconv.Itoa(i)
			if len(rd.names) > 0 {
				name, fresh = logic.FreshName("x", fresh, func(n string) bool { return taken[n] })
				aux = true
			}
		}
		taken[name] = true
		v.Intern(name)
		n.Auxiliary = append(n.Auxiliary, aux)
	}
	for _, c := range rd.clauses {
		if !c.hard && c.w == 0 {
			continue
		}
		cl := make(logic.Clause, len(c.lits))
		for i, d := range c.lits {
			cl[i] = logic.MkLit(logic.Atom(abs(d)-1), d < 0)
		}
		f := Formula{F: logic.ClauseF(cl), Hard: c.hard}
		if !c.hard {
			f.Weight = rd.weight(c.w)
		}
		n.Formulas = append(n.Formulas, f)
	}
	return n
}

// weight returns the weight of a soft clause of cost w: w/scale, read as
// the decimal w·10^-k when the scale is 10^k, so that the weights WriteWCNF
// wrote read back as the same float64 however many digits they have.
func (rd *wcnfReader) weight(w int64) float64 {
	if rd.decimals < 0 {
		return float64(w) / rd.scale
	}
	x, err := strconv.ParseFloat(strconv.FormatInt(w, 10)+"e-"+strconv.Itoa(rd.decimals), 64)
	if err != nil { // out of range: as near as a float64 gets
		return float64(w) / rd.scale
	}
	return x
}
