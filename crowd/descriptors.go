package crowd

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Interval is a user-given propositional descriptor of a numeric column:
// the atom Name holds in a situation when the column's value lies in
// [Min, Max] (use ±Inf for an open side). Intervals may overlap, so that a
// column can give both "opponent_territory" and "field_goal_range".
type Interval struct {
	Name     string
	Column   string
	Min, Max float64
}

// Holds reports whether x lies in the interval.
func (iv Interval) Holds(x float64) bool { return x >= iv.Min && x <= iv.Max }

// ParseInterval reads a descriptor "NAME=COLUMN:LO..HI", where either bound
// may be left out ("field_goal_range=yrdline100:..35",
// "distance_long=ydstogo:8..") and "NAME=COLUMN:V" means V..V. Bounds are
// inclusive.
func ParseInterval(s string) (Interval, error) {
	name, rest, ok := strings.Cut(s, "=")
	if !ok {
		return Interval{}, fmt.Errorf("descriptor %q: expected NAME=COLUMN:LO..HI", s)
	}
	col, rng, ok := strings.Cut(rest, ":")
	if !ok || strings.TrimSpace(col) == "" {
		return Interval{}, fmt.Errorf("descriptor %q: expected a column and a range after '=', as in NAME=COLUMN:LO..HI", s)
	}
	iv := Interval{Name: strings.TrimSpace(name), Column: strings.TrimSpace(col), Min: math.Inf(-1), Max: math.Inf(1)}
	if !IsAtomName(iv.Name) {
		return Interval{}, fmt.Errorf("descriptor %q: %q is not an atom name (letters, digits, '_' and '-', not a number)", s, iv.Name)
	}
	lo, hi, isRange := strings.Cut(rng, "..")
	if !isRange {
		hi = lo
	}
	for _, b := range []struct {
		text string
		dst  *float64
	}{{lo, &iv.Min}, {hi, &iv.Max}} {
		t := strings.TrimSpace(b.text)
		if t == "" && isRange {
			continue
		}
		x, err := strconv.ParseFloat(t, 64)
		if err != nil || math.IsNaN(x) {
			return Interval{}, fmt.Errorf("descriptor %q: bound %q is not a number", s, t)
		}
		*b.dst = x
	}
	if iv.Min > iv.Max {
		return Interval{}, fmt.Errorf("descriptor %q: empty range %v..%v", s, iv.Min, iv.Max)
	}
	return iv, nil
}

// AtomName turns a column name or value into a readable atom name: lower
// case, runs of other characters than letters, digits, '_' and '-' become
// one '_', "-8" becomes "minus_8" and "2.5" "2_5"; a name that would read
// as a number or a keyword gets a leading "v_".
func AtomName(s string) string {
	out := atomText(s)
	if !IsAtomName(out) {
		out = "v_" + out
	}
	return out
}

// atomText is AtomName without the guard against numbers and keywords, for
// the parts of a longer name ("down_" + "4").
func atomText(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if strings.HasPrefix(s, "-") {
		s = "minus_" + s[1:]
	}
	var b strings.Builder
	under := false
	for _, r := range s {
		ok := r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		if !ok {
			if !under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = true
			continue
		}
		b.WriteRune(r)
		under = false
	}
	return strings.Trim(strings.ReplaceAll(b.String(), "->", "_"), "_-")
}

// numberName writes x for an atom name: "8", "minus_8", "2_5".
func numberName(x float64) string {
	return atomText(strconv.FormatFloat(x, 'f', -1, 64))
}

// bins are automatic thresholds of one numeric column: value x falls in bin
// i when cuts[i-1] < x <= cuts[i] (the first bin has no lower cut, the last
// no upper one), and the bin's atom is names[i].
type bins struct {
	cuts  []float64
	names []string
}

func (b bins) name(x float64) string {
	i, _ := slices.BinarySearch(b.cuts, x) // first cut >= x
	return b.names[i]
}

// quantileBins splits the observed values of a column into at most k bins
// of about equal counts and names each bin by the values it holds:
// "ydstogo_up_to_3", "ydstogo_4_to_7", "ydstogo_8_or_more" (or
// "ydstogo_5" for a bin holding one value).
func quantileBins(column string, values []float64, k int) bins {
	vs := slices.Clone(values)
	slices.Sort(vs)
	var cuts []float64
	for j := 1; j < k; j++ {
		c := vs[j*len(vs)/k]
		// A bin ends at c inclusive; a cut at the maximum leaves an empty last bin.
		if c < vs[len(vs)-1] && (len(cuts) == 0 || c > cuts[len(cuts)-1]) {
			cuts = append(cuts, c)
		}
	}
	b := bins{cuts: cuts}
	col := AtomName(column)
	lo := 0
	for i := 0; i <= len(cuts); i++ {
		hi := len(vs)
		if i < len(cuts) {
			hi, _ = slices.BinarySearch(vs, math.Nextafter(cuts[i], math.Inf(1)))
		}
		first, last := vs[lo], vs[hi-1]
		var n string
		switch {
		case first == last:
			n = col + "_" + numberName(first)
		case i == 0:
			n = col + "_up_to_" + numberName(last)
		case i == len(cuts):
			n = col + "_" + numberName(first) + "_or_more"
		default:
			n = col + "_" + numberName(first) + "_to_" + numberName(last)
		}
		b.names = append(b.names, n)
		lo = hi
	}
	return b
}
