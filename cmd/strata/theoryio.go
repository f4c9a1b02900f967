package main

import (
	"github.com/spf13/cobra"
	"github.com/strata-logic/strata/internal/fileutil"
	"github.com/strata-logic/strata/logic"
	"github.com/strata-logic/strata/possibilistic"
)

// loadTheory reads a theory file in the text format ("-" is stdin).
func loadTheory(cmd *cobra.Command, path string, v *logic.Vocabulary) (*possibilistic.Theory, error) {
	r, name, err := fileutil.Open(path, cmd.InOrStdin())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return possibilistic.ReadText(cmd.Context(), r, name, v)
}
