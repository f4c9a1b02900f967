// Package crowd runs the protocol of the paper's crowdsourcing experiment
// (§5.2) on any table of answers: it splits the answers by annotator, turns
// them into default-rule examples (each answer gives situation |~ action,
// and a negative example with a random other action), adds the hard rules
// saying that only one action is chosen, builds the multi-class tables on
// which the baselines (random forests, C4.5, RIPPER) predict the most
// typical action of a situation, and scores a learned theory on the same
// task and on the default / non-default examples.
//
// The domains of the paper's study live in the subpackages football and
// poker; any other answer table can be read with ReadAnswers. The answers
// and their tables, descriptors, annotator splits and situations are
// defined here, since only the crowd packages use them.
package crowd

import (
	"fmt"
	"slices"

	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/weka"
)

// DefaultTestFraction is the share of the answers that Build holds out
// for testing.
const DefaultTestFraction = 0.3

// Options control how datasets are built from answers.
type Options struct {
	TestFraction float64 // share of the answers whose annotators are held out for testing (0: DefaultTestFraction)
	Seed         uint64  // seed of the split and of the negative examples
	// AtLeastOne adds the hard rule a1 ∨ … ∨ an to the pairwise exclusions,
	// so that exactly one action holds in every situation.
	AtLeastOne bool
}

// Datasets are the files of one run of the protocol.
type Datasets struct {
	Vocab   *logic.Vocabulary
	Actions []string
	Split   Split

	TrainPos, TrainNeg []logic.Rule // defaults and non-defaults from the training annotators
	TestPos, TestNeg   []logic.Rule // the same from the test annotators
	Hard               []logic.Clause

	// TrainSituations and TestSituations are the distinct situations of each
	// part with their most typical action (see Situations).
	TrainSituations, TestSituations []Situation
	TrainARFF, TestARFF             *weka.ARFF
	// Descriptors are the attributes of the ARFF tables and the *.typical
	// files, in order.
	Descriptors []string

	Manifest Manifest
}

