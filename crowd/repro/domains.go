package repro

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/crowd/football"
	"github.com/strata-logic/strata/crowd/poker"
	"github.com/strata-logic/strata/learn"
	"github.com/strata-logic/strata/logic"
)

// Domain is one row of the results table: a source of real decisions that
// stands in for one of the paper's crowdsourced studies.
type Domain struct {
	Name   string // names the output files: NAME.theory, NAME/
	Label  string // the row's name in the table
	Source string // file or directory inside the data directory
	// Paper holds the paper's Table 2 accuracies (Poss., Rand. F., C4.5,
	// RIPPER, in %) for the study this domain stands in for; nil when the
	// paper has no such row.
	Paper []float64
}

// Domains are the rows of the reproduction, in the paper's order.
var Domains = []Domain{
	{Name: "poker", Label: "Poker", Source: "poker/pluribus_hands.txt.gz", Paper: []float64{40.5, 38.6, 41.1, 39.9}},
	{Name: "football", Label: "Football", Source: "football/playoffs", Paper: []float64{68.3, 72.4, 74.6, 73.1}},
	{Name: "fourth_down", Label: "Football (4th down)", Source: "football/fourth_down"},
}

func domainByName(name string) (Domain, bool) {
	i := slices.IndexFunc(Domains, func(d Domain) bool { return d.Name == name })
	if i < 0 {
		return Domain{}, false
	}
	return Domains[i], true
}

func domainNames() string {
	var names []string
	for _, d := range Domains {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// input is what a domain's reader produced.
type input struct {
	table    *crowd.AnswerTable
	sources  []string
	stats    map[string]int // what the reader kept and dropped
	warnings []string       // the first maxWarnings warnings
}

const maxWarnings = 10

func (in *input) warn(ws logic.ErrorList) {
	for _, w := range ws {
		if len(in.warnings) < maxWarnings {
			in.warnings = append(in.warnings, w.Error())
		}
	}
}

// load reads the domain's answers from the data directory. A quick run reads
// QuickHands poker hands, or QuickAnswers play calls drawn with the seed from
// the first file of a football directory.
func (d Domain) load(data string, quick bool, seed uint64) (*input, error) {
	path := filepath.Join(data, d.Source)
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	if d.Name == "poker" {
		return loadPoker(path, quick)
	}
	in, err := loadFootball(path, quick)
	if err != nil {
		return nil, err
	}
	if quick {
		in.table.Answers = sample(in.table.Answers, QuickAnswers, seed)
		in.stats["sampled_answers"] = len(in.table.Answers)
	}
	return in, nil
}

func loadPoker(path string, quick bool) (*input, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var opts poker.Options
	if quick {
		opts.MaxHands = QuickHands
	}
	answers, st, warns, err := poker.ReadAnswers(f, path, opts)
	if err != nil {
		return nil, err
	}
	in := &input{
		table:   &crowd.AnswerTable{Actions: poker.Actions, Answers: answers, Descriptors: poker.DescriptorNames()},
		sources: []string{path},
		stats: map[string]int{"hands": st.Hands, "skipped_hands": st.Skipped, "decisions": st.Decisions,
			"decisions_without_hole_cards": st.UnknownCards},
	}
	in.warn(warns)
	return in, nil
}

func loadFootball(dir string, quick bool) (*input, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no .csv files", dir)
	}
	slices.Sort(files)
	if quick {
		files = files[:1]
	}
	in := &input{table: &crowd.AnswerTable{Actions: football.Actions, Descriptors: football.DescriptorNames()}, sources: files}
	var total football.Stats
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		as, st, warns, err := football.Read(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
		in.table.Answers = append(in.table.Answers, as...)
		in.warn(warns)
		total.Add(st)
	}
	in.stats = map[string]int{"rows": total.Rows, "answers": total.Answers, "non_plays": total.NonPlays,
		"two_point_tries": total.TwoPoint, "spikes": total.Spikes, "pro_bowl": total.ProBowl, "skipped_rows": total.Malformed}
	return in, nil
}

// sample returns n of the answers drawn without replacement for the run's
// seed, in their original order (all of them when there are no more than n).
func sample(answers []crowd.Answer, n int, seed uint64) []crowd.Answer {
	if len(answers) <= n {
		return answers
	}
	idx := learn.RandFor(seed, learn.ForSample).Perm(len(answers))[:n]
	slices.Sort(idx)
	out := make([]crowd.Answer, n)
	for i, j := range idx {
		out[i] = answers[j]
	}
	return out
}

func (d Domain) name() string { return d.Name }
