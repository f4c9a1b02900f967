package crowd

import (
	"strings"
	"testing"
)

// TestHeaderErrorsQuoted: a header error names the columns quoted, so that
// a control character or a line break in a header (an ESC sequence) never
// reaches the terminal raw, and the message is one line.
func TestHeaderErrorsQuoted(t *testing.T) {
	src := "worker,\"ca\x1b[31mll\nx\",down\nann,pass,1\n"
	_, _, err := readAnswers(strings.NewReader(src), "h.csv", AnswerFormat{Annotator: "worker", Answer: "call"})
	if err == nil {
		t.Fatal("no error for a missing answer column")
	}
	msg := err.Error()
	for _, c := range msg {
		if c < 0x20 || c == 0x7f {
			t.Fatalf("control character %q in %q", c, msg)
		}
	}
	if want := `h.csv:1: header: no answer column "call" (columns: "worker", "ca\x1b[31mll\nx", "down")`; msg != want {
		t.Fatalf("got  %s\nwant %s", msg, want)
	}
	two := []AnswerSource{
		{R: strings.NewReader("worker,call,down\nann,pass,1\n"), Name: "a.csv"},
		{R: strings.NewReader("worker,call,\x07down\nbob,run,2\n"), Name: "b.csv", Test: true},
	}
	_, _, _, err = ReadAnswerSources(two, AnswerFormat{Annotator: "worker", Answer: "call"})
	if err == nil || err.Error() != `b.csv:1: header: the columns differ from those of a.csv ("worker", "call", "down")` {
		t.Fatalf("different headers: %v", err)
	}
}

// TestAnswerSpellingsCollide: two spellings of one action are an error
// naming both and where, as two column values of one descriptor are; a
// skipped row merges nothing.
func TestAnswerSpellingsCollide(t *testing.T) {
	f := AnswerFormat{Annotator: "worker", Answer: "call"}
	src := "worker,down,call\nann,4,Field Goal\nbob,1,pass\ncarl,4,field_goal\n"
	_, _, err := readAnswers(strings.NewReader(src), "c.csv", f)
	if err == nil || !strings.Contains(err.Error(), `c.csv:4:3: answers "Field Goal" (c.csv:2) and "field_goal" (column "call") both become the action "field_goal"`) {
		t.Fatalf("Field Goal and field_goal: %v", err)
	}
	f.Actions = []string{"field_goal", "pass"}
	if _, _, err := readAnswers(strings.NewReader(src), "c.csv", f); err == nil {
		t.Fatal("Field Goal and field_goal merged when --actions names field_goal")
	}
	f.Actions = nil
	ok := "worker,down,call\nann,4,Field Goal\nbob,1,pass\ncarl,4,Field Goal\n"
	if tab, _, err := readAnswers(strings.NewReader(ok), "c.csv", f); err != nil || len(tab.Answers) != 3 {
		t.Fatalf("one spelling: %v", err)
	}
}

// TestCSVLineEndings: CR-only line endings separate records, and the
// positions of warnings count those lines.
func TestCSVLineEndings(t *testing.T) {
	src := "worker,down,call\rann,4,punt\rbob,x\rcarl,1,pass\r"
	tab, warns, err := readAnswers(strings.NewReader(src), "cr.csv", AnswerFormat{Annotator: "worker", Answer: "call"})
	if err != nil || len(tab.Answers) != 2 || len(warns) != 1 || !strings.HasPrefix(warns[0].Error(), "cr.csv:3: skipped row: 2 fields") {
		t.Fatalf("CR-only table: %v %v %v", tab, warns, err)
	}
}
