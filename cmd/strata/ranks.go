package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/defaults"
	"github.com/strata-logic/strata/internal/jsonview"
	"github.com/strata-logic/strata/logic"
)

// runRanks prints the OCFs of a base (closure --ranks). The text and the
// JSON are written from one view (jsonview.Ranks), so that they give a
// default the same Z-rank and a world the same ranks.
func runRanks(cmd *cobra.Command, path string, flags baseFlags, which string, asJSON bool, out string) error {
	b, err := loadBase(cmd, path, flags)
	if err != nil {
		return err
	}
	rs, err := newReasoner(cmd.Context(), b, flags.weak)
	if err != nil {
		return err
	}
	var kz, kc *defaults.OCF
	if which != "c" {
		kz = rs.SystemZ()
	}
	if which != "z" {
		if kc, err = rs.CRepresentation(cmd.Context()); err != nil {
			return err
		}
	}
	v, err := newRanksJSON(rs, kz, kc)
	if err != nil {
		return err
	}
	text := func(w io.Writer) error {
		return writeRanks(w, v, kz != nil, kc != nil, rs.Ordering().Base.Vocab, rs.Infinite())
	}
	return writeTheoryOutputs(cmd, out, asJSON, text, func() (any, error) { return v, nil })
}

// newRanksJSON is the OCFs kz and kc (one of them nil under --ocf) as POST
// /api/ranks describes them, with the file each default was read from.
func newRanksJSON(rs *defaults.Reasoner, kz, kc *defaults.OCF) (*jsonview.Ranks, error) {
	v, err := jsonview.DescribeRanks(rs, kz, kc, nil)
	if err != nil {
		return nil, err
	}
	k := kz
	if k == nil {
		k = kc
	}
	for i := range v.Defaults {
		v.Defaults[i].File = k.Base().Defaults[i].Pos.File
	}
	return v, nil
}

// writeRanks writes the view r of κ_Z (z) and κ_c (c) as text: the
// Z-rank or impact of every default, Δ^∞ (inf, described with the
// positions r does not keep), and the rank of every world of a small
// vocabulary, each world with every atom of vocab, true or negated.
func writeRanks(w io.Writer, r *jsonview.Ranks, z, c bool, vocab *logic.Vocabulary, inf []defaults.Default) error {
	bw := bufio.NewWriter(w)
	var heads, names []string
	if z {
		heads, names = append(heads, "Z-rank"), append(names, "κ_Z")
	}
	if c {
		heads, names = append(heads, "κ_c impact"), append(names, "κ_c")
	}
	fmt.Fprintf(bw, "# %s\tdefault\n", strings.Join(heads, "\t"))
	for _, d := range r.Defaults {
		var cols []string
		if z {
			cols = append(cols, fmt.Sprint(d.Rank))
		}
		if c {
			cols = append(cols, fmt.Sprint(*d.Impact))
		}
		text := d.Text
		if p := (logic.Position{File: d.File, Line: d.Line}).String(); p != "" {
			text = p + ": " + text
		}
		fmt.Fprintf(bw, "%s\t%s\n", strings.Join(cols, "\t"), text)
	}
	for _, d := range inf {
		fmt.Fprintf(bw, "∞\t%s\n", d.Describe(vocab))
	}
	if r.Worlds != nil {
		fmt.Fprintf(bw, "# world ranks (%s)\n", strings.Join(names, ", "))
	}
	for _, wr := range r.Worlds {
		var cols []string
		for _, k := range []*defaults.Rank{wr.Z, wr.C} {
			if k != nil {
				cols = append(cols, k.String())
			}
		}
		// wr.World lists the true atoms in the order of r.Atoms.
		ls, t := make([]logic.Lit, len(r.Atoms)), 0
		for a, name := range r.Atoms {
			val := t < len(wr.World) && wr.World[t] == name
			if val {
				t++
			}
			ls[a] = logic.MkLit(logic.Atom(a), !val)
		}
		fmt.Fprintf(bw, "%s\t%s\n", strings.Join(cols, "\t"), vocab.Join(ls, ", "))
	}
	return bw.Flush()
}
