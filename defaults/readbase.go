package defaults

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/strata-logic/strata/logic"
)

// BaseOptions say how ReadBase reads a default base.
type BaseOptions struct {
	// Format is "rules" (one default per line), "cl" (a .cl knowledge
	// base), or "" or "auto": cl for a name ending in .cl or a file whose
	// first line that is not a rule begins with "signature"
	// (LooksLikeCL), rules otherwise.
	Format string
	// Base names the base of a .cl file that holds several (SelectBase);
	// a rule file has none to name.
	Base string
}

// ErrBaseFormat is matched by the error of a BaseOptions.Format that is
// none of the formats.
var ErrBaseFormat = errors.New("want rules, cl or auto")

// ErrBaseOfRules is the error of a BaseOptions.Base given for a rule
// file, which holds one base without a name.
var ErrBaseOfRules = errors.New("only a .cl knowledge base has bases to choose among")

// ReadBase reads the default base of data, read from the file name, over
// v, as every command and the server read one: in the format o.Format
// says (and which it returns, "rules" or "cl"), the base o.Base of a .cl
// file. Choosing among a .cl file's bases fails with a *BaseChoiceError,
// a base named for a rule file with ErrBaseOfRules.
func ReadBase(data []byte, name string, o BaseOptions, v *logic.Vocabulary) (*Base, string, error) {
	data = logic.TrimBOM(data)
	format := o.Format
	switch format {
	case "", "auto":
		format = "rules"
		if strings.EqualFold(path.Ext(name), ".cl") || LooksLikeCL(data) {
			format = "cl"
		}
	case "rules", "cl":
	default:
		return nil, "", fmt.Errorf("format %q: %w", o.Format, ErrBaseFormat)
	}
	if format == "cl" {
		bases, err := ReadCL(bytes.NewReader(data), name, v)
		if err != nil {
			return nil, format, err
		}
		b, err := SelectBase(bases, o.Base)
		return b, format, err
	}
	if o.Base != "" {
		return nil, format, ErrBaseOfRules
	}
	ds, err := ReadRules(bytes.NewReader(data), name, v)
	if err != nil {
		return nil, format, err
	}
	return &Base{Vocab: v, Defaults: ds}, format, nil
}
