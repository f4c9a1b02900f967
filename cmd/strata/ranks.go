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

// runRanks prints the OCFs of a base (closure --ranks).
func runRanks(cmd *cobra.Command, path string, flags baseFlags, which string, asJSON bool, out string) error {
	b, err := loadBase(cmd, path, flags)
	if err != nil {
		return err
	}
	rs, err := newReasoner(cmd.Context(), b, flags.weak)
	if err != nil {
		return err
	}
	var ocfs []*defaults.OCF
	var kz, kc *defaults.OCF
	if which != "c" {
		kz = rs.SystemZ()
		ocfs = append(ocfs, kz)
	}
	if which != "z" {
		if kc, err = rs.CRepresentation(cmd.Context()); err != nil {
			return err
		}
		ocfs = append(ocfs, kc)
	}
	return writeTheoryOutputs(cmd, out, asJSON, func(w io.Writer) error { return writeRanks(w, rs, ocfs) }, func() (any, error) {
		return newRanksJSON(rs, kz, kc)
	})
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

// writeRanks writes the OCFs as text: the layer or impact of every default,
// Δ^∞, and the rank of every world of a small vocabulary.
func writeRanks(w io.Writer, rs *defaults.Reasoner, ocfs []*defaults.OCF) error {
	bw := bufio.NewWriter(w)
	b := ocfs[0].Base()
	v := b.Vocab
	var heads []string
	for _, k := range ocfs {
		switch k.Kind {
		case "z":
			heads = append(heads, "κ_Z layer")
		case "c":
			heads = append(heads, "κ_c impact")
		}
	}
	fmt.Fprintf(bw, "# %s\tdefault\n", strings.Join(heads, "\t"))
	for i, d := range b.Defaults {
		var cols []string
		for _, k := range ocfs {
			if k.Kind == "z" {
				cols = append(cols, fmt.Sprint(k.Layer[i]))
			} else {
				cols = append(cols, fmt.Sprint(k.Impacts[i]))
			}
		}
		fmt.Fprintf(bw, "%s\t%s\n", strings.Join(cols, "\t"), d.Describe(v))
	}
	for _, d := range rs.Infinite() {
		fmt.Fprintf(bw, "∞\t%s\n", d.Describe(v))
	}
	if n := v.Len(); n <= defaults.MaxWorldAtoms {
		fmt.Fprintf(bw, "# world ranks (%s)\n", strings.Join(kinds(ocfs), ", "))
		var err error
		logic.ForEachWorld(n, func(world []bool) bool {
			var cols []string
			for _, k := range ocfs {
				cols = append(cols, k.RankWorld(world).String())
			}
			ls := make([]logic.Lit, n)
			for a, val := range world {
				ls[a] = logic.MkLit(logic.Atom(a), !val)
			}
			_, err = fmt.Fprintf(bw, "%s\t%s\n", strings.Join(cols, "\t"), v.Join(ls, ", "))
			return err == nil
		})
		if err != nil {
			return err
		}
	}
	return bw.Flush()
}

func kinds(ocfs []*defaults.OCF) []string {
	var out []string
	for _, k := range ocfs {
		if k.Kind == "z" {
			out = append(out, "κ_Z")
		} else {
			out = append(out, "κ_c")
		}
	}
	return out
}
