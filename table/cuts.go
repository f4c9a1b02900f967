package table

import (
	"math"
	"slices"
)

// Cuts returns the thresholds of a numeric column, ascending, chosen from
// the values x and classes y of training rows (rows with a missing value,
// NaN, are left out): Fayyad and Irani's recursive minimum-entropy
// partition ("Multi-interval discretization of continuous-valued
// attributes", IJCAI 1993). The candidate cuts are the boundary points,
// between two adjacent distinct values whose rows are not all of one and
// the same class (they proved that the best cut by entropy is always one);
// the best candidate of an interval splits it when its information gain
// pays for the cut by the minimum description length principle, and each
// part is split in turn. A threshold is the lower of the two values it
// separates, so that a rule reads x <= v for a value v of the data.
// classes is the number of classes (y holds 0..classes-1).
func Cuts(x []float64, y []int32, classes int) []float64 { return cutsAtLeast(x, y, classes, 0) }

// cutsAtLeast is Cuts with at least min cuts where the column has that
// many boundary points: beyond those the MDL criterion pays for, the best
// cuts of the recursive partition by information gain (weighted by the
// rows of the part they split), best first.
func cutsAtLeast(x []float64, y []int32, classes, min int) []float64 {
	groups := groupValues(x, y, classes)
	if len(groups) < 2 {
		return nil
	}
	// prefix[i*classes+c] counts class c among the rows of groups[:i].
	prefix := make([]int, (len(groups)+1)*classes)
	for i, g := range groups {
		copy(prefix[(i+1)*classes:(i+2)*classes], prefix[i*classes:(i+1)*classes])
		for c, n := range g.counts {
			prefix[(i+1)*classes+c] += n
		}
	}
	s := &splitter{groups: groups, prefix: prefix, classes: classes}
	var cuts []float64
	var rest []interval
	s.split(0, len(groups), &cuts, &rest)
	s.more(min, &cuts, rest)
	slices.Sort(cuts)
	return cuts
}

// valueGroup is the rows of one distinct value.
type valueGroup struct {
	value  float64
	counts []int // per class
}

func groupValues(x []float64, y []int32, classes int) []valueGroup {
	// Each class's values sorted apart (a sort of floats, without a
	// comparison function), then merged: on a million rows this is several
	// times faster than sorting the rows by value.
	byClass := make([][]float64, classes)
	for i, v := range x {
		if !math.IsNaN(v) && y[i] >= 0 {
			byClass[y[i]] = append(byClass[y[i]], v)
		}
	}
	for _, vs := range byClass {
		slices.Sort(vs)
	}
	var groups []valueGroup
	var counts []int // the groups' counts, in blocks
	at := make([]int, classes)
	for {
		v, any := 0.0, false
		for c, vs := range byClass {
			if at[c] < len(vs) && (!any || vs[at[c]] < v) {
				v, any = vs[at[c]], true
			}
		}
		if !any {
			break
		}
		if len(counts)+classes > cap(counts) {
			counts = make([]int, 0, max(1024*classes, 2*cap(counts)))
		}
		g := valueGroup{value: v, counts: counts[len(counts) : len(counts)+classes : len(counts)+classes]}
		counts = counts[:len(counts)+classes]
		for c, vs := range byClass {
			for at[c] < len(vs) && vs[at[c]] == v {
				g.counts[c]++
				at[c]++
			}
		}
		groups = append(groups, g)
	}
	return groups
}

type splitter struct {
	groups  []valueGroup
	prefix  []int
	classes int
}

// counts returns the class counts of groups[lo:hi] in buf.
func (s *splitter) counts(lo, hi int, buf []int) []int {
	buf = buf[:s.classes]
	for c := range buf {
		buf[c] = s.prefix[hi*s.classes+c] - s.prefix[lo*s.classes+c]
	}
	return buf
}

