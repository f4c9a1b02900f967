package poker

import (
	"fmt"
	"strings"
)

// Card is a playing card: Rank 2 to 14 (ace high), Suit 0 to 3 (c, d, h, s).
type Card struct{ Rank, Suit uint8 }

const ranks, suits = "23456789TJQKA", "cdhs"

// ParseCard reads a card as hand histories write it: "Ah", "Td", "10d", "9c".
func ParseCard(s string) (Card, error) {
	if len(s) == 3 && s[:2] == "10" {
		s = "T" + s[2:]
	}
	if len(s) != 2 {
		return Card{}, fmt.Errorf("card %q: expected a rank and a suit, as in Ah or Td", s)
	}
	r := strings.IndexByte(ranks, upper(s[0]))
	u := strings.IndexByte(suits, lower(s[1]))
	if r < 0 || u < 0 {
		return Card{}, fmt.Errorf("card %q: expected a rank 2-9, T, J, Q, K, A and a suit c, d, h, s", s)
	}
	return Card{Rank: uint8(r + 2), Suit: uint8(u)}, nil
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

func (c Card) String() string { return string([]byte{ranks[c.Rank-2], suits[c.Suit]}) }

// parseCards reads space-separated cards.
func parseCards(s string) ([]Card, error) {
	var cs []Card
	for _, f := range strings.Fields(s) {
		c, err := ParseCard(f)
		if err != nil {
			return nil, err
		}
		cs = append(cs, c)
	}
	return cs, nil
}

// Category is the rank of a made poker hand, from high card to straight
// flush.
type Category int

const (
	HighCard Category = iota
	Pair
	TwoPairs
	ThreeOfAKind
	Straight
	Flush
	FullHouse
	FourOfAKind
	StraightFlush
)

// categoryNames are the descriptors "you have …" of each category.
var categoryNames = [...]string{"only_a_high_card", "a_pair", "two_pairs", "three_of_a_kind", "a_straight",
	"a_flush", "a_full_house", "four_of_a_kind", "a_straight_flush"}

func (c Category) String() string { return strings.ReplaceAll(categoryNames[c], "_", " ") }

// counts holds how many cards of each rank and suit a set of cards has, and
// a bit set of the ranks (bit r for rank r, bit 1 also for the ace).
type counts struct {
	rank     [15]int
	suit     [4]int
	rankBits uint16
}

func count(cards []Card) counts {
	var k counts
	for _, c := range cards {
		k.rank[c.Rank]++
		k.suit[c.Suit]++
		k.rankBits |= 1 << c.Rank
		if c.Rank == 14 {
			k.rankBits |= 1 << 1
		}
	}
	return k
}

// hasStraight reports whether five consecutive ranks are in bits.
func hasStraight(bits uint16) bool {
	for lo := 1; lo <= 10; lo++ {
		if bits>>lo&0x1f == 0x1f {
			return true
		}
	}
	return false
}

// Evaluate returns the category of the best five-card hand among cards
// (any number; fewer than five cards can make at most four of a kind).
func Evaluate(cards []Card) Category {
	k := count(cards)
	for s := range 4 {
		if k.suit[s] >= 5 {
			var bits uint16
			for _, c := range cards {
				if int(c.Suit) == s {
					bits |= 1 << c.Rank
					if c.Rank == 14 {
						bits |= 1 << 1
					}
				}
			}
			if hasStraight(bits) {
				return StraightFlush
			}
		}
	}
	var trips, pairs int
	quads := false
	for r := 2; r <= 14; r++ {
		switch {
		case k.rank[r] == 4:
			quads = true
		case k.rank[r] == 3:
			trips++
		case k.rank[r] == 2:
			pairs++
		}
	}
	flush := max(k.suit[0], k.suit[1], k.suit[2], k.suit[3]) >= 5
	switch {
	case quads:
		return FourOfAKind
	case trips >= 2 || trips == 1 && pairs >= 1:
		return FullHouse
	case flush:
		return Flush
	case hasStraight(k.rankBits):
		return Straight
	case trips == 1:
		return ThreeOfAKind
	case pairs >= 2:
		return TwoPairs
	case pairs == 1:
		return Pair
	}
	return HighCard
}

// straightOuts returns the ranks (2 to 14) whose addition to cards would
// complete a straight that cards do not already hold, as a bit set.
func straightOuts(cards []Card) uint16 {
	bits := count(cards).rankBits
	if hasStraight(bits) {
		return 0
	}
	var outs uint16
	for r := 2; r <= 14; r++ {
		b := bits | 1<<r
		if r == 14 {
			b |= 1 << 1
		}
		if bits&(1<<r) == 0 && hasStraight(b) {
			outs |= 1 << r
		}
	}
	return outs
}
