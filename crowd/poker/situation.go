package poker

import (
	"slices"

	"github.com/strata-logic/strata/crowd"
)

// Actions are the choices of the paper's poker study, as atoms: fold, call
// (or check) and raise (or bet).
var Actions = []string{"fold", "call", "raise"}

// Decision is one choice of a player, with the situation described from
// that player's view.
type Decision struct {
	Hand      string // hand number
	Table     string // the hand's table name
	Line      int    // line of the action in the input
	Player    string
	Street    Street
	Kind      Kind     // what the history says: fold, check, call, bet or raise
	Action    string   // the answer: fold, call (check, call) or raise (bet, raise)
	ToCall    float64  // chips the player had to put in to call
	Pot       float64  // chips in the pot before the decision
	Situation []string // descriptors, sorted
}

// Answer returns the decision as an answer whose annotator is the player.
func (d Decision) Answer() crowd.Answer {
	return crowd.Answer{Situation: d.Situation, Annotator: d.Player, Action: d.Action}
}

var streetSuffix = [...]string{"preflop", "on_the_flop", "on_the_turn", "on_the_river"}

var dealtNames = [...]string{"no_cards_on_the_board_yet", "the_flop_was_just_dealt", "the_turn_was_just_dealt", "the_river_was_just_dealt"}

// Decisions replays a hand and returns every fold, check, call, bet and
// raise of a player whose hole cards are known, and how many decisions were
// left out because they were not.
func Decisions(h *Hand) (ds []Decision, unknown int) {
	r := newReplay(h)
	for i, a := range h.Actions {
		if a.Kind != Post {
			if hole, ok := h.Hole[a.Player]; ok {
				sit := r.describe(a.Player, hole, a.Street, h.Actions[:i])
				ds = append(ds, Decision{Hand: h.ID, Table: h.Table, Line: a.Line, Player: a.Player, Street: a.Street, Kind: a.Kind,
					Action: choice(a.Kind), ToCall: r.high - r.stake[a.Player], Pot: r.pot, Situation: sit})
			} else {
				unknown++
			}
		}
		r.apply(a)
	}
	return ds, unknown
}

func choice(k Kind) string {
	switch k {
	case Fold:
		return "fold"
	case Check, Call:
		return "call"
	}
	return "raise"
}

// replay tracks the chips of a hand as its actions are applied.
type replay struct {
	h      *Hand
	street Street
	stake  map[string]float64 // on the current street
	high   float64
	pot    float64
	folded map[string]bool
	// bigBlind is the big blind's stake, so that preflop only a raise counts
	// as a big bet.
	bigBlind float64
}

func newReplay(h *Hand) *replay {
	return &replay{h: h, stake: map[string]float64{}, folded: map[string]bool{}}
}

func (r *replay) apply(a Action) {
	if a.Street != r.street {
		r.street, r.stake, r.high = a.Street, map[string]float64{}, 0
	}
	r.pot += a.Amount
	if a.Kind != Post || a.Blind {
		r.stake[a.Player] += a.Amount
		r.high = max(r.high, r.stake[a.Player])
	}
	if a.Kind == Fold {
		r.folded[a.Player] = true
	}
	if a.Kind == Post && a.Blind && a.Player == r.h.Big {
		r.bigBlind = r.stake[a.Player]
	}
}

// describe returns the situation of player p, holding hole, about to act on
// street s after the actions before.
func (r *replay) describe(p string, hole [2]Card, s Street, before []Action) []string {
	if s != r.street {
		// The first action of a street: the stakes start again.
		r.street, r.stake, r.high = s, map[string]float64{}, 0
	}
	d := []string{dealtNames[s]}
	board := r.h.Board[:boardSize(s)]
	if s == Preflop {
		d = append(d, holeDescriptors(hole)...)
	} else {
		d = append(d, madeDescriptors(hole, board, s)...)
		d = append(d, boardDescriptors(board)...)
	}
	switch p {
	case r.h.Button:
		d = append(d, "you_are_on_the_button")
	case r.h.Small:
		d = append(d, "you_are_the_small_blind")
	case r.h.Big:
		d = append(d, "you_are_the_big_blind")
	}
	opponents := 0
	for _, q := range r.h.Players {
		if q != p && !r.folded[q] {
			opponents++
		}
	}
	if opponents == 1 {
		d = append(d, "one_opponent_remains")
	} else if opponents > 1 {
		d = append(d, "several_opponents_remain")
	}
	if owed := r.high - r.stake[p]; owed > 0 {
		d = append(d, "you_face_a_bet")
		// Facing at least a pot-sized bet: the bet is at least what was in the
		// pot before it. Preflop only a raise counts, not the big blind.
		if 2*owed >= r.pot && (s != Preflop || r.high > r.bigBlind) {
			d = append(d, "you_face_a_big_bet")
		}
	}
	d = append(d, historyDescriptors(p, before)...)
	slices.Sort(d)
	return slices.Compact(d)
}