// entropy returns the class entropy of counts in bits, the number of rows
// and the number of classes present.
func entropy(counts []int) (h float64, n, k int) {
	for _, c := range counts {
		n += c
	}
	for _, c := range counts {
		if c > 0 {
			k++
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	return h, n, k
}

// pure returns the only class of a group, or -1 when it has rows of
// several classes.
func pure(g valueGroup) int {
	cls := -1
	for c, n := range g.counts {
		if n > 0 {
			if cls >= 0 {
				return -1
			}
			cls = c
		}
	}
	return cls
}

// boundary reports whether a cut between groups i-1 and i is a boundary
// point: not between two groups that are all of one and the same class.
func (s *splitter) boundary(i int) bool {
	a, b := pure(s.groups[i-1]), pure(s.groups[i])
	return a < 0 || b < 0 || a != b
}

// bestSplit returns the boundary point of groups[lo:hi] whose cut
// leaves the least class entropy (-1 when there is none, or one class),
// its information gain, and whether the gain pays for the cut by the MDL
// criterion.
func (s *splitter) bestSplit(lo, hi int) (best int, gain float64, pays bool) {
	if hi-lo < 2 {
		return -1, 0, false
	}
	all := s.counts(lo, hi, make([]int, s.classes))
	hAll, n, k := entropy(all)
	if k < 2 {
		return -1, 0, false
	}
	left, right := make([]int, s.classes), make([]int, s.classes)
	best, bestE := -1, math.Inf(1)
	for i := lo + 1; i < hi; i++ {
		if !s.boundary(i) {
			continue
		}
		h1, n1, _ := entropy(s.counts(lo, i, left))
		h2, n2, _ := entropy(s.counts(i, hi, right))
		if e := (float64(n1)*h1 + float64(n2)*h2) / float64(n); e < bestE {
			best, bestE = i, e
		}
	}
	if best < 0 {
		return -1, 0, false
	}
	h1, _, k1 := entropy(s.counts(lo, best, left))
	h2, _, k2 := entropy(s.counts(best, hi, right))
	gain = hAll - bestE
	delta := math.Log2(math.Pow(3, float64(k))-2) - (float64(k)*hAll - float64(k1)*h1 - float64(k2)*h2)
	return best, gain, gain > (math.Log2(float64(n-1))+delta)/float64(n)
}

// interval is a part groups[lo:hi] of a column not split by the MDL
// criterion, with its best cut and that cut's information gain weighted
// by the part's rows.
type interval struct {
	lo, hi, best int
	weighted     float64
}

// split keeps the best cut of groups[lo:hi] when it passes the MDL
// criterion, and recurses into both sides; a part it does not split, but
// could, goes to rest.
func (s *splitter) split(lo, hi int, cuts *[]float64, rest *[]interval) {
	best, gain, pays := s.bestSplit(lo, hi)
	if best < 0 {
		return
	}
	if !pays {
		*rest = append(*rest, interval{lo, hi, best, gain * float64(s.prefixRows(lo, hi))})
		return
	}
	*cuts = append(*cuts, s.groups[best-1].value)
	s.split(lo, best, cuts, rest)
	s.split(best, hi, cuts, rest)
}

// prefixRows returns the number of rows of groups[lo:hi].
func (s *splitter) prefixRows(lo, hi int) int {
	n := 0
	for c := range s.classes {
		n += s.prefix[hi*s.classes+c] - s.prefix[lo*s.classes+c]
	}
	return n
}

// more adds cuts beyond those the MDL criterion pays for until there are
// min: the cut of the largest weighted information gain among the parts
// not split, then among the parts it leaves, and so on.
func (s *splitter) more(min int, cuts *[]float64, rest []interval) {
	for len(*cuts) < min && len(rest) > 0 {
		i := 0
		for j, r := range rest {
			if r.weighted > rest[i].weighted {
				i = j
			}
		}
		r := rest[i]
		rest = slices.Delete(rest, i, i+1)
		if r.weighted <= 0 {
			continue
		}
		*cuts = append(*cuts, s.groups[r.best-1].value)
		for _, part := range [][2]int{{r.lo, r.best}, {r.best, r.hi}} {
			if best, gain, _ := s.bestSplit(part[0], part[1]); best >= 0 {
				rest = append(rest, interval{part[0], part[1], best, gain * float64(s.prefixRows(part[0], part[1]))})
			}
		}
	}
}
