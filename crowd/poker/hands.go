package poker

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// Street is a betting round.
type Street int

const (
	Preflop Street = iota
	Flop
	Turn
	River
)

var streetNames = [...]string{"preflop", "flop", "turn", "river"}

func (s Street) String() string { return streetNames[s] }

// Kind is what a player did.
type Kind int

const (
	Fold Kind = iota
	Check
	Call
	Bet
	Raise
	Post // a blind or an ante: not a decision
)

// Action is one line of betting.
type Action struct {
	Street Street
	Player string
	Kind   Kind
	// Amount is what the player put in with this action (the call, the bet,
	// or the raise's increment over what they had put in on the street).
	Amount float64
	// Blind is true for the blinds, which count towards the player's stake
	// on the street; antes do not.
	Blind bool
	Line  int
}

// Hand is one hand history.
type Hand struct {
	ID      string // the hand number
	Line    int    // line of the header in the file
	Table   string // the table name ("Pluribus Session 100"), when given
	Button  string // the player on the button ("" when unknown)
	Small   string // who posted the small blind
	Big     string // who posted the big blind
	Players []string
	Hole    map[string][2]Card // hole cards known from "Dealt to" and "shows" lines
	Board   []Card             // the cards dealt, 0 to 5
	Actions []Action
}

var (
	headerRe = regexp.MustCompile(`^PokerStars (?:Zoom )?(?:Hand|Game) #(\d+)`)
	buttonRe = regexp.MustCompile(`Seat #(\d+) is the button`)
	seatRe   = regexp.MustCompile(`^Seat (\d+): (.+?) \((?:[^\d]*)([\d.,]+) in chips`)
	streetRe = regexp.MustCompile(`^\*\*\* (HOLE CARDS|FLOP|TURN|RIVER|SHOW ?DOWN|SUMMARY) \*\*\*(.*)$`)
	cardsRe  = regexp.MustCompile(`\[([^\]]*)\]`)
	tableRe  = regexp.MustCompile(`^Table '([^']*)'`)
)

// Read reads PokerStars hand histories (plain or gzip-compressed) and returns
// the well-formed hands in order. A malformed hand (an action by a player
// who is not seated, an unreadable amount or card, a card dealt twice, a
// check facing a bet, streets out of order, a hand cut off before its
// summary, …) is skipped with a warning naming its hand number and line;
// input holding no hand at all is an error. name is used in messages.
func Read(r io.Reader, name string) ([]*Hand, logic.ErrorList, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	var (
		hands []*Hand
		warns logic.ErrorList
		cur   *handParser
		seen  int
	)
	finish := func(eof bool) {
		if cur == nil {
			return
		}
		h, err := cur.finish(eof)
		if err != nil {
			warns = append(warns, logic.Errorf(logic.Position{File: name, Line: cur.errLine}, "skipped hand #%s: %w", cur.hand.ID, err))
		} else {
			hands = append(hands, h)
		}
		cur = nil
	}
	err := logic.LineFormat{}.Each(br, name, func(line int, text string) error {
		// Files joined into one keep their byte-order marks.
		text = strings.TrimRight(strings.TrimPrefix(text, logic.BOM), "\r")
		if m := headerRe.FindStringSubmatch(text); m != nil {
			finish(false)
			seen++
			cur = newHandParser(m[1], line)
			return nil
		}
		if cur != nil {
			cur.line(text, line)
		}
		return nil
	})
	if err != nil {
		return hands, warns, err
	}
	finish(true)
	if seen == 0 {
		return nil, warns, logic.Errorf(logic.Position{File: name}, "no PokerStars hand histories (no line starts with \"PokerStars Hand #\")")
	}
	return hands, warns, nil
}

// handParser builds one hand line by line, remembering the first error.
type handParser struct {
	hand    *Hand
	street  Street
	phase   int // 0 seats, 1 hole cards, 2 betting, 3 showdown, 4 summary
	seat    map[int]string
	button  int
	err     error
	errLine int
	names   []string // longest first, to match names that hold spaces
	dealt   map[Card]bool
	stake   map[string]float64 // put in on the current street
	high    float64            // highest stake on the current street
	folded  map[string]bool
}

func newHandParser(id string, line int) *handParser {
	return &handParser{
		hand:    &Hand{ID: id, Line: line, Hole: map[string][2]Card{}},
		seat:    map[int]string{},
		errLine: line,
		dealt:   map[Card]bool{},
		stake:   map[string]float64{},
		folded:  map[string]bool{},
	}
}

func (p *handParser) fail(line int, format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf(format, args...)
		p.errLine = line
	}
}

