package repro

import (
	"fmt"
	"time"

	"github.com/strata-logic/strata/internal/experiment"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/possibilistic"
)

// Report is the outcome of a reproduction.
type Report struct {
	Options Options // with the defaults filled in
	Rows    []*Row
	experiment.Run
}

// Row is one dataset's line of the results: the theories' test accuracies
// (the embedded Row), the network, the examples, the baselines' and the
// sizes of the models.
type Row struct {
	experiment.Row
	Dataset Dataset
	Network NetworkInfo
	Counts  ExampleCounts

	// Learning, Hypothesis, Theory, Correct and Total repeat the poss theory's.
	Learning   *Learning
	Hypothesis *learn.Hypothesis
	Theory     *possibilistic.Theory // Hypothesis as a theory over the network's atoms

	// Correct of Total test examples are classified correctly by the
	// theory: a default is predicted when (Θ, α) ⊢poss β.
	Correct, Total int
	// Diagnostics help read the accuracies.
	Diagnostics Diagnostics

	// Time to learn the network, to draw and label the examples (writing
	// the files included), to score the theory and to run Weka.
	NetworkTime, ExamplesTime, Evaluate, Baseline time.Duration
}

// about gives the comment lines of l's theory file: where it comes from.
func (row *Row) about(l *experiment.Learned) []string {
	return []string{fmt.Sprintf("Possibilistic theory learned by strata under %s semantics from %d MAP-entailment examples of the %s network",
		l.Semantics, l.Learning.Examples, row.Dataset.Label),
		fmt.Sprintf("(learned from %s), as in the paper's §5.3. Highest level first.", row.Network.Source)}
}
