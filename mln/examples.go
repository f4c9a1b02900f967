package mln

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/strata-logic/strata/logic"
)

// Example is a MAP-entailment example α |~ β of the paper's §5.3: the
// evidence α is a conjunction of literals on distinct atoms, the conclusion
// β a literal on another atom, and the example is positive (a default) when
// (M, α) ⊢MAP β and negative (a non-default) otherwise.
type Example struct {
	Evidence   logic.Term
	Conclusion logic.Lit
	Positive   bool
}

// Rule returns the example as the default rule α |~ β.
func (e Example) Rule() logic.Rule {
	return logic.Rule{Antecedent: logic.TermF(e.Evidence), Consequent: logic.LitF(e.Conclusion)}
}

// Split returns the rules of the positive and of the negative examples.
func Split(exs []Example) (pos, neg []logic.Rule) {
	for _, e := range exs {
		if e.Positive {
			pos = append(pos, e.Rule())
		} else {
			neg = append(neg, e.Rule())
		}
	}
	return pos, neg
}

// ExampleOptions configure Generate; zero fields take the defaults.
type ExampleOptions struct {
	MaxEvidence int    // most literals in α (default 5, the paper's)
	PerEvidence int    // conclusions β drawn for each α (default 10)
	Seed        uint64 // the examples are a function of the seed
	Workers     int    // evidence formulas labelled at once (default 2)
	// QueryTimeout bounds every MAP query (0: no bound). The examples a
	// query was needed for and could not answer in time are not labelled:
	// they go to Labelling.OutOfBudget.
	QueryTimeout time.Duration
	// Timeout bounds the whole labelling (0: no bound); the examples not
	// labelled when it runs out go to Labelling.OutOfBudget.
	Timeout time.Duration
	// Slowest is how many of the slowest queries Labelling keeps (default 5).
	Slowest int
	// Progress, when set, is told how many examples are labelled so far.
	Progress func(done, total int)
}

