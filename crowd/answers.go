package crowd

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/strata-logic/strata/eval"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/weka"
)

// Answer is one annotator's answer for one situation, the raw material of
// the paper's crowdsourcing experiment (§5.2): an annotator was shown a
// situation and chose the most appropriate action, or "don't know".
type Answer struct {
	Situation []string // the descriptors that hold in the situation (atom names), sorted, no duplicates
	Annotator string   // who answered: a crowd worker, a team, a player
	Action    string   // the chosen action; DontKnow when the annotator did not know
}

// DontKnow is the Action of an answer whose annotator chose "don't know /
// it depends". It gives no positive example.
const DontKnow = ""

// NoAction is the multi-class target of a situation for which no single
// action is the most typical one, and the answer of a theory that entails
// no single action for it (eval.None).
const NoAction = eval.None

// AnswerTable is a set of answers together with the actions the annotators
// chose from.
type AnswerTable struct {
	Actions []string // every action that can be chosen, in a fixed order
	Answers []Answer
	// Descriptors is the vocabulary of the situations, sorted: every
	// descriptor the domain or the column plan can give, whether or not an
	// answer holds it, so that every file built for the domain has the same
	// attributes. Nil means the descriptors of the answers.
	Descriptors []string
}

// checkActions checks that action names are usable atoms: identifiers of
// the rule syntax, distinct, and not the reserved NoAction.
func checkActions(actions []string) error {
	if len(actions) < 2 {
		return fmt.Errorf("need at least two actions, got %d", len(actions))
	}
	seen := map[string]bool{}
	for _, a := range actions {
		switch {
		case a == NoAction:
			return fmt.Errorf("action %q is reserved for situations without a typical action", a)
		case !IsAtomName(a):
			return fmt.Errorf("action %q is not an atom name (letters, digits, '_' and '-', not a number)", a)
		case seen[a]:
			return fmt.Errorf("action %q appears twice", a)
		}
		seen[a] = true
	}
	return nil
}

// IsAtomName reports whether s reads back as exactly one atom in the rule
// syntax.
func IsAtomName(s string) bool {
	v := &logic.Vocabulary{}
	f, err := logic.ParseFormula(v, s)
	if err != nil || f.Op != logic.OpAtom {
		return false
	}
	return v.Name(f.Atom) == s
}

// Examples turns answers into the paper's default-rule examples: for every
// answer that is not "don't know", the positive example
// situation |~ action, and the negative example situation |~ other, where
// other is drawn uniformly by rng from the remaining actions. Don't-know
// answers give neither. Atoms are interned in v, the actions first so that
// every file built from one vocabulary lists them alike.
func Examples(v *logic.Vocabulary, actions []string, answers []Answer, rng *rand.Rand) (pos, neg []logic.Rule) {
	for _, a := range actions {
		v.Intern(a)
	}
	for _, ans := range answers {
		if ans.Action == DontKnow {
			continue
		}
		alpha := SituationTerm(v, ans.Situation)
		pos = append(pos, actionRule(v, alpha, ans.Action))
		others := make([]string, 0, len(actions)-1)
		for _, a := range actions {
			if a != ans.Action {
				others = append(others, a)
			}
		}
		neg = append(neg, actionRule(v, alpha, others[rng.IntN(len(others))]))
	}
	return pos, neg
}

// TypicalExamples turns answers into examples of the task the test scores,
// the most typical action of a situation: Examples' examples, each answer
// stating its situation's most typical action (Situations) instead of its
// own. A situation keeps its weight, one example per answer, and loses its
// disagreements; the answers of a situation without a most typical action
// (a tie, don't know) give none. The negative examples are drawn by rng as
// Examples draws them.
func TypicalExamples(v *logic.Vocabulary, actions []string, answers []Answer, rng *rand.Rand) (pos, neg []logic.Rule) {
	typical := map[string]string{}
	for _, s := range Situations(answers) {
		typical[situationKey(s.Descriptors)] = s.Typical
	}
	relabelled := make([]Answer, 0, len(answers))
	for _, a := range answers {
		if t := typical[situationKey(a.Situation)]; t != NoAction {
			a.Action = t
			relabelled = append(relabelled, a)
		}
	}
	return Examples(v, actions, relabelled, rng)
}

// SituationTerm returns the conjunction of the descriptors, interned in v.
func SituationTerm(v *logic.Vocabulary, descriptors []string) logic.Term {
	t := make(logic.Term, len(descriptors))
	for i, d := range descriptors {
		t[i] = logic.Pos(v.Intern(d))
	}
	return t
}

func actionRule(v *logic.Vocabulary, alpha logic.Term, action string) logic.Rule {
	return logic.Rule{Antecedent: logic.TermF(alpha), Consequent: logic.AtomF(v.Intern(action))}
}

// HardRules returns the hard rules saying that only one action is chosen in
// a situation (eval.ClassRules of the actions): the pairwise exclusions
// ¬a ∨ ¬b, as in the top level of the paper's Table 1, and with atLeastOne
// the clause a1 ∨ … ∨ an, so that exactly one action holds.
func HardRules(v *logic.Vocabulary, actions []string, atLeastOne bool) []logic.Clause {
	return eval.ClassRules(v, actions, atLeastOne)
}

// Situation is one distinct situation among a set of answers, with how often
// each action was chosen for it and its most typical action.
type Situation struct {
	Descriptors []string       // sorted
	Counts      map[string]int // answers per action; DontKnow counts the don't-know answers
	Typical     string         // the most typical action, or NoAction
}

