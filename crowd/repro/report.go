package repro

import (
	"fmt"
	"time"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/eval"
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

// Row is one domain's line of the results: the theories' scores (the
// embedded Row, whose Semantics are scored on the multi-class task), the
// baselines' and the sizes of the models.
type Row struct {
	experiment.Row
	Domain   Domain
	Input    map[string]int // what the reader kept and dropped
	Warnings []string       // the reader's first warnings (skipped rows or hands)
	Manifest crowd.Manifest // the datasets: annotators and counts of each part

	// Learning, Hypothesis and Theory repeat the poss theory's.
	Learning   *Learning
	Hypothesis *learn.Hypothesis
	Theory     *possibilistic.Theory // Hypothesis as a theory, hard rules at weight 1

	// Poss is the theory's confusion table on the multi-class task: the most
	// typical action of each test situation, scored by eval.Cases.
	Poss *eval.Confusion
	// Binary is the theory on the test defaults and non-defaults.
	Binary *eval.Binary
	// Majority is the accuracy of always predicting MajorityAction, the most
	// frequent target of the training situations.
	MajorityAction string
	Majority       float64

	Prepare, Evaluate, Baseline time.Duration // time to read and build, to score the theory, to run Weka
}

// about gives the comment lines of l's theory file: where it comes from.
func (row *Row) about(l *experiment.Learned) []string {
	return []string{fmt.Sprintf("Possibilistic theory learned by strata under %s semantics from %s (%s), as in Table 1 of the paper.",
		l.Semantics, row.Domain.Label, row.Domain.Source),
		"Highest level first. Weight 1: the hard rules (only one action per situation); below: the learned levels.",
		"Test accuracy: on the most typical action of the test situations."}
}