func boardSize(s Street) int { return [...]int{0, 3, 4, 5}[s] }

// holeDescriptors describe the two hole cards before the flop.
func holeDescriptors(hole [2]Card) []string {
	a, b := hole[0], hole[1]
	var d []string
	if a.Rank == b.Rank {
		d = append(d, "you_have_a_pocket_pair")
		if a.Rank >= 10 {
			d = append(d, "you_have_a_pocket_pair_of_tens_or_better")
		}
	}
	if a.Suit == b.Suit {
		d = append(d, "you_have_suited_cards")
	}
	lo, hi := min(a.Rank, b.Rank), max(a.Rank, b.Rank)
	if hi-lo == 1 || lo == 2 && hi == 14 {
		d = append(d, "you_have_connected_cards")
	}
	if a.Rank == 14 || b.Rank == 14 {
		d = append(d, "you_have_an_ace")
	}
	if a.Rank >= 10 && b.Rank >= 10 {
		d = append(d, "you_have_two_cards_ten_or_higher")
	}
	return d
}

// madeDescriptors describe the hand the player makes with the board, and
// the draws on the flop and turn.
func madeDescriptors(hole [2]Card, board []Card, s Street) []string {
	all := append([]Card{hole[0], hole[1]}, board...)
	cat := Evaluate(all)
	d := []string{"you_have_" + categoryNames[cat]}
	if cat > HighCard && cat == Evaluate(board) {
		d = append(d, "your_cards_do_not_improve_the_board")
	}
	top := uint8(0)
	for _, c := range board {
		top = max(top, c.Rank)
	}
	if cat == Pair {
		switch {
		case hole[0].Rank == hole[1].Rank && hole[0].Rank > top:
			d = append(d, "you_have_an_overpair")
		case hole[0].Rank == top || hole[1].Rank == top:
			d = append(d, "you_have_top_pair")
		}
	}
	if s == River {
		return d
	}
	all5 := count(all)
	brd := count(board)
	for u := range 4 {
		if all5.suit[u] == 4 && brd.suit[u] < 4 && cat < Flush {
			d = append(d, "you_have_a_flush_draw")
		}
	}
	if cat < Straight && straightOuts(all)&^straightOuts(board) != 0 {
		d = append(d, "you_have_a_straight_draw")
	}
	return d
}

// boardDescriptors describe the texture of the board.
func boardDescriptors(board []Card) []string {
	k := count(board)
	var d []string
	pairs, trips := 0, false
	for r := 2; r <= 14; r++ {
		if k.rank[r] >= 2 {
			pairs++
		}
		if k.rank[r] >= 3 {
			trips = true
		}
	}
	suited := max(k.suit[0], k.suit[1], k.suit[2], k.suit[3])
	straight := false
	for lo := 1; lo <= 10; lo++ {
		if n := popcount(k.rankBits >> lo & 0x1f); n >= 3 {
			straight = true
		}
	}
	for _, x := range []struct {
		ok   bool
		name string
	}{
		{pairs >= 1, "the_board_is_paired"},
		{pairs >= 2, "there_are_two_pairs_on_the_board"},
		{trips, "there_are_three_of_a_kind_on_the_board"},
		{suited >= 3, "there_are_three_cards_of_a_suit_on_the_board"},
		{suited >= 4, "there_are_four_cards_of_a_suit_on_the_board"},
		{straight, "a_straight_is_possible_on_the_board"},
		{!straight && suited < 3, "there_are_no_straight_or_flush_possibilities_on_the_board"},
	} {
		if x.ok {
			d = append(d, x.name)
		}
	}
	return d
}

func popcount(x uint16) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// historyDescriptors describe what the opponents (and the player) did so
// far in the hand, street by street.
func historyDescriptors(p string, before []Action) []string {
	var d []string
	type streetState struct {
		aggressor string          // last to bet or raise ("" for none)
		checked   map[string]bool // who checked
	}
	var st streetState
	street := Street(-1)
	for _, a := range before {
		if a.Street != street {
			street, st = a.Street, streetState{checked: map[string]bool{}}
		}
		suffix := streetSuffix[a.Street]
		if a.Player == p {
			if a.Kind == Bet || a.Kind == Raise {
				d = append(d, "you_raised_"+suffix)
			}
		} else {
			switch a.Kind {
			case Check:
				d = append(d, "opponent_checked_"+suffix)
			case Call:
				d = append(d, "opponent_called_"+suffix)
				if st.aggressor == p {
					d = append(d, "opponent_called_your_bet_"+suffix)
				}
			case Bet, Raise:
				d = append(d, "opponent_raised_"+suffix)
				if st.aggressor != "" {
					d = append(d, "opponent_re-raised_"+suffix)
				}
				if st.checked[a.Player] {
					d = append(d, "opponent_check-raised_"+suffix)
				}
			}
		}
		switch a.Kind {
		case Bet, Raise:
			st.aggressor = a.Player
		case Check:
			st.checked[a.Player] = true
		}
	}
	return d
}
