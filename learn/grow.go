package learn

import (
	"math"
	"math/bits"
	"slices"

	"github.com/strata-logic/strata/logic"
)

// growMaxLiterals bounds the antecedent of a grown candidate: minimise
// shortens the chosen candidate anyway, and a longer one would be a rule
// for a handful of examples.
const growMaxLiterals = 8

// growSample bounds the examples a candidate is grown on: beyond it, an
// evenly spaced sample of them keeps the counts' proportions and a grown
// candidate's cost independent of the number of examples.
const growSample = 4000

// grow builds a candidate clause ¬A ∨ b for a misclassified default α |~ β
// (b a literal of β) the way FOIL and RIPPER grow a rule (Quinlan, "Learning
// logical definitions from relations", 1990): starting from the empty A,
// it adds the literal of alpha with the highest FOIL gain among the
// examples about b, until A covers none of their negatives, no literal
// gains or A has growMaxLiterals literals. An example about b is a positive
// of the rule when the rule makes its answer right (α' |~ b positive, or
// α' |~ ¬b negative) and a negative when it makes it wrong; a literal's
// gain is p₁ (log p₁/(p₁+n₁) − log p₀/(p₀+n₀)) for the weights p, n of the
// positives and negatives A covers before (₀) and after (₁) it is added.
// Where §4.3's random subsets of α rarely hit the few literals that
// separate a class, the gain finds them from the data.
func (l *Learner) grow(alpha logic.Term, b logic.Lit) logic.Clause {
	// The grow set depends on the examples alone, so a default grows the
	// same candidate every time it is drawn: the candidates are kept.
	k := key(alpha, logic.Clause{b}, true)
	if c, ok := l.grownFrom[k]; ok {
		return slices.Clone(c)
	}
	c := l.growAnew(alpha, b)
	if l.grownFrom == nil || len(l.grownFrom) >= maxGrown {
		l.grownFrom = map[string]logic.Clause{}
	}
	l.grownFrom[k] = slices.Clone(c)
	return c
}

// maxGrown bounds the grown candidates a learner keeps.
const maxGrown = 1 << 16

// growAnew is grow without its memory.
func (l *Learner) growAnew(alpha logic.Term, b logic.Lit) logic.Clause {
	gi := l.growIndexOf(b)
	P, N := gi.P, gi.N
	open := make(map[logic.Lit]bool, len(alpha)) // the literals of alpha not yet in A
	for _, a := range alpha {
		open[a] = true
	}
	cur := slices.Clone(gi.all)      // the examples A covers
	words := make([]int32, len(cur)) // the words of cur that are not 0
	for w := range words {
		words[w] = int32(w)
	}
	var A logic.Term
	for len(A) < growMaxLiterals && P > 0 && N > 0 {
		before := math.Log(P / (P + N))
		best, gain := logic.Lit(-1), 0.0
		var bp, bn float64
		for _, a := range alpha {
			has := gi.lits[a]
			if !open[a] || has == nil {
				continue
			}
			var p1, n1 float64
			if len(A) == 0 {
				p1, n1 = gi.whole(a, has) // cur is every example
			} else {
				p1, n1 = gi.weigh(cur, words, has)
			}
			// A tie keeps the first literal of alpha: no draw, so the
			// same examples grow the same candidate.
			if p1 > 0 {
				if g := p1 * (math.Log(p1/(p1+n1)) - before); g > gain+1e-9 {
					best, gain, bp, bn = a, g, p1, n1
				}
			}
		}
		if best < 0 {
			break
		}
		A, open[best] = append(A, best), false
		has, kept := gi.lits[best], words[:0]
		for _, w := range words {
			if cur[w] &= has[w]; cur[w] != 0 {
				kept = append(kept, w)
			}
		}
		words = kept
		P, N = bp, bn
	}
	c := make(logic.Clause, 0, len(A)+1)
	for _, a := range A {
		c = append(c, a.Not())
	}
	return append(c, b)
}

