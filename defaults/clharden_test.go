package defaults

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/strata-logic/strata/logic"
)

// TestCLLineEndings: a lone "\r" ends a line in .cl and .clq files as "\n"
// does: a '//' comment stops there, and positions count the lines it ends.
func TestCLLineEndings(t *testing.T) {
	qs, err := ReadCLQ(strings.NewReader("// queries\r(f|p),\r(w|p)\r"), "q.clq", &logic.Vocabulary{})
	if err != nil || len(qs) != 2 || qs[0].Pos.Line != 2 || qs[1].Pos.Line != 3 {
		t.Fatalf("CR-only .clq: %v %+v", err, qs)
	}
	_, err = ReadCL(strings.NewReader("signature a // atoms\rconditionals\rkb{\r(a|b)}"), "x.cl", &logic.Vocabulary{})
	if err == nil || !strings.Contains(err.Error(), "x.cl:4:4: atom \"b\" is not in the signature") {
		t.Fatalf("CR-only .cl: %v", err)
	}
	_, err = ReadCL(strings.NewReader("signature a\r\nconditionals\r\nkb{\r\n(a|b)}"), "x.cl", &logic.Vocabulary{})
	if err == nil || !strings.Contains(err.Error(), "x.cl:4:4:") {
		t.Fatalf("CRLF .cl: %v", err)
	}
}

// TestCLDuplicateBaseName: two blocks of one name are an error, since
// SelectBase could only ever pick the first.
func TestCLDuplicateBaseName(t *testing.T) {
	src := "signature a, b\nconditionals\nkb{(a|b)}\nother{(b|a)}\nkb{(b|a)}\n"
	_, err := ReadCL(strings.NewReader(src), "two.cl", &logic.Vocabulary{})
	if err == nil || !strings.Contains(err.Error(), `two.cl:5:1: a second belief base named "kb" (the first is at line 3)`) {
		t.Fatalf("two blocks named kb: %v", err)
	}
}

// TestCLWriteDepth: an implication chain as long as strata reads is
// written as one disjunction, which reads back; a formula that would nest
// too deeply in the .cl syntax is an error of the writer, not a file that
// cannot be read.
func TestCLWriteDepth(t *testing.T) {
	v := &logic.Vocabulary{}
	var chain strings.Builder
	for i := range logic.MaxDepth {
		if i > 0 {
			chain.WriteString(" -> ")
		}
		fmt.Fprintf(&chain, "a%d", i%5)
	}
	f, err := logic.ParseFormula(v, chain.String())
	if err != nil {
		t.Fatal(err)
	}
	b := &Base{Vocab: v, Defaults: []Default{NewDefault(logic.AtomF(0), f)}}
	var buf bytes.Buffer
	if err := WriteCL(&buf, b); err != nil {
		t.Fatalf("a chain of %d operands: %v", logic.MaxDepth, err)
	}
	bases, err := ReadCL(&buf, "chain.cl", &logic.Vocabulary{})
	if err != nil || len(bases[0].Defaults) != 1 {
		t.Fatalf("reading the chain back: %v", err)
	}
	deep := logic.AtomF(0)
	for range logic.MaxDepth/2 + 1 {
		deep = logic.Not(logic.And(deep, logic.AtomF(1)))
	}
	b.Defaults[0] = NewDefault(logic.AtomF(0), deep)
	if err := WriteCL(&bytes.Buffer{}, b); err == nil || !strings.Contains(err.Error(), "nest more than") {
		t.Fatalf("a formula %d levels deep in .cl: %v", logic.MaxDepth+2, err)
	}
}
