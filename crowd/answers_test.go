package crowd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/logic"
)

const answerCSV = `worker,down,ydstogo,yrdline100,raining,call
ann,4,10,30,no,field goal
ann,4,1,80,yes,punt
bob,1,10,80,no,pass
bob,2,"7",45,no,"don't know"
bob,3,3,45
carl,3,5,12,yes,Run
carl,4,12,"6"x,no,punt
,4,2,40,no,punt
dan,2,x,40,no,run
dan,2,8,40,no,
eve,1,10,75,no,pass
`

func TestReadAnswers(t *testing.T) {
	f := AnswerFormat{
		Annotator: "worker",
		Answer:    "call",
		Intervals: []Interval{
			{Name: "distance_short", Column: "ydstogo", Min: math.Inf(-1), Max: 3},
			{Name: "distance_long", Column: "ydstogo", Min: 8, Max: math.Inf(1)},
			{Name: "field_goal_range", Column: "yrdline100", Min: math.Inf(-1), Max: 35},
		},
	}
	tab, warns, err := readAnswers(strings.NewReader(answerCSV), "calls.csv", f)
	if err != nil {
		t.Fatal(err)
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.Error())
	}
	want := []string{
		`calls.csv:6: skipped row: 4 fields, the header has 6`,
		`calls.csv:8:13: skipped row: extraneous or missing " in quoted-field`,
		`calls.csv:9:1: skipped row: empty annotator (column "worker")`,
		`calls.csv:10:3: skipped row: "x" in column "ydstogo" is not a number`,
		`calls.csv:11:6: skipped row: empty answer (column "call")`,
	}
	if !slices.Equal(ws, want) {
		t.Fatalf("warnings\n%s\nwant\n%s", strings.Join(ws, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Equal(tab.Actions, []string{"field_goal", "pass", "punt", "run"}) {
		t.Fatalf("actions %v", tab.Actions)
	}
	got := ""
	for _, a := range tab.Answers {
		got += fmt.Sprintf("%s %s: %s\n", a.Annotator, a.Action, strings.Join(a.Situation, " "))
	}
	wantAns := `ann field_goal: distance_long down_4 field_goal_range
ann punt: distance_short down_4 raining
bob pass: distance_long down_1
bob : down_2
carl run: down_3 field_goal_range raining
eve pass: distance_long down_1
`
	if got != wantAns {
		t.Fatalf("answers\n%s\nwant\n%s", got, wantAns)
	}
	if err := tab.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestReadAnswersErrors(t *testing.T) {
	f := AnswerFormat{Annotator: "worker", Answer: "call"}
	cases := []struct{ src, want string }{
		{"", "t.csv: empty file"},
		{"who,call\nann,punt\n", `t.csv:1: header: no annotator column "worker"`},
		{"\nworker,call,x,x\n", `t.csv:2: header: column "x" appears twice`},
		{"worker,call\nann,punt\n", "t.csv:1: header: no situation columns"},
		{"worker,call,\"down\n", `t.csv:1:19: header: extraneous or missing " in quoted-field`},
		{"worker,call,down\n,punt,1\n", "read t.csv: no usable answers"},
	}
	for _, c := range cases {
		_, _, err := readAnswers(strings.NewReader(c.src), "t.csv", f)
		var pe *logic.ParseError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || errors.As(err, &pe) != strings.HasPrefix(c.want, "t.csv") {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	// Given actions reject other answers, row by row.
	f.Actions = []string{"Punt", "pass"}
	_, warns, err := readAnswers(strings.NewReader("worker,call,down\na,punt,1\nb,kneel,2\n"), "t.csv", f)
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Error(), `t.csv:3:2: skipped row: answer "kneel" is not one of the actions punt, pass`) {
		t.Fatalf("%v %v", warns, err)
	}
}

func TestAutomaticDescriptors(t *testing.T) {
	var b strings.Builder
	b.WriteString("annotator,answer,score,flag,weather\n")
	for i := -6; i <= 11; i++ {
		fmt.Fprintf(&b, "a%d,go,%d,%d,%s\n", i%3, i, (i+10)%2, []string{"rain", "sun"}[(i+10)%2])
	}
	b.WriteString("z,stay,NA,1,sun\n")
	tab, warns, err := readAnswers(strings.NewReader(b.String()), "t.csv", AnswerFormat{Annotator: "annotator", Answer: "answer"})
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	names := Descriptors(tab.Answers)
	want := []string{"flag", "score_1_to_6", "score_7_or_more", "score_up_to_0", "weather_rain", "weather_sun"}
	if !slices.Equal(names, want) {
		t.Fatalf("descriptors %v, want %v", names, want)
	}
	last := tab.Answers[len(tab.Answers)-1]
	if !slices.Equal(last.Situation, []string{"flag", "weather_sun"}) {
		t.Fatalf("missing value described: %v", last.Situation)
	}
}

// Every value falls in the bin whose name covers it, and the bins are about
// equally full.
func TestQuantileBinsProperty(t *testing.T) {
	rng := NewRand(7)
	for trial := 0; trial < 200; trial++ {
		n := 1 + rng.IntN(60)
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(rng.IntN(25) - 10)
		}
		k := 1 + rng.IntN(5)
		b := quantileBins("x", vals, k)
		if len(b.names) > k || len(b.names) != len(b.cuts)+1 {
			t.Fatalf("%v into %d bins: %v %v", vals, k, b.cuts, b.names)
		}
		for _, x := range vals {
			name := b.name(x)
			lo, hi := binRange(t, name)
			if x < lo || x > hi {
				t.Fatalf("%v in bin %s", x, name)
			}
			if !IsAtomName(name) {
				t.Fatalf("bin name %q is not an atom", name)
			}
		}
		if len(slices.Compact(slices.Sorted(slices.Values(b.names)))) != len(b.names) {
			t.Fatalf("duplicate bin names %v", b.names)
		}
	}
}

// binRange reads back the range a bin name promises.
func binRange(t *testing.T, name string) (float64, float64) {
	num := func(s string) float64 {
		s = strings.Replace(s, "minus_", "-", 1)
		var x float64
		if _, err := fmt.Sscan(s, &x); err != nil {
			t.Fatalf("bin %q: %v", name, err)
		}
		return x
	}
	s := strings.TrimPrefix(name, "x_")
	switch {
	case strings.HasPrefix(s, "up_to_"):
		return math.Inf(-1), num(strings.TrimPrefix(s, "up_to_"))
	case strings.HasSuffix(s, "_or_more"):
		return num(strings.TrimSuffix(s, "_or_more")), math.Inf(1)
	case strings.Contains(s, "_to_"):
		lo, hi, _ := strings.Cut(s, "_to_")
		return num(lo), num(hi)
	}
	return num(s), num(s)
}

func TestParseInterval(t *testing.T) {
	ok := []struct {
		src  string
		want Interval
	}{
		{"field_goal_range=yrdline100:..35", Interval{"field_goal_range", "yrdline100", math.Inf(-1), 35}},
		{"distance_long = ydstogo : 8..", Interval{"distance_long", "ydstogo", 8, math.Inf(1)}},
		{"trailing_by_1_to_8=ScoreDiff:-8..-1", Interval{"trailing_by_1_to_8", "ScoreDiff", -8, -1}},
		{"down_4=down:4", Interval{"down_4", "down", 4, 4}},
	}
	for _, c := range ok {
		iv, err := ParseInterval(c.src)
		if err != nil || iv != c.want {
			t.Errorf("%q: %+v %v", c.src, iv, err)
		}
	}
	for _, bad := range []string{"x", "x=col", "x=:1..2", "4=col:1", "x=col:a..2", "x=col:3..2", "x y=col:1", "x=col:NaN"} {
		if _, err := ParseInterval(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAtomName(t *testing.T) {
	cases := map[string]string{"Field Goal": "field_goal", "QB Kneel": "qb_kneel", "-8": "minus_8", "2.5": "2_5", "-2.5": "minus_2_5",
		"4": "v_4", "true": "v_true", "check-raised": "check-raised", "a->b": "a-_b", " don't know ": "don_t_know"}
	for in, want := range cases {
		if got := AtomName(in); got != want {
			t.Errorf("AtomName(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzAtomName(f *testing.F) {
	f.Add("Field Goal")
	f.Add("-->")
	f.Fuzz(func(t *testing.T, s string) {
		if n := AtomName(s); !IsAtomName(n) {
			t.Fatalf("AtomName(%q) = %q, not an atom", s, n)
		}
	})
}

func FuzzParseInterval(f *testing.F) {
	f.Add("field_goal_range=yrdline100:..35")
	f.Add("down_4=down:4")
	f.Fuzz(func(t *testing.T, s string) {
		iv, err := ParseInterval(s)
		if err == nil && (!IsAtomName(iv.Name) || iv.Min > iv.Max) {
			t.Fatalf("%q gave %+v", s, iv)
		}
	})
}

// FuzzReadAnswers checks that no input makes the reader panic, and that every
// answer it returns is valid.
func FuzzReadAnswers(f *testing.F) {
	f.Add(answerCSV)
	f.Add("worker,call,x\na,\"b\n")
	// Two column values that would become one atom.
	f.Add("worker,a b,a,call\nx,c,b c,run\n")
	f.Add("\xef\xbb\xbfworker,call\nann,fold\n")
	f.Fuzz(func(t *testing.T, src string) {
		tab, warns, err := readAnswers(strings.NewReader(src), "f.csv", AnswerFormat{Annotator: "worker", Answer: "call", MaxLevels: 2, Bins: 2})
		for _, w := range warns {
			if w.Pos.File != "f.csv" || w.Pos.Line < 1 {
				t.Fatalf("warning without a position: %+v", w)
			}
		}
		if err != nil {
			return
		}
		checkVocabulary(t, tab, src)
	})
}

// checkVocabulary checks that every descriptor of every answer is an atom
// of the table's vocabulary.
func checkVocabulary(t *testing.T, tab *AnswerTable, src string) {
	t.Helper()
	if !slices.IsSorted(tab.Descriptors) {
		t.Fatalf("vocabulary %q not sorted", tab.Descriptors)
	}
	for _, a := range tab.Answers {
		for _, d := range a.Situation {
			if _, ok := slices.BinarySearch(tab.Descriptors, d); !ok || !IsAtomName(d) {
				t.Fatalf("descriptor %q from %q is not an atom of the vocabulary %q", d, src, tab.Descriptors)
			}
		}
	}
}

// FuzzReadAnswerSources reads a training and a test table: the split must
// hold every answer once, on the side of its source.
func FuzzReadAnswerSources(f *testing.F) {
	f.Add(answerCSV, answerCSV)
	f.Add(splitTrainCSV, splitTestCSV)
	f.Add("who,a b,a,call\nx,c,b c,run\n", "who,a b,a,call\ny,d,e,pass\n")
	f.Add("who,flag,call\nx,1,run\n", "who,flag,call\ny,maybe,run\n")
	f.Fuzz(func(t *testing.T, train, test string) {
		tab, split, warns, err := ReadAnswerSources([]AnswerSource{{R: strings.NewReader(train), Name: "train.csv"},
			{R: strings.NewReader(test), Name: "test.csv", Test: true}},
			AnswerFormat{Annotator: "who", Answer: "call", MaxLevels: 2, Bins: 2})
		for _, w := range warns {
			if (w.Pos.File != "train.csv" && w.Pos.File != "test.csv") || w.Pos.Line < 1 {
				t.Fatalf("warning without a position: %+v", w)
			}
		}
		if err != nil {
			return
		}
		checkVocabulary(t, tab, train+"\x00"+test)
		if len(split.Train)+len(split.Test) != len(tab.Answers) {
			t.Fatalf("%d + %d answers in the split, %d in the table", len(split.Train), len(split.Test), len(tab.Answers))
		}
	})
}

const splitTrainCSV = `who,yards,flag,kind,call
a,1,yes,x,run
a,2,no,y,run
b,3,yes,x,pass
b,4,no,x,pass
c,5,yes,y,run
c,6,no,y,pass
`

// The test table has values the training table has not: a value beyond
// the bins, a new category, and a value that is not Boolean.
const splitTestCSV = `who,yards,flag,kind,call
a,100,yes,z,run
d,2,maybe,x,pass
d,3,no,x,pass
`

func TestReadAnswerSources(t *testing.T) {
	format := AnswerFormat{Annotator: "who", Answer: "call", MaxLevels: 3, Bins: 2}
	tab, split, warns, err := ReadAnswerSources([]AnswerSource{{R: strings.NewReader(splitTrainCSV), Name: "train.csv"},
		{R: strings.NewReader(splitTestCSV), Name: "test.csv", Test: true}}, format)
	if err != nil {
		t.Fatal(err)
	}
	// The bins are chosen on the training values (1..6), so 100 falls into
	// the last one; the test table's new category is in the vocabulary.
	want := []string{"flag", "kind_x", "kind_y", "kind_z", "yards_5_or_more", "yards_up_to_4"}
	if !slices.Equal(tab.Descriptors, want) {
		t.Fatalf("vocabulary %v, want %v", tab.Descriptors, want)
	}
	if len(split.Train) != 6 || len(split.Test) != 2 || strings.Join(split.Test[0].Situation, " ") != "flag kind_z yards_5_or_more" {
		t.Fatalf("split %+v", split)
	}
	if len(warns) != 1 || warns[0].Error() != `test.csv:3:3: skipped row: "maybe" in column "flag": not a Boolean value (0/1, true/false, yes/no) like the training rows` {
		t.Fatalf("warnings %v", warns)
	}
	// Train alone gives the same bins: the test table does not move them.
	alone, _, err := readAnswers(strings.NewReader(splitTrainCSV), "train.csv", format)
	if err != nil || !slices.Contains(alone.Descriptors, "yards_up_to_4") {
		t.Fatalf("%v %v", alone, err)
	}
	for _, c := range []struct {
		sources []AnswerSource
		want    string
	}{
		{[]AnswerSource{{R: strings.NewReader(splitTrainCSV), Name: "a.csv"}, {R: strings.NewReader("who,call,yards,flag,kind\n"), Name: "b.csv", Test: true}},
			"b.csv:1: header: the columns differ from those of a.csv"},
		{[]AnswerSource{{R: strings.NewReader(splitTrainCSV), Name: "a.csv", Test: true}}, "no training answers"},
		{[]AnswerSource{{R: strings.NewReader("who,a b,a,call\nx,c,b c,run\n"), Name: "a.csv"}},
			`column "a b" value "c" and column "a" value "b c" both become the atom "a_b_c"`},
		{[]AnswerSource{{R: strings.NewReader("who,a,call\nx,b c,run\ny,b_c,run\n"), Name: "a.csv"}},
			`column "a" value "b c" and column "a" value "b_c" both become the atom "a_b_c"`},
	} {
		_, _, _, err := ReadAnswerSources(c.sources, format)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

func TestExamples(t *testing.T) {
	actions := []string{"fold", "call", "raise"}
	var answers []Answer
	for i := 0; i < 300; i++ {
		answers = append(answers, Answer{Situation: []string{"flush", fmt.Sprintf("s%d", i%4)}, Annotator: "p", Action: actions[i%3]})
	}
	answers = append(answers, Answer{Situation: []string{"pair"}, Annotator: "q", Action: DontKnow})
	v := &logic.Vocabulary{}
	pos, neg := Examples(v, actions, answers, NewRand(1))
	if len(pos) != 300 || len(neg) != 300 {
		t.Fatalf("%d positive and %d negative examples, want 300 each (don't know gives none)", len(pos), len(neg))
	}
	if v.Name(0) != "fold" || v.Name(2) != "raise" {
		t.Fatalf("actions are not the first atoms: %v", v.Names())
	}
	drawn := map[string]int{}
	for i := range pos {
		if !pos[i].Antecedent.Equal(neg[i].Antecedent) {
			t.Fatalf("negative %d has another situation", i)
		}
		p, n := pos[i].Consequent.String(v), neg[i].Consequent.String(v)
		if p == n || p != answers[i].Action {
			t.Fatalf("example %d: %s / %s for answer %s", i, p, n, answers[i].Action)
		}
		drawn[p+">"+n]++
	}
	if len(drawn) != 6 {
		t.Fatalf("negative consequents are not drawn from every other action: %v", drawn)
	}
	var a, b bytes.Buffer
	defaults.WriteRules(&a, v, neg)
	_, neg2 := Examples(v, actions, answers, NewRand(1))
	defaults.WriteRules(&b, v, neg2)
	if a.String() != b.String() {
		t.Fatal("the same seed gave other negative examples")
	}
	if !strings.HasPrefix(a.String(), "flush, s0 -> ") {
		t.Fatalf("rule syntax: %q", a.String()[:20])
	}
}

// TypicalExamples against the counts of each situation worked out by hand:
// every answer of a situation with a most typical action gives one default
// of that action and one non-default of another; ties and don't-know
// majorities give none.
func TestTypicalExamples(t *testing.T) {
	actions := []string{"fold", "call", "raise"}
	answer := func(sit, action string) Answer {
		return Answer{Situation: []string{sit}, Annotator: "p", Action: action}
	}
	answers := []Answer{
		answer("pair", "call"), answer("pair", "raise"), answer("pair", "call"), // call, 3 answers
		answer("flush", "raise"), answer("flush", "fold"), // a tie: none
		answer("nothing", DontKnow), answer("nothing", DontKnow), answer("nothing", "fold"), // don't know: none
		answer("trips", "raise"), // raise, 1 answer
		answer("pair", "fold"),   // call still, 4 answers
	}
	v := &logic.Vocabulary{}
	pos, neg := TypicalExamples(v, actions, answers, NewRand(1))
	got := map[string]int{}
	for i := range pos {
		if !pos[i].Antecedent.Equal(neg[i].Antecedent) || pos[i].Consequent.String(v) == neg[i].Consequent.String(v) {
			t.Fatalf("example %d: %s / %s", i, pos[i].String(v), neg[i].String(v))
		}
		got[pos[i].String(v)]++
	}
	want := map[string]int{"pair -> call": 4, "trips -> raise": 1}
	if len(pos) != 5 || len(neg) != 5 || !maps.Equal(got, want) {
		t.Fatalf("defaults %v (%d, %d non-defaults), want %v", got, len(pos), len(neg), want)
	}
	if v.Name(0) != "fold" || v.Name(2) != "raise" {
		t.Fatalf("actions are not the first atoms: %v", v.Names())
	}
}

// The hard rules forbid exactly the worlds that choose two actions (and,
// with atLeastOne, those that choose none); checked over all worlds.
func TestHardRules(t *testing.T) {
	for _, atLeastOne := range []bool{false, true} {
		v := &logic.Vocabulary{}
		actions := []string{"punt", "field_goal", "run", "pass"}
		cs := HardRules(v, actions, atLeastOne)
		if want := 6 + map[bool]int{false: 0, true: 1}[atLeastOne]; len(cs) != want {
			t.Fatalf("%d clauses, want %d", len(cs), want)
		}
		logic.ForEachWorld(v.Len(), func(w []bool) bool {
			n := 0
			for _, x := range w {
				if x {
					n++
				}
			}
			ok := true
			for _, c := range cs {
				ok = ok && c.Holds(w)
			}
			if want := n <= 1 && (n == 1 || !atLeastOne); ok != want {
				t.Fatalf("world %v: hard rules hold = %v, want %v", w, ok, want)
			}
			return true
		})
	}
}

func TestSituations(t *testing.T) {
	ans := func(action string, d ...string) Answer { return Answer{Situation: d, Annotator: "a", Action: action} }
	answers := []Answer{
		ans("punt", "down_4"), ans("punt", "down_4"), ans("pass", "down_4"),
		ans("run", "down_1"), ans("pass", "down_1"),
		ans(DontKnow, "down_2"), ans(DontKnow, "down_2"), ans("run", "down_2"),
		ans("run", "down_3"), ans(DontKnow, "down_3"), ans("run", "down_3"),
	}
	sits := Situations(answers)
	var got []string
	for _, s := range sits {
		got = append(got, fmt.Sprintf("%s:%s:%d", s.Descriptors[0], s.Typical, s.Answers()))
	}
	want := []string{"down_4:punt:3", "down_1:none:2", "down_2:none:3", "down_3:run:3"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	a, err := SituationsARFF("football", Descriptors(answers), []string{"punt", "run", "pass"}, sits)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	a.Write(&buf)
	if !strings.Contains(buf.String(), "@attribute class {punt,run,pass,none}\n\n@data\n0,0,0,1,punt\n1,0,0,0,none\n") {
		t.Fatalf("arff:\n%s", buf.String())
	}
	if _, err := SituationsARFF("x", []string{"down_1"}, []string{"run"}, sits); err == nil {
		t.Fatal("unknown descriptor accepted")
	}
}

func TestValidate(t *testing.T) {
	good := AnswerTable{Actions: []string{"fold", "call"}, Answers: []Answer{{Situation: []string{"flush"}, Annotator: "p", Action: "call"}}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := []AnswerTable{
		{Actions: []string{"fold"}},
		{Actions: []string{"fold", "none"}},
		{Actions: []string{"fold", "fold"}},
		{Actions: []string{"fold", "3"}},
		{Actions: []string{"fold", "call"}, Answers: []Answer{{Annotator: "p", Action: "raise"}}},
		{Actions: []string{"fold", "call"}, Answers: []Answer{{Action: "call"}}},
		{Actions: []string{"fold", "call"}, Answers: []Answer{{Situation: []string{"fold"}, Annotator: "p", Action: "call"}}},
		{Actions: []string{"fold", "call"}, Answers: []Answer{{Situation: []string{"a b"}, Annotator: "p", Action: "call"}}},
		{Actions: []string{"fold", "call"}, Answers: []Answer{{Situation: []string{"pair", "flush"}, Annotator: "p", Action: "call"}}},
		{Actions: []string{"fold", "call"}, Answers: []Answer{{Situation: []string{"flush", "flush"}, Annotator: "p", Action: "call"}}},
	}
	for i, b := range bad {
		if err := b.Validate(); err == nil {
			t.Errorf("table %d accepted", i)
		}
	}
}

// TestReadAnswersNaN: NaN in a numeric column is a missing number, as
// pandas and R write it: the row is kept without that column's descriptor,
// and the bins are those of the table with the cell left empty (the old
// reader put NaN among the numbers it cut into bins and then skipped the
// row as "not a number like the training rows").
func TestReadAnswersNaN(t *testing.T) {
	table := func(missing string) string {
		var b strings.Builder
		b.WriteString("annotator,answer,dist\n")
		for i := range 20 {
			v := strconv.Itoa(i%10 + 1)
			if i == 7 {
				v = missing
			}
			fmt.Fprintf(&b, "a%d,run,%s\n", i, v)
		}
		return b.String()
	}
	format := AnswerFormat{Annotator: "annotator", Answer: "answer"}
	want, _, err := readAnswers(strings.NewReader(table("")), "empty.csv", format)
	if err != nil {
		t.Fatal(err)
	}
	for _, nan := range []string{"NaN", "nan", "NAN"} {
		got, ws, err := readAnswers(strings.NewReader(table(nan)), "nan.csv", format)
		if err != nil || len(ws) > 0 {
			t.Fatalf("%s: error %v, warnings %v", nan, err, ws)
		}
		if !reflect.DeepEqual(got.Answers, want.Answers) {
			t.Errorf("%s: answers\n%v\nwant (the cell left empty)\n%v", nan, got.Answers, want.Answers)
		}
	}
}

// readAnswers reads one CSV answer table (ReadAnswerSources of one source).
func readAnswers(r io.Reader, name string, format AnswerFormat) (*AnswerTable, logic.ErrorList, error) {
	t, _, warns, err := ReadAnswerSources([]AnswerSource{{R: r, Name: name}}, format)
	return t, warns, err
}

// TestOverlappingColumnsAreRefused: an answer column that is also the
// annotator column, or a situation that holds the answer or the annotator,
// is an error before any row is read.
func TestOverlappingColumnsAreRefused(t *testing.T) {
	src := "worker,call,down\na,punt,1\nb,pass,2\n"
	for _, c := range []struct {
		f    AnswerFormat
		want string
	}{
		{AnswerFormat{Annotator: "call", Answer: "call"}, `the annotator and the answer are both column "call"`},
		{AnswerFormat{Annotator: "worker", Answer: "call", Situation: []string{"down", "call"}}, `situation column "call" is also the answer column`},
		{AnswerFormat{Annotator: "worker", Answer: "call", Situation: []string{"worker"}}, `situation column "worker" is also the annotator column`},
		{AnswerFormat{Annotator: "worker", Answer: "call", Intervals: []Interval{{Name: "x", Column: "worker"}}}, `descriptor x describes column "worker", which is the annotator column`},
	} {
		if _, _, err := readAnswers(strings.NewReader(src), "t.csv", c.f); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.f, err, c.want)
		}
	}
}
