package defaults

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
	"github.com/strata-logic/strata/sat"
)

// Ordering is the Z-ordering Δ1, …, Δk of a consistent base (§3.1): Δ1
// holds the defaults tolerated by Δ, Δ2 those tolerated by Δ \ Δ1, and so
// on. Δ1 holds the most general rules, Δ2 their exceptions, Δ3 the
// exceptions to those.
type Ordering struct {
	Base *Base
	// Levels holds Δ1 first, each as indices into Base.Defaults in base order.
	Levels [][]int
	// Calls is the number of SAT solver calls the ordering took: at most
	// one per default and level.
	Calls int64

	rank []int
}

// Rank returns Z(δ) for the i-th default of the base: the 0-based index of
// its level (Pearl's Z-rank).
func (o *Ordering) Rank(i int) int { return o.rank[i] }

// Weights returns the certainty weight λj of each level of Θ_Z, lowest
// first: j/(k+1) for k levels, rounded as possibilistic.LevelWeights does. They lie strictly between 0 and 1 because weight 1 is reserved
// for the background knowledge, which must outrank every default; were Δk
// at weight 1 too, evidence contradicting Δk would drown it together with
// K and entail only tautologies, where rational closure still draws
// conclusions.
func (o *Ordering) Weights() []float64 { return possibilistic.LevelWeights(len(o.Levels)) }

// Theory returns Θ_Z = {(¬α ∨ β, λj) | α |~ β ∈ Δj} together with the
// background knowledge at weight 1. (Θ_Z, α) ⊢poss β holds iff α |~ β is
// in the rational closure of Δ, for every α consistent with the
// background knowledge.
func (o *Ordering) Theory() *possibilistic.Theory {
	th := possibilistic.New(o.Base.vocab())
	for j, w := range o.Weights() {
		for _, i := range o.Levels[j] {
			th.Add(o.Base.Defaults[i].Material(), w)
		}
	}
	for _, f := range o.Base.Background {
		th.Add(f, 1)
	}
	return th
}

// ZOrdering computes the Z-ordering of the base. It returns an
// *InconsistentError when the base is inconsistent: when its background
// knowledge has no model, or some non-empty remainder tolerates none of its
// members; and ctx's error when ctx is done first.
func ZOrdering(ctx context.Context, b *Base) (*Ordering, error) {
	return newEngine(b).zOrdering(ctx, b)
}

func (e *engine) zOrdering(ctx context.Context, b *Base) (*Ordering, error) {
	before := e.solves()
	all := make([]int, len(b.Defaults))
	for i := range all {
		all[i] = i
	}
	levels, stuck, err := e.partition(ctx, all)
	if err != nil {
		return nil, err
	}
	// Contradictory background knowledge leaves every default untolerated;
	// it is checked only then, so a consistent base costs no extra call.
	if len(all) == 0 || len(levels) == 0 {
		ok, err := e.backgroundSatisfiable(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, backgroundError(ctx, b)
		}
	}
	if stuck != nil {
		ie, err := e.inconsistent(ctx, stuck)
		if err != nil {
			return nil, err
		}
		ie.Level = len(levels)
		return nil, ie
	}
	o := &Ordering{Base: b, Levels: levels, Calls: e.solves() - before, rank: make([]int, len(b.Defaults))}
	for j, l := range levels {
		for _, i := range l {
			o.rank[i] = j
		}
	}
	return o, nil
}

// InconsistentError reports an inconsistent default base: a non-empty set of
// defaults none of which is tolerated by the others (or the background
// knowledge alone is contradictory). No semantics of this package gives
// meaningful answers for such a base.
type InconsistentError struct {
	Vocab *logic.Vocabulary
	// Background is true when the background knowledge has no model;
	// Clash then holds a minimal subset of it that has none (dropping any
	// one formula resolves it), with where each was read when known.
	Background bool
	Clash      []*logic.Formula
	ClashPos   []logic.Position
	// Level is the 0-based level of the Z-ordering at which the ordering
	// stopped, and Remainder the number of defaults left there, none of
	// which the remainder tolerates.
	Level, Remainder int
	// Conflict is a subset of that remainder that is inconsistent by
	// itself, as defaults of the base; Indices are their indices there.
	Conflict []Default
	Indices  []int
	// Minimal reports that every proper subset of Conflict is consistent:
	// removing any one of its defaults resolves this clash.
	Minimal bool
}

