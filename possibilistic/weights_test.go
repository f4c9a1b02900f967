package possibilistic

import (
	"slices"
	"testing"
)

func TestLevelWeights(t *testing.T) {
	for k := 0; k <= 200; k++ {
		ws := LevelWeights(k)
		if len(ws) != k {
			t.Fatalf("k=%d: %d weights", k, len(ws))
		}
		for j, w := range ws {
			if w <= 0 || w >= 1 || j > 0 && w <= ws[j-1] {
				t.Fatalf("k=%d: weights %v not increasing in ]0,1[", k, ws)
			}
		}
	}
	for k, want := range map[int][]float64{
		1: {0.5},
		2: {0.3, 0.7},
		3: {0.25, 0.5, 0.75},
		9: {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9},
	} {
		if got := LevelWeights(k); !slices.Equal(got, want) {
			t.Errorf("LevelWeights(%d) = %v, want %v", k, got, want)
		}
	}
}
