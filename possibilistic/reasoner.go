package possibilistic

import (
	"context"
	"fmt"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/sat"
)

// Reasoner answers queries about one theory. It compiles the theory once
// into an incremental SAT solver in which every clause of a level carries
// the level's selector literal ¬s, so that a strict cut is a set of
// assumptions, and the evidence α of a conditional query is one more set of
// assumptions. The queries that keep part of a level (lex, explanations)
// add a selector per formula (splitLevel).
//
// Every query takes a context and polls it before each solver call, and the
// solver polls it at its own check points (between restarts, every 64
// conflicts or decisions), so a query on a hard theory returns ctx's error within
// moments of ctx being done. Compiling polls it every few thousand formulas.
// A query that returns an error leaves the Reasoner usable: the solver
// keeps only clauses implied by the theory, and the query's activation
// literals are retired as after any other query.
//
// A Reasoner is not safe for concurrent use; build one per goroutine.
type Reasoner struct {
	vocab *logic.Vocabulary
	// Inside the Reasoner a level is indexed from the lowest, j = 0, so
	// that a cut is a suffix: level j is the theory's level k−1−j (level
	// converts). The evidence α has weight 1: it joins the top level when
	// that level has weight 1, and forms a level of its own above all
	// others otherwise. Writing K for the number of levels counting α's,
	// the cut at i holds the levels i..K−1; the cut at K is empty.
	weights []float64
	clauses [][][]logic.Lit    // per level: clauses in solver literals
	others  [][]*logic.Formula // per level: non-clausal formulas, in vocabulary atoms
	s       *sat.Solver
	sel     []logic.Lit // selector of each level
	forms   [][]form    // per level: the formulas and their selectors
	varOf   []logic.Atom
	k       int       // number of theory levels
	kEff    int       // K: levels counting α's
	shown   []float64 // the weights in the theory's order, highest first, for verdicts

	assume  []logic.Lit
	alpha   []logic.Lit  // α as assumptions, in solver literals
	negBeta []logic.Lit  // ¬β as assumptions
	beta    []logic.Lit  // β when it is a clause, in solver literals
	betaV   logic.Clause // the same in vocabulary atoms
	betaF   *logic.Formula
	retire  []logic.Lit
	world   []bool
	calls   int

	kept     kept        // what the last evidence keeps
	off      []logic.Lit // per split level: clears its formula selectors
	hasOff   []bool
	tot      [][]logic.Lit // per level: the totalizer's outputs
	distinct []int         // per level: the number of distinct formulas
	track    bool          // incSearch leaves its last model in world
}

// pollEvery is the number of formulas NewReasoner compiles between two
// looks at its context.
const pollEvery = 4096

// NewReasoner compiles t. Later changes to t do not affect the Reasoner. It
// fails when t is not valid (see Theory.Validate), and with ctx's error when
// ctx is done before the theory is compiled.
func NewReasoner(ctx context.Context, t *Theory) (*Reasoner, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	v := t.vocab()
	r := &Reasoner{vocab: v, s: sat.New(), k: len(t.Levels)}
	for range v.Len() {
		r.varOf = append(r.varOf, r.s.NewVar())
	}
	r.kEff = r.k + 1
	if r.k > 0 && t.Levels[0].Weight == 1 {
		r.kEff = r.k
	}
	r.weights = make([]float64, r.k)
	r.shown = make([]float64, r.k)
	r.clauses = make([][][]logic.Lit, r.k)
	r.others = make([][]*logic.Formula, r.k)
	r.forms = make([][]form, r.k)
	r.off, r.hasOff = make([]logic.Lit, r.k), make([]bool, r.k)
	r.tot, r.distinct = make([][]logic.Lit, r.k), make([]int, r.k)
	n := 0
	for j := range r.k {
		l := t.Levels[r.level(j)]
		r.weights[j], r.shown[r.level(j)] = l.Weight, l.Weight
		r.sel = append(r.sel, logic.Pos(r.s.NewVar()))
		seen := make(map[uint64][]int, len(l.Formulas))
		for _, f := range l.Formulas {
			if n%pollEvery == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			n++
			r.addFormula(j, f, seen)
		}
	}
	return r, nil
}

// level converts between the Reasoner's index of a level (lowest first)
// and the theory's (highest first); it is its own inverse.
func (r *Reasoner) level(j int) int { return r.k - 1 - j }

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

// Levels returns the number of levels of the reasoner's theory; the
// levels of a Verdict index them from 0 at the top.
func (r *Reasoner) Levels() int { return r.k }

// weight returns the weight of effective level i (α's own level weighs 1).
func (r *Reasoner) weight(i int) float64 {
	if i < r.k {
		return r.weights[i]
	}
	return 1
}

// check reports a Semantics that is none of the constants.
func (s Semantics) check() error {
	if s > Lex {
		return fmt.Errorf("possibilistic: invalid semantics %d", uint8(s))
	}
	return nil
}

// solve is the Reasoner's one way to call the solver: it polls ctx first,
// and the solver polls it at its check points. A false answer with an error
// says nothing about satisfiability; every caller returns the error at
// once.
func (r *Reasoner) solve(ctx context.Context, a []logic.Lit) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	r.calls++
	return r.s.Solve(ctx, a...)
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
	if c, ok := f.AsClause(); ok {
		r.setBetaClause(c)
		return
	}
	r.beta = r.beta[:0]
	r.betaF = f
	r.negBeta = append(r.negBeta[:0], r.activate(logic.Not(f)))
}

