package possibilistic

import (
	stdctx "context"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// Reasoner answers queries about one theory. It compiles the theory once
// into an incremental SAT solver in which every clause of level j carries the
// selector literal ¬s_j, so that a strict cut is a set of assumptions, and
// the evidence α of a conditional query is one more set of assumptions. The
// queries that keep part of a level (lex, explanations) add a selector per
// formula (splitLevel).
//
// Levels are indexed from 0 (lowest weight). The evidence α has weight 1: it
// joins the top level when that level has weight 1, and forms a level of its
// own above all others otherwise. Writing K for the number of levels counting
// α's, the cut at i holds the levels i..K−1; the cut at K is empty.
//
// A Reasoner is not safe for concurrent use; build one per goroutine.
type Reasoner struct {
	vocab   *logic.Vocabulary
	weights []float64
	clauses [][][]logic.Lit    // per level: clauses in solver literals
	others  [][]*logic.Formula // per level: non-clausal formulas, in vocabulary atoms
	s       *sat.Solver
	sel     []logic.Lit // selector of each level
	forms   [][]form    // per level: the formulas and their selectors
	varOf   []logic.Atom
	k       int // number of theory levels
	kEff    int // K: levels counting α's

	assume  []logic.Lit
	alpha   []logic.Lit  // α as assumptions, in solver literals
	negBeta []logic.Lit  // ¬β as assumptions
	beta    []logic.Lit  // β when it is a clause, in solver literals
	betaV   logic.Clause // the same in vocabulary atoms
	betaF   *logic.Formula
	retire  []logic.Lit
	world   []bool
	calls   int

	ctx      context     // the parts of the theory the last evidence keeps
	off      []logic.Lit // per split level: clears its formula selectors
	hasOff   []bool
	tot      [][]logic.Lit  // per level: the totalizer's outputs
	distinct []int          // per level: the number of distinct formulas
	track    bool           // incSearch leaves its last model in world
	stop     stdctx.Context // of the running …Context call; nil otherwise
}

// NewReasoner compiles t. Later changes to t do not affect the Reasoner.
func NewReasoner(t *Theory) *Reasoner {
	v := t.vocab()
	r := &Reasoner{vocab: v, s: sat.New(), k: len(t.Levels)}
	for range v.Len() {
		r.varOf = append(r.varOf, r.s.NewVar())
	}
	r.kEff = r.k + 1
	if r.k > 0 && t.Levels[r.k-1].Weight == 1 {
		r.kEff = r.k
	}
	r.weights = make([]float64, r.k)
	r.clauses = make([][][]logic.Lit, r.k)
	r.others = make([][]*logic.Formula, r.k)
	r.forms = make([][]form, r.k)
	r.off, r.hasOff = make([]logic.Lit, r.k), make([]bool, r.k)
	r.tot, r.distinct = make([][]logic.Lit, r.k), make([]int, r.k)
	for j, l := range t.Levels {
		r.weights[j] = l.Weight
		sel := logic.Pos(r.s.NewVar())
		r.sel = append(r.sel, sel)
		seen := make(map[uint64][]int, len(l.Formulas))
		for _, f := range l.Formulas {
			r.addFormula(j, f, seen)
		}
	}
	return r
}

// addFormula compiles formula f of level j; seen holds the indices of the
// level's first occurrences of formulas by hashFormula.
func (r *Reasoner) addFormula(j int, f *logic.Formula, seen map[uint64][]int) {
	fm := form{f: f, sel: r.sel[j], orig: len(r.forms[j])}
	c, isClause := f.AsClause()
	if isClause {
		fm.clause = c
	}
	h := hashFormula(f)
	for _, i := range seen[h] {
		if r.forms[j][i].f.Equal(f) {
			fm.dup, fm.orig = true, i
			r.forms[j] = append(r.forms[j], fm)
			return
		}
	}
	seen[h] = append(seen[h], len(r.forms[j]))
	r.forms[j] = append(r.forms[j], fm)
	r.distinct[j]++
	if isClause {
		r.clauses[j] = append(r.clauses[j], r.mapLits(nil, c))
	} else {
		r.others[j] = append(r.others[j], f)
	}
	r.guard(f, r.sel[j])
}

// guard adds the clauses of sel → f.
func (r *Reasoner) guard(f *logic.Formula, sel logic.Lit) {
	if c, ok := f.AsClause(); ok {
		r.s.AddClause(append(r.mapLits(nil, c), sel.Not())...)
		return
	}
	for _, c := range logic.CNF(f.Rename(r.atom), r.s.NewVar) {
		r.s.AddClause(append(c, sel.Not())...)
	}
}

// atom maps a vocabulary atom to its solver variable, creating variables
// for atoms interned after the Reasoner was built.
func (r *Reasoner) atom(a logic.Atom) logic.Atom {
	for int(a) >= len(r.varOf) {
		r.varOf = append(r.varOf, r.s.NewVar())
	}
	return r.varOf[a]
}

func (r *Reasoner) lit(l logic.Lit) logic.Lit { return logic.MkLit(r.atom(l.Atom()), l.IsNeg()) }

func (r *Reasoner) mapLits(dst []logic.Lit, ls []logic.Lit) []logic.Lit {
	for _, l := range ls {
		dst = append(dst, r.lit(l))
	}
	return dst
}

// Calls returns the number of SAT solver calls made so far.
func (r *Reasoner) Calls() int { return r.calls }

// Levels returns the number of levels of the compiled theory.
func (r *Reasoner) Levels() int { return r.k }

// weight returns the weight of effective level i (α's own level weighs 1).
func (r *Reasoner) weight(i int) float64 {
	if i < r.k {
		return r.weights[i]
	}
	return 1
}

// setAlpha compiles the evidence into assumptions. A term is assumed
// literal by literal; any other formula gets an activation literal that is
// retired after the query.
func (r *Reasoner) setAlpha(f *logic.Formula) {
	if t, ok := f.AsTerm(); ok {
		r.alpha = r.mapLits(r.alpha[:0], t)
		return
	}
	r.alpha = append(r.alpha[:0], r.activate(f))
}

// setBeta compiles the conclusion: ¬β as assumptions, β kept to test models.
func (r *Reasoner) setBeta(f *logic.Formula) {
	r.betaF = nil
	if c, ok := f.AsClause(); ok {
		r.setBetaClause(c)
		return
	}
	r.beta = r.beta[:0]
	r.betaF = f
	r.negBeta = append(r.negBeta[:0], r.activate(logic.Not(f)))
}

func (r *Reasoner) setBetaClause(c logic.Clause) {
	r.betaV = c
	r.beta = r.mapLits(r.beta[:0], c)
	r.negBeta = r.negBeta[:0]
	for _, l := range r.beta {
		r.negBeta = append(r.negBeta, l.Not())
	}
}

// activate adds the clauses of x → f for a fresh x and returns x.
func (r *Reasoner) activate(f *logic.Formula) logic.Lit {
	x := logic.Pos(r.s.NewVar())
	for _, c := range logic.CNF(f.Rename(r.atom), r.s.NewVar) {
		r.s.AddClause(append(c, x.Not())...)
	}
	r.retire = append(r.retire, x)
	return x
}

// done retires the activation literals of a query: their clauses become
// satisfied for good and the solver drops them.
func (r *Reasoner) done() {
	for _, x := range r.retire {
		r.s.AddClause(x.Not())
	}
	r.retire = r.retire[:0]
}

// solveCut reports whether the cut at i, with α (when i < K) and, if asked,
// ¬β, is satisfiable.
func (r *Reasoner) solveCut(i int, negBeta bool) bool {
	a := r.assume[:0]
	for j, s := range r.sel {
		if j >= i {
			a = append(a, s)
		} else {
			a = append(a, s.Not())
			if r.hasOff[j] {
				a = append(a, r.off[j]) // no decisions on its formula selectors
			}
		}
	}
	if i < r.kEff {
		a = append(a, r.alpha...)
	}
	if negBeta {
		a = append(a, r.negBeta...)
	}
	r.assume = a
	r.calls++
	return r.solve(a...)
}

// incSearch finds the smallest i whose cut is consistent with α, by binary
// search over 0..K (the cut at K is empty, hence consistent). A model found
// at mid also shows the cut consistent down to just above the highest level
// it violates, which lets the search jump. It reports whether the model
// that established the answer falsifies β, which settles a query without a
// further solver call; with r.track set, that model is left in r.world.
func (r *Reasoner) incSearch() (hi int, betaFalse bool) {
	lo, hi := 0, r.kEff
	for lo < hi {
		mid := (lo + hi) / 2
		if !r.solveCut(mid, false) {
			lo = mid + 1
			continue
		}
		hi = r.lowestSatisfied(mid)
		betaFalse = !r.betaHolds()
		if r.track {
			r.model()
		}
	}
	return hi, betaFalse
}

// lowestSatisfied returns the smallest j ≤ i such that the current model
// satisfies every level from j up.
func (r *Reasoner) lowestSatisfied(i int) int {
	for j := min(i, r.k) - 1; j >= 0; j-- {
		if !r.levelHolds(j) {
			return j + 1
		}
	}
	return 0
}

func (r *Reasoner) levelHolds(j int) bool {
	for _, c := range r.clauses[j] {
		if !r.clauseHolds(c) {
			return false
		}
	}
	if len(r.others[j]) > 0 {
		w := r.model()
		for _, f := range r.others[j] {
			if !f.Eval(w) {
				return false
			}
		}
	}
	return true
}

func (r *Reasoner) clauseHolds(c []logic.Lit) bool {
	for _, l := range c {
		if r.s.Value(l.Atom()) != l.IsNeg() {
			return true
		}
	}
	return false
}

func (r *Reasoner) betaHolds() bool {
	if r.betaF != nil {
		return r.betaF.Eval(r.model())
	}
	return r.clauseHolds(r.beta)
}

// model returns the current model over the vocabulary atoms.
func (r *Reasoner) model() []bool {
	r.world = r.world[:0]
	for a := range r.vocab.Len() {
		r.world = append(r.world, r.s.Value(r.atom(logic.Atom(a))))
	}
	return r.world
}

// entails decides (Θ, α) ⊢poss β for the compiled α and β.
func (r *Reasoner) entails() bool {
	hi, betaFalse := r.incSearch()
	if hi < r.kEff && betaFalse {
		return false
	}
	return !r.solveCut(hi, true)
}

// EntailsClause decides (Θ, α) ⊢poss β for a conjunction of literals α and a
// clause β: the learner's hot path. It allocates nothing once warmed up.
func (r *Reasoner) EntailsClause(alpha logic.Term, beta logic.Clause) bool {
	r.alpha = r.mapLits(r.alpha[:0], alpha)
	r.betaF = nil
	r.setBetaClause(beta)
	return r.entails()
}

// Entails decides (Θ, α) ⊢poss β, that is Θ ∪ {(α, 1)} ⊢poss β: β follows
// classically from α and the formulas above the inconsistency level of
// Θ ∪ {(α, 1)}. Use logic.True() as α for Θ ⊢poss β.
func (r *Reasoner) Entails(alpha, beta *logic.Formula) bool {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	return r.entails()
}

// Decide answers (Θ, α) ⊢poss β together with the inconsistency level and
// the necessity degree of β given α.
func (r *Reasoner) Decide(alpha, beta *logic.Formula) Verdict {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	hi, _ := r.incSearch()
	v := Verdict{Inconsistency: r.incWeight(hi)}
	v.Necessity = r.necessity(hi)
	v.Entailed = v.Necessity > 0
	return v
}

func (r *Reasoner) incWeight(hi int) float64 {
	if hi == 0 {
		return 0
	}
	return r.weight(hi - 1)
}

// necessity binary-searches the highest level j ≥ hi whose cut, with α,
// entails β; the cut at j being smaller the higher j is, entailment is
// monotone in j.
func (r *Reasoner) necessity(hi int) float64 {
	if hi == r.kEff {
		if !r.solveCut(hi, true) {
			return 1 // β is a tautology
		}
		return 0
	}
	if r.solveCut(hi, true) {
		return 0
	}
	lo, up := hi, r.kEff-1 // entailed at lo
	for lo < up {
		mid := (lo + up + 1) / 2
		if r.solveCut(mid, true) {
			up = mid - 1
		} else {
			lo = mid
		}
	}
	return r.weight(lo)
}

// Necessity returns the necessity degree of β given α: the highest weight at
// which (Θ, α) entails β, and 0 if it does not.
func (r *Reasoner) Necessity(alpha, beta *logic.Formula) float64 {
	return r.Decide(alpha, beta).Necessity
}

// Inconsistency returns inc(Θ ∪ {(α, 1)}): 0 when α is consistent with the
// whole theory, else the weight of the highest level that α drowns. With
// α = true it is inc(Θ).
func (r *Reasoner) Inconsistency(alpha *logic.Formula) float64 {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	hi, _ := r.incSearch()
	return r.incWeight(hi)
}

// MostPlausibleWorld returns a world of maximal possibility among those
// satisfying α (one truth value per vocabulary atom). It reports false when
// α has no world of positive possibility: α is contradictory, or
// contradicts the formulas of weight 1.
func (r *Reasoner) MostPlausibleWorld(alpha *logic.Formula) ([]bool, bool) {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	hi, _ := r.incSearch()
	if hi == r.kEff || !r.solveCut(hi, false) {
		return nil, false
	}
	return append([]bool(nil), r.model()...), true
}

// Conclusions returns the plausible conclusions of α: every literal l over
// the vocabulary with (Θ, α) ⊢poss l, in atom order. It is empty when α has
// no world of positive possibility. Each solver call that finds a model rules
// out every candidate literal that the model falsifies, and the literals of
// α itself need no call.
func (r *Reasoner) Conclusions(alpha *logic.Formula) []logic.Lit {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	hi, _ := r.incSearch()
	lits, _ := r.conclusions(hi)
	return lits
}

// Conclusion is a plausible conclusion with its necessity degree.
type Conclusion struct {
	Lit       logic.Lit
	Necessity float64
}

// Conclude returns the plausible conclusions of α, as Conclusions does, each
// with its necessity degree given α (see Necessity). α is compiled once for
// all of them, and a literal of α has necessity 1 without a solver call, so
// that evidence of thousands of literals costs no more than a few calls per
// other conclusion.
func (r *Reasoner) Conclude(alpha *logic.Formula) []Conclusion {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	hi, _ := r.incSearch()
	lits, given := r.conclusions(hi)
	out := make([]Conclusion, len(lits))
	for i, l := range lits {
		out[i].Lit = l
		if given[i] {
			out[i].Necessity = r.weight(r.kEff - 1) // α's own level
			continue
		}
		r.setBetaClause(logic.Clause{l})
		out[i].Necessity = r.necessity(hi)
	}
	return out
}

// conclusions returns the conclusions for the compiled α whose
// inconsistency search ended at hi, and which of them are literals of α.
func (r *Reasoner) conclusions(hi int) (out []logic.Lit, given []bool) {
	if hi == r.kEff || !r.solveCut(hi, false) {
		return nil, nil
	}
	inAlpha := make(map[logic.Lit]bool, len(r.alpha))
	for _, l := range r.alpha {
		inAlpha[l] = true
	}
	var cand []logic.Lit
	for a, val := range r.model() {
		cand = append(cand, logic.MkLit(logic.Atom(a), !val))
	}
	alive := make([]bool, len(cand))
	for i := range alive {
		alive[i] = true
	}
	for i, l := range cand {
		if !alive[i] {
			continue
		}
		if inAlpha[r.lit(l)] {
			out, given = append(out, l), append(given, true)
			continue
		}
		r.setBetaClause(logic.Clause{l})
		if !r.solveCut(hi, true) {
			out, given = append(out, l), append(given, false)
			continue
		}
		for j, m := range r.model() {
			if cand[j].IsNeg() == m {
				alive[j] = false
			}
		}
	}
	return out, given
}

// ConcludeUnder returns the plausible conclusions of α under sem, each with
// its necessity degree under sem (see NecessityUnder). Under poss it is
// Conclude; under linear and lex it asks one necessity query per
// conclusion.
func (r *Reasoner) ConcludeUnder(sem Semantics, alpha *logic.Formula) []Conclusion {
	if sem == Poss {
		return r.Conclude(alpha)
	}
	var cs []Conclusion
	for _, l := range r.ConclusionsUnder(sem, alpha) {
		cs = append(cs, Conclusion{Lit: l, Necessity: r.NecessityUnder(sem, alpha, logic.LitF(l))})
	}
	return cs
}
