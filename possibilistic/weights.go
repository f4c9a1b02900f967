package possibilistic

import "math"

// LevelWeights returns k increasing weights for k levels, the lowest
// first, as a learner builds them: about j/(k+1) for j = 1..k, so that
// weight 1 stays free for hard rules above them, as in the paper's Tables 1
// and 2. (A Theory lists its levels the other way round, highest first.) Only the order of the weights
// matters, so they are rounded to the fewest decimals that keep them exact
// (0.25, 0.5, 0.75) or else distinct (0.3, 0.7; 0.05, 0.09, 0.14, …),
// which a person reads more easily than 0.9545454545454546.
func LevelWeights(k int) []float64 {
	exact := func(d int) []float64 {
		p := math.Pow10(d)
		ws := make([]float64, k)
		for j := range ws {
			x := float64(j+1) / float64(k+1) * p
			if math.Abs(x-math.Round(x)) > 1e-9 {
				return nil
			}
			ws[j] = math.Round(x) / p
		}
		return ws
	}
	for d := 1; d <= 3; d++ {
		if ws := exact(d); ws != nil {
			return ws
		}
	}
	for d := 1; ; d++ {
		p := math.Pow10(d)
		ws := make([]float64, k)
		ok := true
		for j := range ws {
			ws[j] = math.Round(float64(j+1)/float64(k+1)*p) / p
			if ws[j] <= 0 || ws[j] >= 1 || j > 0 && ws[j] <= ws[j-1] {
				ok = false
			}
		}
		if ok || d >= 15 {
			return ws
		}
	}
}
