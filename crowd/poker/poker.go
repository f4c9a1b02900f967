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
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/crowd"
	"github.com/strata-logic/strata/logic"
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
func ReadAnswers(r io.Reader, name string, opts Options) ([]crowd.Answer, Stats, logic.ErrorList, error) {
	ds, st, warns, err := ReadDecisions(r, name, opts)
	answers := make([]crowd.Answer, len(ds))
	for i, d := range ds {
		answers[i] = d.Answer()
	}
	return answers, st, warns, err
}

// ReadDecisions is ReadAnswers with the hand, session and line of every
// decision.
func ReadDecisions(r io.Reader, name string, opts Options) ([]Decision, Stats, logic.ErrorList, error) {
	hands, warns, err := Read(r, name)
	st := Stats{Skipped: len(warns)}
	if err != nil {
		return nil, st, warns, err
	}
	var answers []Decision
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
			answers = append(answers, d)
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

// DescriptorNames returns the poker vocabulary, sorted: every descriptor a
// situation can hold, whatever the hands (the names of Vocabulary, with S
// standing for each street). Every file built from poker hands has these
// attributes, in this order.
func DescriptorNames() []string {
	var out []string
	for _, v := range Vocabulary {
		for _, n := range strings.Split(v.Name, ", ") {
			if base, ok := strings.CutSuffix(n, "_S"); ok {
				for _, s := range streetSuffix {
					out = append(out, base+"_"+s)
				}
				continue
			}
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Sessions is a set of session numbers, as "100-118" or "30-35,100".
type Sessions []struct{ Lo, Hi int }

// ParseSessions reads a comma-separated list of session numbers and
// ranges LO-HI (inclusive).
func ParseSessions(s string) (Sessions, error) {
	var out Sessions
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a < 0 || a > b {
			return nil, fmt.Errorf("sessions %q: %q is not a session number or a range LO-HI with LO <= HI", s, part)
		}
		out = append(out, struct{ Lo, Hi int }{a, b})
	}
	return out, nil
}

// Contains reports whether session n is in the set.
func (ss Sessions) Contains(n int) bool {
	for _, r := range ss {
		if n >= r.Lo && n <= r.Hi {
			return true
		}
	}
	return false
}

func (ss Sessions) String() string {
	var parts []string
	for _, r := range ss {
		if r.Lo == r.Hi {
			parts = append(parts, strconv.Itoa(r.Lo))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r.Lo, r.Hi))
		}
	}
	return strings.Join(parts, ",")
}

var sessionRe = regexp.MustCompile(`(?i)\bsession (\d+)\b`)

// SessionOf returns the session number in a table name ("Pluribus Session
// 100").
func SessionOf(table string) (int, bool) {
	m := sessionRe.FindStringSubmatch(table)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}
