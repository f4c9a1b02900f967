package poker

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// paperHand leads to the paper's example situation (Table 1): on the river,
// Alice has three of a kind, there are three hearts on the board and her
// opponent raised (bet) on the river.
const paperHand = `PokerStars Hand #%d: Hold'em No Limit (50/100) - 2019/07/12 03:46:40 ET
Table 'Test' 6-max (Play Money) Seat #1 is the button
Seat 1: Alice (10000 in chips)
Seat 2: Bob (10000 in chips)
Seat 3: Carol Smith (10000 in chips)
Bob: posts small blind 50
Carol Smith: posts big blind 100
*** HOLE CARDS ***
Dealt to Alice [9s 9d]
Dealt to Bob [Ah Kh]
Dealt to Carol Smith [2c 7d]
Alice: raises 200 to 300
Bob: raises 700 to 1000
Carol Smith: folds
Alice: calls 700
*** FLOP *** [9h 4h 2s]
Bob: bets 1000
Alice: calls 1000
*** TURN *** [9h 4h 2s] [Jc]
Bob: checks
Alice: checks
*** RIVER *** [9h 4h 2s Jc] [5h]
Bob: bets 2000
Alice: raises 3000 to 5000 and is all-in
Bob: calls 3000
*** SHOW DOWN ***
Bob: shows [Ah Kh] (a flush, Ace high)
Alice: shows [9s 9d] (three of a kind, Nines)
Bob collected 14100 from pot
*** SUMMARY ***
Total pot 14100 | Rake 0
Board [9h 4h 2s Jc 5h]

`

func hand(n int) string { return fmt.Sprintf(paperHand, n) }

func TestPaperSituation(t *testing.T) {
	hands, warns, err := Read(strings.NewReader(hand(7)), "h.txt")
	if err != nil || len(warns) != 0 || len(hands) != 1 {
		t.Fatalf("%v %v %d", err, warns, len(hands))
	}
	h := hands[0]
	if h.Button != "Alice" || h.Small != "Bob" || h.Big != "Carol Smith" || len(h.Board) != 5 {
		t.Fatalf("hand %+v", h)
	}
	ds, unknown := Decisions(h)
	if unknown != 0 || len(ds) != 11 {
		t.Fatalf("%d decisions, %d unknown; want 11, 0", len(ds), unknown)
	}
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s %s %s", d.Player, d.Street, d.Action))
	}
	want := []string{"Alice preflop raise", "Bob preflop raise", "Carol Smith preflop fold", "Alice preflop call",
		"Bob flop raise", "Alice flop call", "Bob turn call", "Alice turn call", "Bob river raise", "Alice river raise", "Bob river call"}
	if !slices.Equal(got, want) {
		t.Fatalf("decisions %v\nwant %v", got, want)
	}
	expect := func(i int, want ...string) {
		t.Helper()
		if !slices.Equal(ds[i].Situation, want) {
			t.Errorf("decision %d (%s):\n got %v\nwant %v", i, got[i], ds[i].Situation, want)
		}
	}
	expect(9, "a_straight_is_possible_on_the_board", "one_opponent_remains",
		"opponent_checked_on_the_turn", "opponent_raised_on_the_flop", "opponent_raised_on_the_river",
		"opponent_raised_preflop", "opponent_re-raised_preflop", "the_river_was_just_dealt",
		"there_are_three_cards_of_a_suit_on_the_board", "you_are_on_the_button", "you_face_a_bet",
		"you_have_three_of_a_kind", "you_raised_preflop")
	expect(1, "no_cards_on_the_board_yet", "opponent_raised_preflop", "several_opponents_remain",
		"you_are_the_small_blind", "you_face_a_bet", "you_face_a_big_bet", "you_have_an_ace",
		"you_have_connected_cards", "you_have_suited_cards", "you_have_two_cards_ten_or_higher")
	expect(2, "no_cards_on_the_board_yet", "opponent_raised_preflop", "opponent_re-raised_preflop",
		"several_opponents_remain", "you_are_the_big_blind", "you_face_a_bet", "you_face_a_big_bet")
	expect(4, "one_opponent_remains", "opponent_called_preflop", "opponent_called_your_bet_preflop",
		"opponent_raised_preflop", "the_flop_was_just_dealt", "there_are_no_straight_or_flush_possibilities_on_the_board",
		"you_are_the_small_blind", "you_have_a_flush_draw", "you_have_only_a_high_card", "you_raised_preflop")
	if ds[9].ToCall != 2000 || ds[9].Pot != 6100 {
		t.Errorf("river decision: to call %v, pot %v; want 2000, 6100", ds[9].ToCall, ds[9].Pot)
	}
}

