package learn

import (
	"context"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// tallyShares are the least Laplace-corrected precisions of the rules of a
// tally level that tallyLevel tries.
var tallyShares = []float64{0.6, 0.75, 0.9}

// tallyMaxAnswers bounds the distinct consequents of the positive examples
// for which tallyLevel proposes a level: a tally chooses among a few
// answers (a table's classes, a domain's actions), not among every atom.
const tallyMaxAnswers = 32

// tallyLevel returns, under lex, a candidate that sampled clauses reach
// only one per iteration: the current hypothesis with a new lowest level
// of one-literal rules l → β, each an antecedent literal l of the positive
// examples whose answer β it predicts with a Laplace-corrected precision of
// at least a share and above β's frequency. Lex prefers a world that
// violates fewer of a level's rules, so such a level answers what most of
// the rules whose antecedent the evidence satisfies say: a tally of votes,
// a linear model with unit weights. Added one rule an iteration, no vote
// need raise the score on its own. Each share of tallyShares gives a
// level; the best scoring is returned, scored like any other candidate by
// the training score of the hypothesis it makes (the engine is left as it
// was), or nil when no share gives a rule.
func tallyLevel(ctx context.Context, e coverage) (m *Hypothesis, score int64) {
	x, h := e.examples(), e.hypothesis()
	answers, counts, total := x.tallyCounts()
	if answers == nil {
		return nil, 0
	}
	k := float64(len(answers))
	var prev []logic.Clause
	for _, share := range tallyShares {
		var level []logic.Clause
		for l := range 2 * x.n {
			row := counts[l*len(answers) : (l+1)*len(answers)]
			var n int64
			for _, v := range row {
				n += v
			}
			if n == 0 {
				continue
			}
			lit := logic.Lit(l)
			for bi, v := range row {
				p := (float64(v) + 1) / (float64(n) + k)
				if v == 0 || p < share || float64(v)/float64(n) <= float64(total[bi])/float64(total[len(answers)]) {
					continue
				}
				c, taut := logic.Normalize(logic.Clause{lit.Not(), answers[bi]})
				if _, _, in := locate(h, c); taut || in || e.minPosition(h, c) < 0 {
					continue
				}
				level = append(level, c)
			}
		}
		if len(level) == 0 || slices.EqualFunc(level, prev, slices.Equal) {
			continue
		}
		prev = level
		cand := h.Clone()
		cand.Levels = append([][]logic.Clause{level}, cand.Levels...)
		s := scoreWith(e, cand)
		if ctx.Err() != nil {
			return nil, 0
		}
		if m == nil || s > score {
			m, score = cand, s
		}
	}
	return m, score
}

// tallyCounts returns the consequents of the positive examples (nil when
// there are more than tallyMaxAnswers or a consequent is not one literal),
// the weight of the positive examples per antecedent literal and
// consequent (literal l, answer b at l*len(answers)+b), and the weight per
// consequent with the total last.
func (e *layout) tallyCounts() (answers []logic.Lit, counts, total []int64) {
	index := make(map[logic.Lit]int)
	for i := range e.count() {
		d := e.data(i)
		if d.sign < 0 || !d.hardOK {
			continue
		}
		if len(d.beta) != 1 {
			return nil, nil, nil
		}
		if _, ok := index[d.beta[0]]; !ok {
			if len(answers) == tallyMaxAnswers {
				return nil, nil, nil
			}
			index[d.beta[0]] = len(answers)
			answers = append(answers, d.beta[0])
		}
	}
	if len(answers) < 2 {
		return nil, nil, nil
	}
	counts = make([]int64, 2*e.n*len(answers))
	total = make([]int64, len(answers)+1)
	for i := range e.count() {
		d := e.data(i)
		if d.sign < 0 || !d.hardOK {
			continue
		}
		bi := index[d.beta[0]]
		total[bi] += d.weight
		total[len(answers)] += d.weight
		for _, l := range d.alpha {
			if l.Atom() == answers[bi].Atom() {
				continue
			}
			counts[int(l)*len(answers)+bi] += d.weight
		}
	}
	return answers, counts, total
}
