package poker

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func cards(t testing.TB, s string) []Card {
	t.Helper()
	cs, err := parseCards(s)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestParseCard(t *testing.T) {
	for _, s := range []string{"Ah", "Td", "10d", "2c", "ks"} {
		if _, err := ParseCard(s); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
	if c, _ := ParseCard("10d"); c.String() != "Td" {
		t.Errorf("10d reads as %v", c)
	}
	for _, s := range []string{"", "A", "1h", "Ax", "Ahh", "Zh"} {
		if _, err := ParseCard(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestEvaluateExamples(t *testing.T) {
	cases := []struct {
		cards string
		want  Category
	}{
		{"Ah Kd 7c 4s 2h", HighCard},
		{"Ah Ad 7c 4s 2h", Pair},
		{"Ah Ad 7c 7s 2h Kd Kc", TwoPairs},
		{"9h 9d 9c 4s 2h", ThreeOfAKind},
		{"Ah 2d 3c 4s 5h", Straight},
		{"Th Jd Qc Ks Ah", Straight},
		{"Qh Kd Ac 2s 3h", HighCard}, // no wrap-around straight
		{"2h 7h 9h Jh Kh", Flush},
		{"9h 9d 9c 4s 4h", FullHouse},
		{"9h 9d 9c 4s 4h 4d", FullHouse},
		{"9h 9d 9c 9s 2h", FourOfAKind},
		{"5h 6h 7h 8h 9h 9d 9c", StraightFlush},
		{"Ah 2h 3h 4h 5h", StraightFlush},
		{"Ah 2h 3h 4h 5d 6h", Flush}, // a straight and a flush, not a straight flush
		{"7h 7d", Pair},
	}
	for _, c := range cases {
		if got := Evaluate(cards(t, c.cards)); got != c.want {
			t.Errorf("%s: %v, want %v", c.cards, got, c.want)
		}
	}
}

// category5 classifies exactly five cards by the textbook definitions, an
// independent oracle for Evaluate.
func category5(h []Card) Category {
	r := make([]int, 0, 5)
	for _, c := range h {
		r = append(r, int(c.Rank))
	}
	slices.Sort(r)
	flush := h[0].Suit == h[1].Suit && h[1].Suit == h[2].Suit && h[2].Suit == h[3].Suit && h[3].Suit == h[4].Suit
	distinct := len(slices.Compact(slices.Clone(r))) == 5
	straight := distinct && (r[4]-r[0] == 4 || slices.Equal(r, []int{2, 3, 4, 5, 14}))
	groups := map[int]int{}
	for _, x := range r {
		groups[x]++
	}
	var sizes []int
	for _, n := range groups {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	switch {
	case straight && flush:
		return StraightFlush
	case sizes[0] == 4:
		return FourOfAKind
	case sizes[0] == 3 && sizes[1] == 2:
		return FullHouse
	case flush:
		return Flush
	case straight:
		return Straight
	case sizes[0] == 3:
		return ThreeOfAKind
	case sizes[0] == 2 && sizes[1] == 2:
		return TwoPairs
	case sizes[0] == 2:
		return Pair
	}
	return HighCard
}

// Evaluate on seven cards is the best category over all five-card subsets.
func TestEvaluateAgainstSubsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	deck := make([]Card, 0, 52)
	for r := uint8(2); r <= 14; r++ {
		for s := uint8(0); s < 4; s++ {
			deck = append(deck, Card{r, s})
		}
	}
	seen := map[Category]int{}
	for trial := 0; trial < 20000; trial++ {
		rng.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		// Bias towards strong hands now and then: draw from fewer ranks.
		hand := slices.Clone(deck[:7])
		if trial%3 == 0 {
			hand = hand[:0]
			for _, c := range deck {
				if c.Rank <= 6 || c.Suit == 0 {
					hand = append(hand, c)
				}
				if len(hand) == 7 {
					break
				}
			}
		}
		best := HighCard
		for a := 0; a < 7; a++ {
			for b := a + 1; b < 7; b++ {
				var five []Card
				for i, c := range hand {
					if i != a && i != b {
						five = append(five, c)
					}
				}
				best = max(best, category5(five))
			}
		}
		if got := Evaluate(hand); got != best {
			t.Fatalf("%v: Evaluate %v, best five-card hand %v", hand, got, best)
		}
		seen[best]++
	}
	if len(seen) != 9 {
		t.Fatalf("the trials did not reach every category: %v", seen)
	}
}

func TestStraightOuts(t *testing.T) {
	cases := []struct {
		cards string
		outs  []uint8
	}{
		{"5h 6d 7c 8s", []uint8{4, 9}}, // open-ended
		{"5h 6d 8s 9c", []uint8{7}},    // gutshot
		{"Ah 2d 3c 4s", []uint8{5}},    // wheel draw
		{"Jh Qd Kc As", []uint8{10}},   // broadway draw
		{"2h 3d 4c 5s 6h", nil},        // already a straight
		{"2h 7d Kc", nil},              // nothing
	}
	for _, c := range cases {
		var want uint16
		for _, r := range c.outs {
			want |= 1 << r
		}
		if got := straightOuts(cards(t, c.cards)); got != want {
			t.Errorf("%s: outs %b, want %b", c.cards, got, want)
		}
	}
}
