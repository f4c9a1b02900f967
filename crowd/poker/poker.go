// Package poker turns no-limit hold'em hand histories into the answers of
// the paper's poker study (§5.2): every fold, check, call, bet and raise of
// a player whose hole cards are known becomes a situation described from
// that player's view in the paper's vocabulary (the street just dealt, the
// made hand, draws, board texture, what the opponents did on each street)
// and the action fold, call (or check) or raise (or bet); the player is the
// annotator.
//
// It reads the PokerStars text format, which most poker tools export,
// plain or gzip-compressed.
package poker

import (
	"io"
	"slices"

	"github.com/strata-logic/strata/dataset"
)

// Options select the decisions to keep.
type Options struct {
	// Streets keeps only decisions on these streets (all when empty).
	Streets []Street
	// MaxHands stops after this many well-formed hands (all when 0).
	MaxHands int
}

// Stats counts what happened to the input.
type Stats struct {
	Hands        int // well-formed hands used
	Skipped      int // malformed hands skipped with a warning
	Decisions    int // decisions that became answers
	UnknownCards int // decisions of players whose hole cards are not shown
	OtherStreets int // decisions left out by Options.Streets
}

// ReadAnswers reads hand histories and returns one answer per decision.
// Malformed hands are skipped with a warning naming the hand number; see
// Read.
func ReadAnswers(r io.Reader, name string, opts Options) ([]dataset.Answer, Stats, []dataset.Warning, error) {
	hands, warns, err := Read(r, name)
	st := Stats{Skipped: len(warns)}
	if err != nil {
		return nil, st, warns, err
	}
	var answers []dataset.Answer
	for _, h := range hands {
		if opts.MaxHands > 0 && st.Hands == opts.MaxHands {
			break
		}
		st.Hands++
		ds, unknown := Decisions(h)
		st.UnknownCards += unknown
		for _, d := range ds {
			if len(opts.Streets) > 0 && !slices.Contains(opts.Streets, d.Street) {
				st.OtherStreets++
				continue
			}
			st.Decisions++
			answers = append(answers, d.Answer())
		}
	}
	return answers, st, warns, nil
}

// ParseStreet reads a street name: preflop, flop, turn or river.
func ParseStreet(s string) (Street, bool) {
	i := slices.Index(streetNames[:], s)
	return Street(i), i >= 0
}

// Vocabulary lists the descriptors and their meanings, for the README.
var Vocabulary = []struct{ Name, Meaning string }{
	{"no_cards_on_the_board_yet, the_flop_was_just_dealt, the_turn_was_just_dealt, the_river_was_just_dealt", "the street of the decision"},
	{"you_have_a_pocket_pair, you_have_a_pocket_pair_of_tens_or_better, you_have_suited_cards, you_have_connected_cards, you_have_an_ace, you_have_two_cards_ten_or_higher", "the hole cards (before the flop only)"},
	{"you_have_only_a_high_card, you_have_a_pair, you_have_two_pairs, you_have_three_of_a_kind, you_have_a_straight, you_have_a_flush, you_have_a_full_house, you_have_four_of_a_kind, you_have_a_straight_flush", "the best five-card hand of hole cards and board (after the flop)"},
	{"you_have_top_pair, you_have_an_overpair", "a pair with the highest board card; a pocket pair above every board card"},
	{"your_cards_do_not_improve_the_board", "the board alone makes a hand of the same category"},
	{"you_have_a_flush_draw, you_have_a_straight_draw", "one card short of a flush (four of a suit) or a straight, using a hole card (flop and turn)"},
	{"the_board_is_paired, there_are_two_pairs_on_the_board, there_are_three_of_a_kind_on_the_board", "pairs on the board"},
	{"there_are_three_cards_of_a_suit_on_the_board, there_are_four_cards_of_a_suit_on_the_board", "flush possibilities"},
	{"a_straight_is_possible_on_the_board", "three board ranks within five consecutive ranks"},
	{"there_are_no_straight_or_flush_possibilities_on_the_board", "neither of the above"},
	{"you_are_on_the_button, you_are_the_small_blind, you_are_the_big_blind", "position"},
	{"one_opponent_remains, several_opponents_remain", "opponents who have not folded"},
	{"you_face_a_bet, you_face_a_big_bet", "chips to put in to call; at least what the pot held before the bet (before the flop: only raises count)"},
	{"opponent_raised_S, opponent_re-raised_S, opponent_checked_S, opponent_called_S, opponent_check-raised_S, opponent_called_your_bet_S", "what an opponent did on street S (preflop, on_the_flop, on_the_turn, on_the_river) before the decision; raised includes bets, re-raised is a raise over an earlier bet or raise"},
	{"you_raised_S", "the player bet or raised on street S earlier"},
}