func (r *Reasoner) setBetaClause(c logic.Clause) {
	r.betaF = nil
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
func (r *Reasoner) solveCut(ctx context.Context, i int, negBeta bool) (bool, error) {
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
	return r.solve(ctx, a)
}

// incSearch finds the smallest i whose cut is consistent with α, by binary
// search over 0..K (the cut at K is empty, hence consistent). A model found
// at mid also shows the cut consistent down to just above the highest level
// it violates, which lets the search jump. It reports whether the model
// that established the answer falsifies β, which settles a query without a
// further solver call; with r.track set, that model is left in r.world.
func (r *Reasoner) incSearch(ctx context.Context) (hi int, betaFalse bool, err error) {
	lo, hi := 0, r.kEff
	for lo < hi {
		mid := (lo + hi) / 2
		sat, err := r.solveCut(ctx, mid, false)
		if err != nil {
			return 0, false, err
		}
		if !sat {
			lo = mid + 1
			continue
		}
		hi = r.lowestSatisfied(mid)
		betaFalse = !r.betaHolds()
		if r.track {
			r.model()
		}
	}
	return hi, betaFalse, nil
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

// entailsPoss decides (Θ, α) ⊢poss β for the compiled α and β: O(log k)
// solver calls, and one more unless the search's last model falsifies β.
func (r *Reasoner) entailsPoss(ctx context.Context) (bool, error) {
	hi, betaFalse, err := r.incSearch(ctx)
	if err != nil || hi < r.kEff && betaFalse {
		return false, err
	}
	sat, err := r.solveCut(ctx, hi, true)
	return !sat && err == nil, err
}

func (r *Reasoner) incWeight(hi int) float64 {
	if hi == 0 {
		return 0
	}
	return r.weight(hi - 1)
}

// necessityPoss binary-searches the highest level j ≥ hi whose cut, with
// α, entails β; the cut at j being smaller the higher j is, entailment is
// monotone in j.
func (r *Reasoner) necessityPoss(ctx context.Context, hi int) (float64, error) {
	sat, err := r.solveCut(ctx, hi, true)
	switch {
	case err != nil:
		return 0, err
	case hi == r.kEff && !sat:
		return 1, nil // β is a tautology
	case sat:
		return 0, nil
	}
	lo, up := hi, r.kEff-1 // entailed at lo
	for lo < up {
		mid := (lo + up + 1) / 2
		sat, err := r.solveCut(ctx, mid, true)
		if err != nil {
			return 0, err
		}
		if sat {
			up = mid - 1
		} else {
			lo = mid
		}
	}
	return r.weight(lo), nil
}

// Entails decides whether (Θ, α) entails β under s: Θ ∪ {(α, 1)} ⊢poss β
// under Poss, or what Semantics says of Linear and Lex. Use logic.True()
// as α for Θ ⊢ β. It is the cheapest question: under Poss it takes
// O(log k) solver calls for k levels; Decide adds the necessity and what
// the evidence set aside.
func (r *Reasoner) Entails(ctx context.Context, s Semantics, alpha, beta *logic.Formula) (bool, error) {
	if err := s.check(); err != nil {
		return false, err
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(beta)
	return r.entails(ctx, s)
}

// EntailsClause is Entails for a conjunction of literals α and a clause β,
// the learner's hot path: it allocates nothing once warmed up.
func (r *Reasoner) EntailsClause(ctx context.Context, s Semantics, alpha logic.Term, beta logic.Clause) (bool, error) {
	if err := s.check(); err != nil {
		return false, err
	}
	r.alpha = r.mapLits(r.alpha[:0], alpha)
	r.setBetaClause(beta)
	return r.entails(ctx, s)
}

func (r *Reasoner) entails(ctx context.Context, s Semantics) (bool, error) {
	if s == Poss {
		return r.entailsPoss(ctx)
	}
	if err := r.settle(ctx, s); err != nil {
		return false, err
	}
	return r.entailsKept(ctx)
}

// Inconsistency returns inc(Θ ∪ {(α, 1)}): 0 when α is consistent with the
// whole theory, else the weight of the highest level that α drowns. With
// α = true it is inc(Θ), the lowest λ such that the strict cut Θ_λ̄ is
// consistent.
func (r *Reasoner) Inconsistency(ctx context.Context, alpha *logic.Formula) (float64, error) {
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	hi, _, err := r.incSearch(ctx)
	if err != nil {
		return 0, err
	}
	return r.incWeight(hi), nil
}

// MostPlausibleWorld returns a preferred world of α under s (one truth
// value per vocabulary atom): a world of maximal possibility among those
// satisfying α under Poss, one satisfying α and what α keeps under Linear,
// one of lexicographically least violation vector under Lex. It returns nil
// when α has no world of positive possibility: α is contradictory, or
// contradicts the formulas of weight 1.
func (r *Reasoner) MostPlausibleWorld(ctx context.Context, s Semantics, alpha *logic.Formula) ([]bool, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	defer r.done()
	r.setAlpha(alpha)
	r.setBeta(logic.True())
	if err := r.keep(ctx, s); err != nil || !r.kept.ok {
		return nil, err
	}
	return append([]bool(nil), r.world...), nil
}