// Answers returns the number of answers for the situation.
func (s Situation) Answers() int {
	n := 0
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// Situations groups answers by situation (equal descriptor sets) and gives
// each its most typical action, the target of the paper's multi-class
// comparison: the option chosen by strictly more answers than any other
// option, where "don't know" is an option too; when that option is "don't
// know", or when the top options are tied, no action is typical and the
// target is NoAction. Situations come in the order of their first answer.
func Situations(answers []Answer) []Situation {
	var out []Situation
	index := map[string]int{}
	for _, a := range answers {
		key := situationKey(a.Situation)
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, Situation{Descriptors: a.Situation, Counts: map[string]int{}})
		}
		out[i].Counts[a.Action]++
	}
	for i := range out {
		out[i].Typical = typical(out[i].Counts)
	}
	return out
}

// situationKey identifies a situation by its sorted descriptors.
func situationKey(descriptors []string) string { return strings.Join(descriptors, ",") }

func typical(counts map[string]int) string {
	best, top, tied := "", -1, false
	for a, c := range counts {
		switch {
		case c > top:
			best, top, tied = a, c, false
		case c == top:
			tied = true
		}
	}
	if tied || best == DontKnow {
		return NoAction
	}
	return best
}

// Descriptors returns the sorted union of the descriptors of the answers.
func Descriptors(answers ...[]Answer) []string {
	seen := map[string]bool{}
	var out []string
	for _, as := range answers {
		for _, a := range as {
			for _, d := range a.Situation {
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// SituationsARFF returns the multi-class table on which the paper's
// baselines (random forests, C4.5, RIPPER) are trained and tested: one row
// per situation, one Boolean attribute {0,1} per descriptor (1 when it
// holds), and the class: the situation's most typical action or NoAction.
// Train and test tables must be built with the same descriptors and actions
// so that Weka accepts them as compatible.
func SituationsARFF(relation string, descriptors, actions []string, sits []Situation) (*weka.ARFF, error) {
	a := &weka.ARFF{Relation: relation}
	col := make(map[string]int, len(descriptors))
	for i, d := range descriptors {
		col[d] = i
		a.Attributes = append(a.Attributes, weka.Attribute{Name: d, Values: []string{"0", "1"}})
	}
	classes := append(slices.Clone(actions), NoAction)
	class := "class"
	for _, taken := col[class]; taken; _, taken = col[class] {
		class += "_"
	}
	a.Attributes = append(a.Attributes, weka.Attribute{Name: class, Values: classes})
	for _, s := range sits {
		row := make([]string, len(descriptors)+1)
		for i := range descriptors {
			row[i] = "0"
		}
		for _, d := range s.Descriptors {
			i, ok := col[d]
			if !ok {
				return nil, fmt.Errorf("arff %s: descriptor %q is not an attribute", relation, d)
			}
			row[i] = "1"
		}
		if !slices.Contains(classes, s.Typical) {
			return nil, fmt.Errorf("arff %s: class %q is not an action", relation, s.Typical)
		}
		row[len(descriptors)] = s.Typical
		a.Rows = append(a.Rows, row)
	}
	return a, nil
}

// ErrNoAnswers is returned when an answer table holds no usable answer.
var ErrNoAnswers = errors.New("no usable answers")

// Validate checks that the actions are usable atom names and that every
// answer chooses one of them or "don't know".
func (t *AnswerTable) Validate() error {
	if err := checkActions(t.Actions); err != nil {
		return err
	}
	vocab := map[string]bool{}
	for i, d := range t.Descriptors {
		if i > 0 && t.Descriptors[i-1] >= d {
			return fmt.Errorf("descriptors %q and %q: the vocabulary must be sorted and distinct", t.Descriptors[i-1], d)
		}
		if !IsAtomName(d) {
			return fmt.Errorf("descriptor %q is not an atom name", d)
		}
		if slices.Contains(t.Actions, d) {
			return fmt.Errorf("descriptor %q is also an action", d)
		}
		vocab[d] = true
	}
	checked := map[string]bool{}
	for i, a := range t.Answers {
		if a.Action != DontKnow && !slices.Contains(t.Actions, a.Action) {
			return fmt.Errorf("answer %d: action %q is not one of %s", i+1, a.Action, strings.Join(t.Actions, ", "))
		}
		if a.Annotator == "" {
			return fmt.Errorf("answer %d: no annotator", i+1)
		}
		// Situations are keyed by their descriptor list, so equal situations
		// must be spelt alike.
		for j := 1; j < len(a.Situation); j++ {
			if a.Situation[j-1] >= a.Situation[j] {
				return fmt.Errorf("answer %d: descriptors %q must be sorted and distinct", i+1, a.Situation)
			}
		}
		for _, d := range a.Situation {
			if checked[d] {
				continue
			}
			checked[d] = true
			if !IsAtomName(d) {
				return fmt.Errorf("answer %d: descriptor %q is not an atom name", i+1, d)
			}
			if slices.Contains(t.Actions, d) {
				return fmt.Errorf("answer %d: descriptor %q is also an action", i+1, d)
			}
			if t.Descriptors != nil && !vocab[d] {
				return fmt.Errorf("answer %d: descriptor %q is not in the vocabulary", i+1, d)
			}
		}
	}
	return nil
}
