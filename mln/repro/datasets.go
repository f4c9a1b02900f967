package repro

import (
	"slices"
	"strings"
)

// Dataset is one row of the results table: a density-estimation benchmark
// of ../shared/data/debd whose learned network the experiment compiles.
type Dataset struct {
	Name  string // the directory in debd/; names the output files NAME.theory and NAME/
	Label string // the row's name in the table
	Vars  int    // Boolean variables, as the paper gives them
	// Paper holds the paper's test accuracies in % (its table "Test set
	// accuracies": Poss., Rand. F., C4.5, RIPPER).
	Paper []float64
}

// Datasets are the rows of the paper's MAP experiment, in its order.
var Datasets = []Dataset{
	{Name: "nltcs", Label: "NLTCS", Vars: 16, Paper: []float64{78.1, 69.6, 70.2, 67.7}},
	{Name: "msnbc", Label: "MSNBC", Vars: 17, Paper: []float64{62.0, 61.9, 62.0, 48.8}},
	{Name: "plants", Label: "Plants", Vars: 69, Paper: []float64{73.1, 77.8, 71.4, 53.8}},
	{Name: "dna", Label: "DNA", Vars: 180, Paper: []float64{52.8, 56.6, 54.9, 51.1}},
}

func datasetByName(name string) (Dataset, bool) {
	i := slices.IndexFunc(Datasets, func(d Dataset) bool { return d.Name == name })
	if i < 0 {
		return Dataset{}, false
	}
	return Datasets[i], true
}

func datasetNames() string {
	var names []string
	for _, d := range Datasets {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

func (d Dataset) name() string { return d.Name }