func (o *ExampleOptions) defaults() {
	if o.MaxEvidence <= 0 {
		o.MaxEvidence = 5
	}
	if o.PerEvidence <= 0 {
		o.PerEvidence = 10
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Slowest <= 0 {
		o.Slowest = 5
	}
	if o.Progress == nil {
		o.Progress = func(int, int) {}
	}
}

// reseeder is implemented by engines whose answers depend on a random
// generator (Approx). Generate reseeds them for every evidence formula, so
// that the labels do not depend on how the work is spread over workers.
type reseeder interface {
	Reseed(seed uint64)
}

// Labelling is the outcome of Generate.
type Labelling struct {
	// Examples are the labelled examples, in the order drawn.
	Examples []Example
	// OutOfBudget are the examples drawn but not labelled because a query
	// they needed ran out of its budget (their Positive field means
	// nothing). They count towards the n examples asked for.
	OutOfBudget []Example
	// Queries counts the MAP queries asked (answered or not).
	Queries int
	// Slowest are the slowest queries, slowest first.
	Slowest []QueryTime
}

// QueryTime is the time one MAP query took. The query is the MAP of the
// evidence (Conclusion < 0) or the best cost of Evidence ∧ ¬Conclusion,
// compared with the MAP cost to decide the example Evidence |~ Conclusion.
type QueryTime struct {
	Evidence    logic.Term
	Conclusion  logic.Lit
	Time        time.Duration
	OutOfBudget bool
}

// Describe shows the query in the network's vocabulary, as "MAP(a1, !a3)"
// for the MAP query of the evidence, or as the example it decides.
func (q QueryTime) Describe(v *logic.Vocabulary) string {
	if q.Conclusion < 0 {
		return "MAP(" + v.Join(q.Evidence, ", ") + ")"
	}
	return v.Join(q.Evidence, ", ") + " |~ " + v.LitString(q.Conclusion)
}

// SlowestTime returns the time of the slowest query, 0 if there was none.
func (l *Labelling) SlowestTime() time.Duration {
	if len(l.Slowest) == 0 {
		return 0
	}
	return l.Slowest[0].Time
}

// query is one evidence formula with the conclusions drawn for it.
type query struct {
	alpha logic.Term
	betas []logic.Lit
	seed  uint64
}

// Generate draws n examples as in the paper: it draws evidence formulas α of
// 1 to MaxEvidence literals (a uniform number of distinct atoms, each with a
// uniform sign), and for each α up to PerEvidence conclusions β, distinct
// literals on the other atoms, uniformly. Each α |~ β is labelled by
// Entails with an engine made by newEngine (one per worker). Since a most
// probable world of α satisfies exactly one literal of each atom, about half
// of the conclusions are false in it and so negative, while the others are
// positive unless α has most probable worlds that disagree on the atom:
// both labels occur. Evidence formulas that no world satisfies are dropped
// and replaced. Duplicates are kept: example sets are multisets.
//
// Examples whose queries run out of the budgets of o are not labelled and
// not replaced: they are returned in OutOfBudget. When ctx is done, Generate
// returns ctx's error.
func Generate(ctx context.Context, newEngine func() (Engine, error), atoms, n int, o ExampleOptions) (*Labelling, error) {
	o.defaults()
	if atoms < 2 {
		return nil, errors.New("mln: examples need at least two atoms")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x65786d706c6573))
	engines := make([]Engine, o.Workers)
	for i := range engines {
		e, err := newEngine()
		if err != nil {
			return nil, err
		}
		engines[i] = e
	}
	budget := ctx
	if o.Timeout > 0 {
		var cancel context.CancelFunc
		budget, cancel = context.WithTimeout(ctx, o.Timeout)
		defer cancel()
	}
	l := &labeller{ctx: ctx, budget: budget, o: o, total: n, out: &Labelling{}}
	for round := 0; len(l.out.Examples)+len(l.out.OutOfBudget) < n; round++ {
		if round == 20 {
			return nil, fmt.Errorf("mln: after %d rounds only %d of %d examples: most evidence formulas have no world", round, len(l.out.Examples), n)
		}
		qs := drawQueries(rng, atoms, n-len(l.out.Examples)-len(l.out.OutOfBudget), o)
		if err := l.labelAll(engines, qs); err != nil {
			return nil, err
		}
	}
	return l.out, nil
}

// drawQueries draws evidence formulas and conclusions for need examples.
func drawQueries(rng *rand.Rand, atoms, need int, o ExampleOptions) []query {
	var qs []query
	for need > 0 {
		k := 1 + rng.IntN(min(o.MaxEvidence, atoms-1))
		perm := rng.Perm(atoms)
		q := query{seed: rng.Uint64()}
		for _, a := range perm[:k] {
			q.alpha = append(q.alpha, logic.MkLit(logic.Atom(a), rng.IntN(2) == 0))
		}
		var cands []logic.Lit
		for _, a := range perm[k:] {
			cands = append(cands, logic.Pos(logic.Atom(a)), logic.Neg(logic.Atom(a)))
		}
		m := min(o.PerEvidence, len(cands), need)
		for i := 0; i < m; i++ { // partial Fisher–Yates: m distinct literals
			j := i + rng.IntN(len(cands)-i)
			cands[i], cands[j] = cands[j], cands[i]
		}
		q.betas = cands[:m]
		need -= m
		qs = append(qs, q)
	}
	return qs
}

// labeller labels the queries of one Generate call.
type labeller struct {
	ctx    context.Context // the caller's: when done, labelling fails
	budget context.Context // ctx with the overall timeout
	o      ExampleOptions
	total  int

	mu  sync.Mutex
	out *Labelling
}