// growIndex is the grow set of a literal b (growSet) as bitsets over its
// examples: per antecedent literal the examples whose α has it, the
// rule's positives, and those of weight 1 (the others are few), so that a literal's
// weights of positives and negatives among the examples a partial
// antecedent covers are a few popcounts per 64 examples. The set depends on
// the examples alone, so each literal's is built once per learner.
type growIndex struct {
	P, N   float64
	all    []uint64
	pos    []uint64
	lits   map[logic.Lit][]uint64
	one    []uint64 // the examples of weight 1, most of them
	weight []int64  // per example its weight
	first  map[logic.Lit][2]float64
}

// growIndexOf returns the grow index of literal b, building it the first
// time.
func (l *Learner) growIndexOf(b logic.Lit) *growIndex {
	if gi, ok := l.grown[b]; ok {
		return gi
	}
	set, P, N := l.growSet(b)
	words := (len(set) + 63) / 64
	gi := &growIndex{P: P, N: N, all: make([]uint64, words), pos: make([]uint64, words), lits: map[logic.Lit][]uint64{}}
	gi.one, gi.weight = make([]uint64, words), make([]int64, len(set))
	for i, r := range set {
		w, bit := i>>6, uint64(1)<<(i&63)
		gi.all[w] |= bit
		if r.pos {
			gi.pos[w] |= bit
		}
		if gi.weight[i] = int64(r.w); r.w == 1 {
			gi.one[w] |= bit
		}
		for _, a := range l.e.data(int(r.x)).alpha {
			has := gi.lits[a]
			if has == nil {
				has = make([]uint64, words)
				gi.lits[a] = has
			}
			has[w] |= bit
		}
	}
	if l.grown == nil {
		l.grown = map[logic.Lit]*growIndex{}
	}
	l.grown[b] = gi
	return gi
}

// whole returns weigh's answer for every example, computed once per
// literal.
func (gi *growIndex) whole(a logic.Lit, has []uint64) (p, n float64) {
	if w, ok := gi.first[a]; ok {
		return w[0], w[1]
	}
	all := make([]int32, len(gi.all))
	for w := range all {
		all[w] = int32(w)
	}
	p, n = gi.weigh(gi.all, all, has)
	if gi.first == nil {
		gi.first = map[logic.Lit][2]float64{}
	}
	gi.first[a] = [2]float64{p, n}
	return p, n
}

// weigh returns the weights of the positives and of the negatives among
// the examples of cur (whose words not 0 are words) whose α has the
// literal of has.
func (gi *growIndex) weigh(cur []uint64, words []int32, has []uint64) (p, n float64) {
	var pw, nw int64
	for _, w := range words {
		x := cur[w] & has[w]
		if x == 0 {
			continue
		}
		xp, xn := x&gi.pos[w], x&^gi.pos[w]
		pw += int64(bits.OnesCount64(xp & gi.one[w]))
		nw += int64(bits.OnesCount64(xn & gi.one[w]))
		for y := x &^ gi.one[w]; y != 0; y &= y - 1 {
			i := w<<6 | int32(bits.TrailingZeros64(y))
			if xp>>(i&63)&1 == 1 {
				pw += gi.weight[i]
			} else {
				nw += gi.weight[i]
			}
		}
	}
	return float64(pw), float64(nw)
}

// growExample is an example about the literal a candidate is grown for.
type growExample struct {
	x   int32   // an example, as l.e numbers them
	pos bool    // the rule's positive
	w   float64 // its multiplicity
}

// growSet returns the examples about b whose β is the single literal b or
// ¬b (at most growSample of them, evenly spaced) and the weights of their
// positives and negatives.
func (l *Learner) growSet(b logic.Lit) (set []growExample, P, N float64) {
	total := 0
	for x := range l.e.count() {
		if d := l.e.data(x); len(d.beta) == 1 && d.beta[0].Atom() == b.Atom() {
			total++
		}
	}
	step := max(1, total/growSample)
	i := 0
	for x := range l.e.count() {
		d := l.e.data(x)
		if len(d.beta) != 1 || d.beta[0].Atom() != b.Atom() {
			continue
		}
		i++
		if (i-1)%step != 0 {
			continue
		}
		// α |~ b positive, or α |~ ¬b negative: the rule makes it right.
		pos := (d.beta[0] == b) == (d.sign > 0)
		w := float64(d.weight)
		set = append(set, growExample{int32(x), pos, w})
		if pos {
			P += w
		} else {
			N += w
		}
	}
	return set, P, N
}
