package repro

import (
	"context"

	"github.com/strata-logic/strata/internal/experiment"
)

// Repeated is the experiment run several times with consecutive seeds,
// each drawing other test annotators: the spread of its accuracies and how
// often the theories meet the baselines (summary.md), and each run's
// report.
type Repeated struct {
	experiment.Repeated
	Reports []*Report
}

// Repeat runs Reproduce n times with the seeds opts.Seed, opts.Seed+1, …,
// each into a directory of opts.Dir named after its seed (seed1/, seed2/,
// …, each as Reproduce writes it), and writes summary.md into opts.Dir.
// One run's table rests on the few annotators its seed holds out (5 players,
// 7 or 10 teams), whose decisions differ from the others' by more than most
// choices of the learner change its accuracy; the spread over several runs
// shows how much. After an error the runs that finished are in the
// result.
func Repeat(ctx context.Context, opts Options, n int) (*Repeated, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	rep := &Repeated{Repeated: experiment.Repeated{Title: "The paper's crowdsourcing experiment (§5.2, Table 2), run with several seeds"}}
	return rep, experiment.Repeat(&opts.Settings, &rep.Repeated, n, func(seed uint64, dir string) ([]*experiment.Row, error) {
		o := opts
		o.Seed, o.Dir = seed, dir
		r, err := Reproduce(ctx, o)
		if err != nil {
			return nil, err
		}
		rep.Reports = append(rep.Reports, r)
		rows := make([]*experiment.Row, len(r.Rows))
		for i, row := range r.Rows {
			rows[i] = &row.Row
		}
		return rows, nil
	})
}
