package defaults

import (
	"context"
	"fmt"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// Semantics names a way of extending a consistent default base to the
// defaults it entails.
type Semantics uint8

const (
	// Rational is rational closure (Lehmann and Magidor), equivalently
	// System Z (Pearl): α |~ β holds when β holds in the α-worlds of least
	// Z-rank; decided as (Θ_Z, α) ⊢poss β.
	Rational Semantics = iota
	// SystemP is p-entailment (Adams; Kraus, Lehmann and Magidor): α |~ β
	// holds in every ranked model of Δ, equivalently Δ ∪ {α |~ ¬β} is
	// inconsistent. It is the most cautious of the three.
	SystemP
	// Lexicographic is lexicographic closure (Lehmann; Benferhat et al.):
	// β holds in the α-worlds whose numbers of violated defaults, level by
	// level from the highest Z-level down, are lexicographically least.
	// Unlike rational closure it keeps the defaults an exception does not
	// contradict (no drowning).
	Lexicographic
	// SystemW is System W (Komo and Beierle 2022): worlds are compared by
	// the sets of defaults they falsify in each layer of the Z-partition,
	// highest layer first, by strict inclusion; α |~ β holds when every
	// preferred α-world satisfies β. It lies between rational and
	// lexicographic closure.
	SystemW
	// CInference is skeptical c-inference (Beierle, Eichhorn,
	// Kern-Isberner and Kutsch 2021): α |~ β holds when every
	// c-representation of the base accepts it.
	CInference
)

// AllSemantics lists every semantics from the most cautious: System P,
// which every other one extends, then rational closure, System W and
// lexicographic closure, each extending the one before, and c-inference,
// which extends System P only.
var AllSemantics = []Semantics{SystemP, Rational, SystemW, Lexicographic, CInference}

var semanticsNames = [...]string{Rational: "rational", SystemP: "p", Lexicographic: "lex", SystemW: "w", CInference: "c"}

func (s Semantics) String() string {
	if int(s) < len(semanticsNames) {
		return semanticsNames[s]
	}
	return fmt.Sprintf("Semantics(%d)", s)
}

// ParseSemantics reads a semantics name: "p" (also "system-p", "P"),
// "rational" (also "rc", "z", "system-z"), "lex" (also "lexicographic"),
// "w" (also "system-w") or "c" (also "c-inference").
func ParseSemantics(name string) (Semantics, error) {
	switch strings.ToLower(name) {
	case "p", "system-p", "systemp", "preferential":
		return SystemP, nil
	case "rational", "rc", "z", "system-z", "systemz":
		return Rational, nil
	case "lex", "lexicographic":
		return Lexicographic, nil
	case "w", "system-w", "systemw":
		return SystemW, nil
	case "c", "c-inference", "cinference", "skeptical-c":
		return CInference, nil
	}
	return 0, fmt.Errorf("unknown semantics %q: want p, rational, lex, w or c", name)
}

// Reasoner answers entailment queries about one consistent base under every
// semantics. It compiles the base once: one incremental SAT solver for the
// Z-ordering, System P and lexicographic closure, and a
// possibilistic.Reasoner over Θ_Z for rational closure. Queries may use
// atoms the base does not mention; they are interned in the base's
// vocabulary. A Reasoner is not safe for concurrent use.
type Reasoner struct {
	base *Base
	e    *engine
	ord  *Ordering
	poss *possibilistic.Reasoner
	// sets are the levels of ord without duplicate defaults, for System W
	// and c-inference, which a default written twice changes nothing in
	// (it is falsified with its copy, and their impacts act as one).
	// Lexicographic closure counts it twice, on ord.Levels.
	sets [][]int

	cConds   []int     // the distinct defaults, sorted, for c-inference
	c        *cState   // CR(Δ), built on the first c-inference query
	infinite []Default // Δ^∞ of a weakly consistent base (NewWeakReasoner)

	progress func(stage string, done, total int) // SetProgress
}

// SetProgress has fn told how far the long compilations come, as they go:
// for c-inference, the defaults of CR(Δ) compiled so far out of all
// (stage names the work). nil stops it.
func (r *Reasoner) SetProgress(fn func(stage string, done, total int)) { r.progress = fn }

// NewReasoner computes the Z-ordering of b and returns a reasoner for it,
// or an *InconsistentError when b is inconsistent, or ctx's error when ctx
// is done before the Z-ordering is computed. Later changes to b do not
// affect the reasoner.
func NewReasoner(ctx context.Context, b *Base) (*Reasoner, error) {
	e := newEngine(b)
	ord, err := e.zOrdering(ctx, b)
	if err != nil {
		return nil, err
	}
	poss, err := possibilistic.NewReasoner(ctx, ord.Theory())
	if err != nil {
		return nil, err
	}
	return &Reasoner{base: b, e: e, ord: ord, poss: poss, sets: distinctLevels(b, ord)}, nil
}

// Ordering returns the Z-ordering of the base.
func (r *Reasoner) Ordering() *Ordering { return r.ord }

// Entails decides whether the base entails α |~ β under semantics s. Under
// every semantics the solver call running when ctx is done stops at its
// next check point, no further call is made, and Entails returns ctx's
// error; the reasoner stays usable.
func (r *Reasoner) Entails(ctx context.Context, s Semantics, alpha, beta *logic.Formula) (bool, error) {
	a, err := r.decide(ctx, s, NewDefault(alpha, beta), false)
	return a.Entailed, err
}

// Decide decides whether the base entails the query under semantics s,
// with the answer's verdict under rational closure, but without what only
// an explanation needs (a clash, a counter-world), which costs solver calls
// of its own. It gives up as Entails does.
func (r *Reasoner) Decide(ctx context.Context, s Semantics, q Default) (Answer, error) {
	a, err := r.decide(ctx, s, q, false)
	if s != Rational {
		// System P settles some queries by rational closure first: its
		// verdict is not this semantics', as Explain's answers have none.
		a.Verdict = possibilistic.Verdict{}
	}
	return a, err
}

// Explain decides whether the base entails the query under semantics s and
// says why (see Answer.Reason). It gives up as Entails does.
func (r *Reasoner) Explain(ctx context.Context, s Semantics, q Default) (Answer, error) {
	return r.decide(ctx, s, q, true)
}

// Answer is a decided query with what decides it.
type Answer struct {
	Semantics Semantics
	Query     Default
	Entailed  bool
	// Vacuous: the antecedent contradicts the background knowledge, so the
	// query holds in every semantics.
	Vacuous bool
	// Rational closure: the possibilistic verdict of (Θ_Z, α) ⊢poss β.
	Verdict possibilistic.Verdict
	// System P, when entailed: defaults of the base (indices) that clash
	// with α |~ ¬β; with it they form an inconsistent set, minimal unless
	// it has more than 200 members.
	Clash []int
	// System P, when not entailed: the Z-level (0-based) of α |~ ¬β in the
	// ordering of Δ ∪ {α |~ ¬β}.
	NegLevel int
	// Lexicographic closure: the least numbers of violated defaults of an
	// α-world, per Z-level, Δ1 first.
	Violations []int
	// Rational and lexicographic closure and System W, when not entailed:
	// a preferred α-world that falsifies β (one truth value per atom).
	Counter []bool
	// System W: the falsified sets of the preferred α-worlds searched, per
	// layer, are summarised by Branches, the number of combinations of
	// minimal falsified sets explored.
	Branches int
	// c-inference, when not entailed: the impacts (one per default of the
	// base, in base order) of a c-representation that does not accept the
	// query, and its ranks of α ∧ β and α ∧ ¬β.
	Impacts         []int
	RankAB, RankAnB Rank

	ord *Ordering
}

func (r *Reasoner) decide(ctx context.Context, s Semantics, q Default, explain bool) (Answer, error) {
	a := Answer{Semantics: s, Query: q, ord: r.ord}
	var err error
	switch s {
	case Rational:
		err = r.rational(ctx, &a, explain)
	case SystemP:
		err = r.systemP(ctx, &a, explain)
	case Lexicographic:
		err = r.lexicographic(ctx, &a)
	case SystemW:
		err = r.systemW(ctx, &a)
	case CInference:
		err = r.cInference(ctx, &a)
	default:
		err = fmt.Errorf("defaults: invalid semantics %d", uint8(s))
	}
	if err != nil {
		return Answer{}, err
	}
	return a, nil
}

// rational decides (Θ_Z, α) ⊢poss β. When α contradicts K, the weight-1
// formulas, the inconsistency level is 1 and possibilistic entailment gives
// only tautologies, while rational closure (like every preferential
// relation) gives everything: that case is settled here.
func (r *Reasoner) rational(ctx context.Context, a *Answer, explain bool) error {
	alpha, beta := a.Query.Antecedent, a.Query.Consequent
	var err error
	if a.Verdict, err = r.poss.Decide(ctx, possibilistic.Poss, alpha, beta); err != nil {
		return err
	}
	if a.Verdict.Inconsistency == 1 {
		a.Vacuous, a.Entailed = true, true
		return nil
	}
	a.Entailed = a.Verdict.Entailed
	if !a.Entailed && explain {
		if a.Counter, err = r.poss.MostPlausibleWorld(ctx, possibilistic.Poss, a.Query.Violation()); err != nil {
			return err
		}
	}
	return nil
}

// systemP decides whether Δ ∪ {α |~ ¬β} is inconsistent by computing its
// Z-ordering on the same solver. p-entailment implies rational closure, so
// a query outside the rational closure (O(log k) solver calls) is settled
// without it.
func (r *Reasoner) systemP(ctx context.Context, a *Answer, explain bool) error {
	e := r.e
	q := a.Query
	if !explain {
		if err := r.rational(ctx, a, false); err != nil || !a.Entailed || a.Vacuous {
			return err
		}
	}
	n := len(e.ds)
	x := e.addDefault(Default{Rule: logic.Rule{Antecedent: q.Antecedent, Consequent: logic.Not(q.Consequent)}})
	defer e.dropFrom(n)
	all := make([]int, n+1)
	for i := range all {
		all[i] = i
	}
	levels, stuck, err := e.partition(ctx, all)
	if err != nil {
		return err
	}
	if stuck == nil {
		a.Entailed = false
		for j, l := range levels {
			for _, i := range l {
				if i == x {
					a.NegLevel = j
				}
			}
		}
		return nil
	}
	a.Entailed = true
	if !explain {
		return nil
	}
	if ok, err := e.satisfiable(ctx, q.Antecedent); err != nil || !ok {
		a.Vacuous = err == nil
		return err
	}
	set, _, err := e.conflict(ctx, stuck)
	if err != nil {
		return err
	}
	for _, i := range set {
		if i != x {
			a.Clash = append(a.Clash, i)
		}
	}
	return nil
}

// satisfiable reports whether K ∧ f has a model.
func (e *engine) satisfiable(ctx context.Context, f *logic.Formula) (bool, error) {
	defer e.done()
	return e.solve(ctx, e.assume(nil, f)...)
}

// Reason explains the answer in one or more lines of text (no trailing
// newline), naming levels Δ1, Δ2, … of the Z-ordering and, for negative
// answers, a preferred counter-world.
func (a Answer) Reason() string {
	v := a.ord.Base.vocab()
	q := a.Query
	alpha, beta := q.Antecedent.String(v), q.Consequent.String(v)
	if a.Vacuous {
		return fmt.Sprintf("%s contradicts the background knowledge, so every consequent follows", alpha)
	}
	var b strings.Builder
	switch a.Semantics {
	case Rational:
		a.rationalReason(&b, alpha, beta)
	case SystemP:
		a.pReason(&b, alpha, beta)
	case Lexicographic:
		a.lexReason(&b, alpha, beta)
	case SystemW:
		a.wReason(&b, alpha, beta)
	case CInference:
		a.cReason(&b, alpha, beta)
	}
	if a.Counter != nil {
		fmt.Fprintf(&b, "\na preferred world of %s where %s fails: %s", alpha, beta, worldString(v, a.Counter))
	}
	return b.String()
}

func (a Answer) rationalReason(b *strings.Builder, alpha, beta string) {
	ws := a.ord.Weights()
	drowned := 0
	for j, w := range ws {
		if w <= a.Verdict.Inconsistency {
			drowned = j + 1
		}
	}
	if drowned > 0 {
		fmt.Fprintf(b, "%s drowns %s of Θ_Z (inconsistency level %s); ", alpha, levelRange(0, drowned),
			possibilistic.FormatWeight(a.Verdict.Inconsistency))
	} else {
		fmt.Fprintf(b, "%s is consistent with Θ_Z; ", alpha)
	}
	if !a.Entailed {
		fmt.Fprintf(b, "the levels above it, with %s, do not entail %s", alpha, beta)
		return
	}
	from := len(ws) // the background knowledge alone
	for j, w := range ws {
		if w == a.Verdict.Necessity {
			from = j
		}
	}
	if from == len(ws) {
		fmt.Fprintf(b, "%s follows from %s and the background knowledge alone", beta, alpha)
		return
	}
	fmt.Fprintf(b, "%s, with %s and above (weight >= %s), entails %s", alpha, levelName(from),
		possibilistic.FormatWeight(a.Verdict.Necessity), beta)
}

func (a Answer) pReason(b *strings.Builder, alpha, beta string) {
	v := a.ord.Base.vocab()
	neg := alpha + " |~ " + logic.NNFLinear(logic.Not(a.Query.Consequent)).String(v)
	if !a.Entailed {
		fmt.Fprintf(b, "Δ ∪ {%s} is consistent: its Z-ordering puts %s in %s", neg, neg, levelName(a.NegLevel))
		return
	}
	if a.Clash == nil {
		fmt.Fprintf(b, "Δ ∪ {%s} is inconsistent: %s can never be verified", neg, neg)
		return
	}
	names := make([]string, len(a.Clash))
	for i, j := range a.Clash {
		names[i] = a.ord.Base.Defaults[j].Describe(v)
	}
	fmt.Fprintf(b, "Δ ∪ {%s} is inconsistent: it clashes with %s", neg, strings.Join(names, "; "))
}

// levelRange names the levels lo..hi-1: "Δ1" or "Δ1..Δ3".
func levelRange(lo, hi int) string {
	if hi-lo == 1 {
		return levelName(lo)
	}
	return levelName(lo) + ".." + levelName(hi-1)
}

// worldString writes a world as its literals, "penguin, bird, !flies".
func worldString(v *logic.Vocabulary, w []bool) string {
	ls := make([]logic.Lit, len(w))
	for a, val := range w {
		ls[a] = logic.MkLit(logic.Atom(a), !val)
	}
	return v.Join(ls, ", ")
}

// Prepare does ahead of the queries the work a semantics needs once per
// base, so that it is not charged to the first query: for c-inference,
// the constraint system CR(Δ) (the minimal falsified sets of every
// default). It fails with ErrNoCRepresentation, or with an error wrapping
// ctx.Err() that says how far it came; what it did is kept, and the next
// call, or the first query that needs it, goes on from there.
func (r *Reasoner) Prepare(ctx context.Context, s Semantics) error {
	if s == CInference {
		_, err := r.cSystem(ctx)
		return err
	}
	return nil
}