// Build runs the protocol on a table of answers. domain names the relation
// of the ARFF tables and the manifest.
func Build(domain string, t *AnswerTable, opts Options) (*Datasets, error) {
	if opts.TestFraction == 0 {
		opts.TestFraction = DefaultTestFraction
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	split, err := SplitByAnnotator(t.Answers, opts.TestFraction, opts.Seed)
	if err != nil {
		return nil, err
	}
	if err := CheckSplit(split); err != nil {
		return nil, err
	}
	d, err := fromSplit(domain, t, split, opts)
	if err != nil {
		return nil, err
	}
	d.Manifest.Split = fmt.Sprintf("by annotator: whole annotators, drawn with the seed, hold out at least %v of the answers", opts.TestFraction)
	return d, nil
}

// BuildSplit runs the protocol on a split chosen by the caller, such as
// the answers of some files or sessions against the others (a temporal
// split). An annotator may be on both sides. how says in the manifest
// which split it is.
func BuildSplit(domain string, t *AnswerTable, split Split, how string, opts Options) (*Datasets, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	if len(split.Train) == 0 || len(split.Test) == 0 {
		return nil, fmt.Errorf("split %s: the training part has %d answers and the test part %d; both need some",
			how, len(split.Train), len(split.Test))
	}
	opts.TestFraction = 0
	d, err := fromSplit(domain, t, split, opts)
	if err != nil {
		return nil, err
	}
	d.Manifest.Split = how
	for _, a := range d.Manifest.Test.Annotators {
		if _, ok := slices.BinarySearch(d.Manifest.Train.Annotators, a); ok {
			d.Manifest.BothSides = append(d.Manifest.BothSides, a)
		}
	}
	return d, nil
}

// BuildFolds runs the protocol once per fold of a k-fold cross-validation
// by annotator.
func BuildFolds(domain string, t *AnswerTable, k int, opts Options) ([]*Datasets, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	splits, err := KFoldByAnnotator(t.Answers, k, opts.Seed)
	if err != nil {
		return nil, err
	}
	var out []*Datasets
	for i, s := range splits {
		if err := CheckSplit(s); err != nil {
			return nil, err
		}
		d, err := fromSplit(fmt.Sprintf("%s fold %d of %d", domain, i+1, k), t, s, opts)
		if err != nil {
			return nil, err
		}
		d.Manifest.Split = fmt.Sprintf("by annotator: fold %d of a %d-fold cross-validation by whole annotators", i+1, k)
		out = append(out, d)
	}
	return out, nil
}

func fromSplit(domain string, t *AnswerTable, split Split, opts Options) (*Datasets, error) {
	actions := t.Actions
	d := &Datasets{Vocab: &logic.Vocabulary{}, Actions: slices.Clone(actions), Split: split}
	// One random stream for both parts, so a seed fixes every file.
	rng := NewRand(opts.Seed ^ 0x9e3779b97f4a7c15)
	d.TrainPos, d.TrainNeg = Examples(d.Vocab, actions, split.Train, rng)
	d.TestPos, d.TestNeg = Examples(d.Vocab, actions, split.Test, rng)
	d.Hard = HardRules(d.Vocab, actions, opts.AtLeastOne)
	d.TrainSituations = Situations(split.Train)
	d.TestSituations = Situations(split.Test)
	// The domain's vocabulary, when it has one, fixes the attributes of
	// every table, so that files of two runs can be compared.
	descriptors := t.Descriptors
	if descriptors == nil {
		descriptors = Descriptors(split.Train, split.Test)
	}
	d.Descriptors = descriptors
	var err error
	if d.TrainARFF, err = SituationsARFF(domain+" train", descriptors, actions, d.TrainSituations); err != nil {
		return nil, err
	}
	if d.TestARFF, err = SituationsARFF(domain+" test", descriptors, actions, d.TestSituations); err != nil {
		return nil, err
	}
	d.Manifest = newManifest(domain, d, len(descriptors), opts)
	return d, nil
}

// Manifest says what a run generated, for the README of an output
// directory and for scripts (it is written as manifest.json).
type Manifest struct {
	Domain       string            `json:"domain"`
	Sources      []string          `json:"sources,omitempty"`
	Input        map[string]int    `json:"input,omitempty"` // what the reader kept and dropped
	Seed         uint64            `json:"seed"`
	Split        string            `json:"split"`                   // how the answers were split
	TestFraction float64           `json:"test_fraction,omitempty"` // for a split by annotator
	BothSides    []string          `json:"annotators_on_both_sides,omitempty"`
	Actions      []string          `json:"actions"`
	Descriptors  int               `json:"descriptors"`
	HardRules    int               `json:"hard_rules"`
	Train        Part              `json:"train"`
	Test         Part              `json:"test"`
	Target       string            `json:"target"`
	Files        map[string]string `json:"files"`
}

// Part counts one side of the split.
type Part struct {
	Annotators []string       `json:"annotators"`
	Answers    int            `json:"answers"`
	DontKnow   int            `json:"dont_know"`
	Positive   int            `json:"positive_examples"`
	Negative   int            `json:"negative_examples"`
	Situations int            `json:"situations"`
	Typical    map[string]int `json:"typical_action"` // situations per most typical action
}

// targetDefinition is how the multi-class target is defined, in words.
const targetDefinition = "the most typical action of a situation is the option (an action or don't know) " +
	"chosen by strictly more answers for that situation in that part than any other option; " +
	"when it is don't know, or the top options tie, the target is none. A theory predicts action a " +
	"when (theory, situation) entails a possibilistically for exactly one action a, and none otherwise."

func newManifest(domain string, d *Datasets, descriptors int, opts Options) Manifest {
	part := func(answers []Answer, pos, neg []logic.Rule, sits []Situation) Part {
		p := Part{Annotators: Annotators(answers), Answers: len(answers), Positive: len(pos),
			Negative: len(neg), Situations: len(sits), Typical: map[string]int{}}
		for _, a := range answers {
			if a.Action == DontKnow {
				p.DontKnow++
			}
		}
		for _, s := range sits {
			p.Typical[s.Typical]++
		}
		return p
	}
	return Manifest{
		Domain: domain, Seed: opts.Seed, TestFraction: opts.TestFraction, Actions: d.Actions,
		Descriptors: descriptors, HardRules: len(d.Hard), Target: targetDefinition,
		Train: part(d.Split.Train, d.TrainPos, d.TrainNeg, d.TrainSituations),
		Test:  part(d.Split.Test, d.TestPos, d.TestNeg, d.TestSituations),
		Files: Files,
	}
}

// Files names the files Write produces and what each holds.
var Files = map[string]string{
	"train.defaults":    "positive examples situation -> action from the training annotators",
	"train.nondefaults": "negative examples: the same situations with a random other action",
	"test.defaults":     "positive examples from the test annotators",
	"test.nondefaults":  "negative examples from the test annotators",
	"hard.rules":        "hard rules: only one action per situation (pairwise exclusions)",
	"train.typical":     "one line per training situation: situation -> most typical action (or none), counts in a comment",
	"test.typical":      "the same for the test situations: the multi-class test set",
	"train.arff":        "the training situations for Weka: Boolean descriptors and the most typical action as class",
	"test.arff":         "the test situations for Weka",
	"manifest.json":     "this description",
}
