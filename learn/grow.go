package learn

import (
	"math"

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
	set, P, N := l.growSet(b)
	n := 0
	for _, a := range alpha {
		n = max(n, int(a)+1)
	}
	open := make([]bool, n) // open[a]: a is a literal of alpha not yet in A
	for _, a := range alpha {
		open[a] = true
	}
	p1, n1 := make([]float64, n), make([]float64, n)
	var A logic.Term
	for len(A) < growMaxLiterals && P > 0 && N > 0 {
		clear(p1)
		clear(n1)
		for _, r := range set {
			for _, a := range l.e.ex[r.x].alpha {
				if int(a) < n && open[a] {
					if r.pos {
						p1[a] += r.w
					} else {
						n1[a] += r.w
					}
				}
			}
		}
		before := math.Log(P / (P + N))
		best, gain := logic.Lit(-1), 0.0
		for _, a := range alpha {
			if open[a] && p1[a] > 0 {
				// A tie keeps the first literal of alpha: no draw, so the
				// same examples grow the same candidate.
				if g := p1[a] * (math.Log(p1[a]/(p1[a]+n1[a])) - before); g > gain+1e-9 {
					best, gain = a, g
				}
			}
		}
		if best < 0 {
			break
		}
		A, open[best] = append(A, best), false
		kept := set[:0]
		for _, r := range set {
			if containsLit(l.e.ex[r.x].alpha, best) {
				kept = append(kept, r)
			}
		}
		set, P, N = kept, p1[best], n1[best]
	}
	c := make(logic.Clause, 0, len(A)+1)
	for _, a := range A {
		c = append(c, a.Not())
	}
	return append(c, b)
}

// growExample is an example about the literal a candidate is grown for.
type growExample struct {
	x   int32   // in l.e.ex
	pos bool    // the rule's positive
	w   float64 // its multiplicity
}

// growSet returns the examples about b whose β is the single literal b or
// ¬b (at most growSample of them, evenly spaced) and the weights of their
// positives and negatives.
func (l *Learner) growSet(b logic.Lit) (set []growExample, P, N float64) {
	total := 0
	for x := range l.e.ex {
		if d := &l.e.ex[x]; len(d.beta) == 1 && d.beta[0].Atom() == b.Atom() {
			total++
		}
	}
	step := max(1, total/growSample)
	i := 0
	for x := range l.e.ex {
		d := &l.e.ex[x]
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

func containsLit(s []logic.Lit, l logic.Lit) bool {
	for _, x := range s {
		if x == l {
			return true
		}
	}
	return false
}