// Each broken hand is skipped with a warning that names its number and
// the line at fault; the good hands around it are kept.
func TestBrokenHands(t *testing.T) {
	breaks := []struct {
		old, new, want string
		line           int
	}{
		{"Carol Smith: folds", "Dave: folds", `skipped hand #2: folds by "Dave", who is not seated`, 14},
		{"Dealt to Alice [9s 9d]", "Dealt to Alice [9s 9x]", `skipped hand #3: hole cards of Alice: card "9x": expected a rank`, 9},
		{"[9h 4h 2s Jc] [5h]", "[9h 4h 2s Jc] [9s]", `skipped hand #4: card 9s dealt twice`, 22},
		{"Bob: checks", "Bob: checks\nAlice: bets 100\nBob: checks", `skipped hand #5: Bob checks facing a bet of 100`, 22},
		{"*** SUMMARY ***", "", `skipped hand #6: cut off before the next hand, before its summary`, 1},
		{"raises 200 to 300", "raises lots to 300", `skipped hand #7: Alice raises "lots to 300": amount "lots" is not a number of chips`, 12},
		{"*** FLOP *** [9h 4h 2s]", "*** TURN *** [9h 4h 2s]", `skipped hand #8: turn dealt after the preflop`, 16},
		{"raises 700 to 1000", "raises 100 to 200", `skipped hand #9: Bob raises "100 to 200": a raise to 200, not above the bet of 300`, 13},
		{"Alice: calls 700", "Alice: calls 700\nCarol Smith: calls 900", `skipped hand #10: Carol Smith calls after folding`, 16},
		{"Seat 2: Bob (10000 in chips)", "Seat 2: Bob", `skipped hand #11: seat line "Seat 2: Bob": expected`, 4},
		{"*** FLOP *** [9h 4h 2s]", "*** FLOP *** [9h 4h]", `skipped hand #12: 2 new cards on the flop, want 3`, 16},
	}
	var src strings.Builder
	offset := 0
	lineOf := map[int]int{} // hand number to its first line
	add := func(n int, text string) {
		lineOf[n] = offset + 1
		src.WriteString(text)
		offset += strings.Count(text, "\n")
	}
	add(1, hand(1))
	for i, b := range breaks {
		h := hand(i + 2)
		if !strings.Contains(h, b.old) {
			t.Fatalf("break %d: %q not in the hand", i, b.old)
		}
		add(i+2, strings.Replace(h, b.old, b.new, 1))
	}
	n := len(breaks) + 2
	add(n, hand(n))
	add(n+1, strings.Split(hand(n+1), "*** SUMMARY ***")[0]) // cut off by the end of the input

	hands, warns, err := Read(strings.NewReader(src.String()), "broken.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(hands) != 2 || hands[0].ID != "1" || hands[1].ID != fmt.Sprint(n) {
		t.Fatalf("kept %d hands, want hands 1 and %d", len(hands), n)
	}
	if len(warns) != len(breaks)+1 {
		t.Fatalf("%d warnings, want %d: %v", len(warns), len(breaks)+1, warns)
	}
	for i, b := range breaks {
		w := warns[i]
		// A hand cut off is reported at its header; the others at the line at fault.
		wantLine := lineOf[i+2] + b.line - 1
		if w.Pos.File != "broken.txt" || w.Pos.Line != wantLine || !strings.Contains(w.Err.Error(), b.want) {
			t.Errorf("break %d: warning %q at line %d, want %q at line %d", i, w.Err.Error(), w.Pos.Line, b.want, wantLine)
		}
	}
	if last := warns[len(warns)-1].Err.Error(); !strings.Contains(last, fmt.Sprintf("hand #%d: cut off at the end of the input", n+1)) {
		t.Errorf("last warning %q", last)
	}
	if _, _, err := Read(strings.NewReader("hello\nworld\n"), "x.txt"); err == nil || !strings.Contains(err.Error(), "x.txt: no PokerStars hand histories") {
		t.Fatalf("not a hand history: %v", err)
	}
}