// labelAll labels the queries with one worker per engine, keeping their
// order.
func (l *labeller) labelAll(engines []Engine, qs []query) error {
	results := make([]labelled, len(qs))
	var wg sync.WaitGroup
	next := 0
	done := len(l.out.Examples) + len(l.out.OutOfBudget)
	for _, e := range engines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				l.mu.Lock()
				i := next
				next++
				l.mu.Unlock()
				if i >= len(qs) {
					return
				}
				results[i] = l.label(e, qs[i])
				l.mu.Lock()
				done += len(results[i].exs) + len(results[i].oob)
				l.o.Progress(min(done, l.total), l.total)
				l.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := l.ctx.Err(); err != nil {
		return err
	}
	for _, r := range results {
		if r.err != nil {
			return r.err
		}
		l.out.Examples = append(l.out.Examples, r.exs...)
		l.out.OutOfBudget = append(l.out.OutOfBudget, r.oob...)
	}
	return nil
}

// labelled is the outcome of one evidence formula.
type labelled struct {
	exs, oob []Example
	err      error
}

// label decides the conclusions of one evidence formula; none when no world
// satisfies it. Conclusions whose query ran out of budget go to oob.
func (l *labeller) label(e Engine, q query) labelled {
	if r, ok := e.(reseeder); ok {
		r.Reseed(q.seed)
	}
	var world []bool
	var cost int64
	var ok bool
	err := l.timed(q.alpha, -1, func(ctx context.Context) (err error) {
		world, cost, ok, err = e.MAP(ctx, q.alpha)
		return err
	})
	if err != nil || !ok {
		if errors.Is(err, errOutOfBudget) {
			return labelled{oob: examplesOf(q.alpha, q.betas)}
		}
		return labelled{err: err}
	}
	world = append([]bool(nil), world...) // the engine reuses it
	var r labelled
	for _, b := range q.betas {
		var pos bool
		if !b.Holds(world) {
			r.exs = append(r.exs, Example{Evidence: q.alpha, Conclusion: b})
			continue // a best world of α falsifies β: no query needed
		}
		err := l.timed(q.alpha, b, func(ctx context.Context) (err error) {
			pos, err = entailsGiven(ctx, e, q.alpha, b, world, cost)
			return err
		})
		switch {
		case errors.Is(err, errOutOfBudget):
			r.oob = append(r.oob, Example{Evidence: q.alpha, Conclusion: b})
		case err != nil:
			return labelled{err: err}
		default:
			r.exs = append(r.exs, Example{Evidence: q.alpha, Conclusion: b, Positive: pos})
		}
	}
	return r
}

// errOutOfBudget marks a query that ran out of its budget.
var errOutOfBudget = errors.New("mln: query out of budget")

// timed runs one query under the budgets, records its time, and turns a
// budget that ran out into errOutOfBudget.
func (l *labeller) timed(alpha logic.Term, beta logic.Lit, run func(context.Context) error) error {
	ctx := l.budget
	if l.o.QueryTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, l.o.QueryTimeout)
		defer cancel()
	}
	start := time.Now()
	err := run(ctx)
	t := QueryTime{Evidence: alpha, Conclusion: beta, Time: time.Since(start)}
	if err != nil && ctx.Err() != nil && l.ctx.Err() == nil {
		t.OutOfBudget, err = true, errOutOfBudget
	}
	l.mu.Lock()
	l.out.Queries++
	l.out.Slowest = keepSlowest(l.out.Slowest, t, l.o.Slowest)
	l.mu.Unlock()
	return err
}

// keepSlowest inserts t into the k slowest queries, kept slowest first.
func keepSlowest(s []QueryTime, t QueryTime, k int) []QueryTime {
	i := sort.Search(len(s), func(i int) bool { return s[i].Time < t.Time })
	if i >= k {
		return s
	}
	s = slices.Insert(s, i, t)
	return s[:min(len(s), k)]
}

func examplesOf(alpha logic.Term, betas []logic.Lit) []Example {
	out := make([]Example, len(betas))
	for i, b := range betas {
		out[i] = Example{Evidence: alpha, Conclusion: b}
	}
	return out
}
