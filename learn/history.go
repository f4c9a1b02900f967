package learn

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"time"
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

// iterationJSON is an Iteration as JSON: the test accuracy is null without
// a test set (JSON has no NaN), the elapsed time in milliseconds.
type iterationJSON struct {
	Iteration     int      `json:"iteration"`
	TrainAccuracy float64  `json:"train_accuracy"`
	TestAccuracy  *float64 `json:"test_accuracy"`
	Rules         int      `json:"rules"`
	Levels        int      `json:"levels"`
	Literals      int      `json:"literals"`
	ElapsedMS     float64  `json:"elapsed_ms"`
	Improved      bool     `json:"improved"`
}

// MarshalJSON writes the iteration as the command line, the server and
// the reproductions show it: test_accuracy null without a test set,
// elapsed_ms the learning time so far in milliseconds.
func (it Iteration) MarshalJSON() ([]byte, error) {
	v := iterationJSON{Iteration: it.Iteration, TrainAccuracy: it.TrainAccuracy, Rules: it.Rules, Levels: it.Levels,
		Literals: it.Literals, ElapsedMS: float64(it.Elapsed) / float64(time.Millisecond), Improved: it.Improved}
	if finite(it.TestAccuracy) {
		t := it.TestAccuracy
		v.TestAccuracy = &t
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (it *Iteration) UnmarshalJSON(data []byte) error {
	var v iterationJSON
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*it = Iteration{Iteration: v.Iteration, TrainAccuracy: v.TrainAccuracy, TestAccuracy: math.NaN(), Rules: v.Rules, Levels: v.Levels,
		Literals: v.Literals, Elapsed: time.Duration(v.ElapsedMS * float64(time.Millisecond)), Improved: v.Improved}
	if v.TestAccuracy != nil {
		it.TestAccuracy = *v.TestAccuracy
	}
	return nil
}