func (e *InconsistentError) Error() string {
	if e.Background {
		parts := make([]string, len(e.Clash))
		for i, f := range e.Clash {
			parts[i] = f.String(e.Vocab)
			if i < len(e.ClashPos) && e.ClashPos[i].String() != "" {
				parts[i] = e.ClashPos[i].String() + ": " + parts[i]
			}
		}
		switch len(parts) {
		case 0:
			return "inconsistent background knowledge: no world satisfies it"
		case 1:
			return "inconsistent background knowledge: no world satisfies " + parts[0]
		}
		return fmt.Sprintf("inconsistent background knowledge: no world satisfies these %d together (dropping any one resolves it): %s", len(parts), strings.Join(parts, "; "))
	}
	if len(e.Conflict) == 1 {
		d := e.Conflict[0]
		return fmt.Sprintf("inconsistent defaults: %s can never be verified (its antecedent and consequent contradict each other or the background knowledge)",
			d.Describe(e.Vocab))
	}
	names := make([]string, len(e.Conflict))
	for i, d := range e.Conflict {
		names[i] = d.Describe(e.Vocab)
	}
	what := "these defaults clash"
	if e.Minimal {
		what = fmt.Sprintf("these %d clash (dropping any one resolves it)", len(e.Conflict))
	}
	return fmt.Sprintf("inconsistent defaults: the Z-ordering stops at %s, where none of the %d remaining defaults is tolerated; %s: %s",
		levelName(e.Level), e.Remainder, what, strings.Join(names, "; "))
}

// backgroundError is the error of a base whose background knowledge has no
// model, naming a minimal subset that clashes.
func backgroundError(ctx context.Context, b *Base) error {
	clash, err := sat.Clash(ctx, b.Background)
	if err != nil {
		return err
	}
	ie := &InconsistentError{Vocab: b.vocab(), Background: true}
	for _, i := range clash {
		ie.Clash = append(ie.Clash, b.Background[i])
		if i < len(b.BackgroundPos) {
			ie.ClashPos = append(ie.ClashPos, b.BackgroundPos[i])
		}
	}
	return ie
}

// maxDeletion bounds the conflict size on which deletion-based
// minimisation is run: it costs a Z-ordering per member.
const maxDeletion = 200

// inconsistent builds the error for a stuck remainder, shrinking it first
// by closing it under failed-assumption cores and then by deletion.
func (e *engine) inconsistent(ctx context.Context, stuck []int) (*InconsistentError, error) {
	set, minimal, err := e.conflict(ctx, stuck)
	if err != nil {
		return nil, err
	}
	ie := &InconsistentError{Vocab: e.v, Remainder: len(stuck), Indices: set, Minimal: minimal}
	for _, i := range set {
		ie.Conflict = append(ie.Conflict, e.ds[i])
	}
	return ie, nil
}

// conflict shrinks a set of defaults that tolerates none of its members to
// a small inconsistent subset; minimal reports that it is a minimal one.
func (e *engine) conflict(ctx context.Context, d []int) (set []int, minimal bool, err error) {
	for {
		c, err := e.closure(ctx, d)
		if err != nil {
			return nil, false, err
		}
		if len(c) == len(d) {
			break
		}
		d = c
	}
	if len(d) > maxDeletion {
		return d, false, nil
	}
	kept := map[int]bool{}
	for {
		next := -1
		for _, i := range d {
			if !kept[i] {
				next = i
				break
			}
		}
		if next < 0 {
			return d, true, nil
		}
		cand := make([]int, 0, len(d)-1)
		for _, i := range d {
			if i != next {
				cand = append(cand, i)
			}
		}
		_, stuck, err := e.partition(ctx, cand)
		if err != nil {
			return nil, false, err
		}
		if stuck != nil {
			d = stuck // a smaller set that is still inconsistent
		} else {
			kept[next] = true // needed: without it the rest is consistent
		}
	}
}

// closure returns the smallest subset C of d containing d's first member
// such that every member's failed-assumption core (relative to d) lies in
// C. Every member of C then fails to be tolerated by C, so C is
// inconsistent. d must tolerate none of its members.
func (e *engine) closure(ctx context.Context, d []int) ([]int, error) {
	in := map[int]bool{d[0]: true}
	queue := []int{d[0]}
	for len(queue) > 0 {
		x := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		f, ok, err := e.core(ctx, d, x)
		if err != nil {
			return nil, err
		}
		if !ok {
			return d, nil // cannot happen for a stuck remainder; keep the safe answer
		}
		for _, i := range f {
			if !in[i] {
				in[i] = true
				queue = append(queue, i)
			}
		}
	}
	var c []int
	for _, i := range d {
		if in[i] {
			c = append(c, i)
		}
	}
	return c, nil
}

// levelName returns "Δ3" for the level of index 2.
func levelName(j int) string { return "Δ" + strconv.Itoa(j+1) }
