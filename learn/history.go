package learn

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// WriteHistoryCSV writes the learning history as CSV with a header:
// iteration, train_accuracy, test_accuracy (empty without a test set),
// rules, levels, literals, elapsed_seconds, improved.
func WriteHistoryCSV(w io.Writer, hist []Iteration) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"iteration", "train_accuracy", "test_accuracy", "rules", "levels", "literals", "elapsed_seconds", "improved"})
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'f', 4, 64)
	}
	for _, it := range hist {
		cw.Write([]string{
			strconv.Itoa(it.Iteration), f(it.TrainAccuracy), f(it.TestAccuracy),
			strconv.Itoa(it.Rules), strconv.Itoa(it.Levels), strconv.Itoa(it.Literals),
			strconv.FormatFloat(it.Elapsed.Seconds(), 'f', 3, 64), strconv.FormatBool(it.Improved),
		})
	}
	cw.Flush()
	return cw.Error()
}