func (p *handParser) finish(eof bool) (*Hand, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.phase < 4 {
		where := "before the next hand"
		if eof {
			where = "at the end of the input"
		}
		return nil, fmt.Errorf("cut off %s, before its summary", where)
	}
	if len(p.hand.Players) < 2 {
		return nil, fmt.Errorf("fewer than two players seated")
	}
	if p.button > 0 {
		p.hand.Button = p.seat[p.button]
	}
	return p.hand, nil
}

func (p *handParser) line(text string, line int) {
	if p.err != nil || p.phase == 4 || strings.TrimSpace(text) == "" {
		return
	}
	if m := streetRe.FindStringSubmatch(text); m != nil {
		p.section(m[1], m[2], line)
		return
	}
	switch {
	case p.phase == 0 && strings.HasPrefix(text, "Table "):
		if m := tableRe.FindStringSubmatch(text); m != nil {
			p.hand.Table = m[1]
		}
		if m := buttonRe.FindStringSubmatch(text); m != nil {
			p.button, _ = strconv.Atoi(m[1])
		}
	case p.phase == 0 && strings.HasPrefix(text, "Seat "):
		m := seatRe.FindStringSubmatch(text)
		if m == nil {
			p.fail(line, "seat line %q: expected \"Seat N: NAME (STACK in chips)\"", text)
			return
		}
		n, _ := strconv.Atoi(m[1])
		if _, dup := p.seat[n]; dup || slices.Contains(p.hand.Players, m[2]) {
			p.fail(line, "seat %d or player %q seated twice", n, m[2])
			return
		}
		p.seat[n] = m[2]
		p.hand.Players = append(p.hand.Players, m[2])
		p.names = append(p.names, m[2])
		slices.SortFunc(p.names, func(a, b string) int { return len(b) - len(a) })
	case p.phase == 1 && strings.HasPrefix(text, "Dealt to "):
		p.dealtTo(strings.TrimPrefix(text, "Dealt to "), line)
	default:
		p.playerLine(text, line)
	}
}

// section handles a "*** NAME ***" line.
func (p *handParser) section(name, rest string, line int) {
	next := map[string]Street{"FLOP": Flop, "TURN": Turn, "RIVER": River}
	switch name {
	case "HOLE CARDS":
		if p.phase != 0 {
			p.fail(line, "a second hole-cards section")
		}
		p.phase = 1
	case "SHOW DOWN", "SHOWDOWN":
		p.phase = 3
	case "SUMMARY":
		p.phase = 4
	default:
		s := next[name]
		if p.phase < 1 || p.phase > 2 || s != p.street+1 {
			p.fail(line, "%s dealt after the %s", strings.ToLower(name), p.street)
			return
		}
		p.phase = 2
		p.street = s
		p.stake = map[string]float64{}
		p.high = 0
		groups := cardsRe.FindAllStringSubmatch(rest, -1)
		if len(groups) == 0 {
			p.fail(line, "%s without cards", strings.ToLower(name))
			return
		}
		cards, err := parseCards(groups[len(groups)-1][1])
		if err != nil {
			p.fail(line, "%v", err)
			return
		}
		want := map[Street]int{Flop: 3, Turn: 1, River: 1}[s]
		if len(cards) != want {
			p.fail(line, "%d new cards on the %s, want %d", len(cards), s, want)
			return
		}
		for _, c := range cards {
			p.deal(c, line)
		}
		p.hand.Board = append(p.hand.Board, cards...)
	}
}

func (p *handParser) deal(c Card, line int) {
	if p.dealt[c] {
		p.fail(line, "card %v dealt twice", c)
	}
	p.dealt[c] = true
}

func (p *handParser) dealtTo(rest string, line int) {
	i := strings.LastIndex(rest, " [")
	if i < 0 || !slices.Contains(p.hand.Players, rest[:i]) {
		p.fail(line, "hole cards for %q, who is not seated", rest)
		return
	}
	p.hole(rest[:i], rest[i+1:], line)
}

// hole records a player's hole cards from "[Ah Kd]".
func (p *handParser) hole(player, bracket string, line int) {
	m := cardsRe.FindStringSubmatch(bracket)
	if m == nil {
		p.fail(line, "hole cards of %s: expected [C1 C2]", player)
		return
	}
	cards, err := parseCards(m[1])
	if err != nil {
		p.fail(line, "hole cards of %s: %v", player, err)
		return
	}
	if len(cards) != 2 {
		p.fail(line, "hole cards of %s %q: expected two cards", player, m[1])
		return
	}
	if old, ok := p.hand.Hole[player]; ok {
		if old != [2]Card{cards[0], cards[1]} && old != [2]Card{cards[1], cards[0]} {
			p.fail(line, "%s shows other cards than dealt", player)
		}
		return
	}
	for _, c := range cards {
		p.deal(c, line)
	}
	p.hand.Hole[player] = [2]Card{cards[0], cards[1]}
}