func TestGzipAndFilters(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := 1; i <= 3; i++ {
		zw.Write([]byte(hand(i)))
	}
	zw.Close()
	answers, st, warns, err := ReadAnswers(&buf, "h.txt.gz", Options{MaxHands: 2, Streets: []Street{Turn, River}})
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	if st.Hands != 2 || st.Decisions != 10 || st.OtherStreets != 12 || len(answers) != 10 {
		t.Fatalf("stats %+v, %d answers; want 2 hands, 10 decisions on the turn and river, 12 others", st, len(answers))
	}
	for _, a := range answers {
		if !slices.Contains(Actions, a.Action) || a.Annotator == "" {
			t.Fatalf("answer %+v", a)
		}
	}
}

func FuzzRead(f *testing.F) {
	vocab := DescriptorNames()
	f.Add(hand(1))
	f.Add(strings.Replace(hand(2), "*** SUMMARY ***", "", 1) + hand(3))
	f.Add(strings.Replace(hand(4), "'Test'", "'Pluribus Session 100'", 1))
	f.Fuzz(func(t *testing.T, src string) {
		hands, warns, err := Read(strings.NewReader(src), "fuzz")
		for _, w := range warns {
			if !strings.Contains(w.Err.Error(), "hand #") {
				t.Fatalf("warning without a hand number: %q", w.Err.Error())
			}
		}
		if err != nil {
			return
		}
		for _, h := range hands {
			ds, _ := Decisions(h)
			for _, d := range ds {
				if d.ToCall < 0 || !slices.Contains(Actions, d.Action) || d.Table != h.Table {
					t.Fatalf("decision %+v", d)
				}
				for _, x := range d.Situation {
					if _, ok := slices.BinarySearch(vocab, x); !ok {
						t.Fatalf("descriptor %s is not in DescriptorNames", x)
					}
				}
			}
		}
	})
}

func TestSessions(t *testing.T) {
	ss, err := ParseSessions("30-35, 100")
	if err != nil || ss.String() != "30-35,100" {
		t.Fatalf("%v %v", ss, err)
	}
	for n, want := range map[int]bool{29: false, 30: true, 35: true, 36: false, 100: true, 101: false} {
		if ss.Contains(n) != want {
			t.Errorf("session %d: %v", n, !want)
		}
	}
	for _, bad := range []string{"", "x", "5-3", "1-", "-1", "1,,2"} {
		if _, err := ParseSessions(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for table, want := range map[string]int{"Pluribus Session 100": 100, "session 7 table 2": 7, "Sessions 5": -1, "Table": -1} {
		n, ok := SessionOf(table)
		if (want < 0 && ok) || (want >= 0 && (!ok || n != want)) {
			t.Errorf("%q: %d %v", table, n, ok)
		}
	}
	hands, _, err := Read(strings.NewReader(strings.Replace(hand(1), "'Test'", "'Pluribus Session 101'", 1)), "h.txt")
	if err != nil || len(hands) != 1 || hands[0].Table != "Pluribus Session 101" {
		t.Fatalf("%v %+v", err, hands)
	}
	ds, _ := Decisions(hands[0])
	if n, ok := SessionOf(ds[0].Table); !ok || n != 101 {
		t.Fatalf("decision table %q", ds[0].Table)
	}
}

// The vocabulary is sorted and distinct, and has every street's history.
func TestDescriptorNames(t *testing.T) {
	names := DescriptorNames()
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Fatalf("not sorted and distinct: %v", names)
	}
	for _, want := range []string{"opponent_called_your_bet_on_the_river", "you_raised_preflop", "you_have_a_straight_flush",
		"no_cards_on_the_board_yet", "there_are_no_straight_or_flush_possibilities_on_the_board"} {
		if _, ok := slices.BinarySearch(names, want); !ok {
			t.Errorf("%s missing", want)
		}
	}
	for _, n := range names {
		if strings.HasSuffix(n, "_S") || strings.Contains(n, " ") {
			t.Errorf("bad name %q", n)
		}
	}
}