var actionRe = regexp.MustCompile(`^(.+?): (folds|checks|calls|bets|raises|posts)\b`)

// playerLine handles "NAME: …" lines; lines of other shapes (chat,
// collections, uncalled bets, seats joining) say nothing about decisions
// and are ignored.
func (p *handParser) playerLine(text string, line int) {
	player := ""
	for _, n := range p.names {
		if strings.HasPrefix(text, n+": ") {
			player = n
			break
		}
	}
	if player == "" {
		if m := actionRe.FindStringSubmatch(text); m != nil {
			p.fail(line, "%s by %q, who is not seated", m[2], m[1])
		}
		return
	}
	rest := strings.TrimSuffix(text[len(player)+2:], " and is all-in")
	verb, args, _ := strings.Cut(rest, " ")
	switch verb {
	case "shows":
		p.hole(player, args, line)
		return
	case "folds", "checks", "calls", "bets", "raises", "posts":
	default:
		return
	}
	if p.folded[player] {
		p.fail(line, "%s %s after folding", player, verb)
		return
	}
	if verb == "posts" {
		p.post(player, args, line)
		return
	}
	if p.phase != 1 && p.phase != 2 {
		p.fail(line, "%s %s outside a betting round", player, verb)
		return
	}
	a := Action{Street: p.street, Player: player, Line: line}
	owed := p.high - p.stake[player]
	var err error
	switch verb {
	case "folds":
		a.Kind = Fold
		p.folded[player] = true
	case "checks":
		a.Kind = Check
		if owed > 0 {
			p.fail(line, "%s checks facing a bet of %v", player, owed)
			return
		}
	case "calls":
		a.Kind = Call
		if a.Amount, err = parseAmount(args); err == nil && owed <= 0 {
			err = fmt.Errorf("nothing to call")
		}
	case "bets":
		a.Kind = Bet
		if a.Amount, err = parseAmount(args); err == nil && p.high > 0 {
			err = fmt.Errorf("a bet facing a bet of %v (should be a raise)", p.high)
		}
	case "raises":
		a.Kind = Raise
		by, to, ok := strings.Cut(args, " to ")
		var total float64
		if _, err = parseAmount(by); err == nil && !ok {
			err = fmt.Errorf("expected \"raises N to M\"")
		}
		if err == nil {
			if total, err = parseAmount(to); err == nil && total <= p.high {
				err = fmt.Errorf("a raise to %v, not above the bet of %v", total, p.high)
			}
		}
		a.Amount = total - p.stake[player]
	}
	if err != nil {
		p.fail(line, "%s %s %q: %v", player, verb, args, err)
		return
	}
	p.stake[player] += a.Amount
	p.high = max(p.high, p.stake[player])
	p.hand.Actions = append(p.hand.Actions, a)
}

// post handles blinds and antes.
func (p *handParser) post(player, args string, line int) {
	fields := strings.Fields(args)
	if len(fields) == 0 {
		p.fail(line, "%s posts nothing", player)
		return
	}
	amt, err := parseAmount(fields[len(fields)-1])
	if err != nil {
		p.fail(line, "%s posts %q: %v", player, args, err)
		return
	}
	a := Action{Street: Preflop, Player: player, Kind: Post, Amount: amt, Line: line}
	switch {
	case strings.Contains(args, "ante"):
	case strings.HasPrefix(args, "small & big"):
		a.Blind = true
	case strings.HasPrefix(args, "small blind"):
		a.Blind = true
		p.hand.Small = player
	case strings.HasPrefix(args, "big blind"):
		a.Blind = true
		p.hand.Big = player
	default:
		a.Blind = true // a straddle or a dead blind
	}
	if a.Blind {
		p.stake[player] += amt
		p.high = max(p.high, p.stake[player])
	}
	p.hand.Actions = append(p.hand.Actions, a)
}

// parseAmount reads "230", "1,200", "$0.50" or "€2".
func parseAmount(s string) (float64, error) {
	s = strings.TrimSpace(s)
	s = strings.TrimLeft(s, "$€£")
	s = strings.ReplaceAll(s, ",", "")
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < 0 || x != x {
		return 0, fmt.Errorf("amount %q is not a number of chips", s)
	}
	return x, nil
}
