package lp

import (
	"context"
	"math/big"
	"slices"
)

// A choiceLP is the linear program of the fixed rows and the chosen
// option of every group, kept from one choice to the next: the fixed rows
// stay, the rows of the options stay in its tableau and are switched on
// when the choice needs them, so each choice resumes from the last
// solution.
type choiceLP struct {
	p     *incremental
	keys  []rowKey
	index map[rowKey]int
	on    []int // option rows switched on
}

type rowKey struct{ g, o, r int } // g = −1 for fixed row r

func newChoiceLP(n int) *choiceLP {
	return &choiceLP{p: newIncremental(n), index: map[rowKey]int{}}
}

// solve decides the program of the choice by row generation: it solves a
// subset of the rows, adds the fixed rows and the rows of the chosen
// options that the solution violates, and repeats. A chosen option enters
// only for the groups the solution violates (satisfies no option of): a
// solution satisfying some option of every group and every fixed row
// solves the whole system, whichever option was chosen, so it is returned
// as x. When a subset of the rows has no solution, neither has the whole
// program, and the rows of its Farkas certificate are returned: no choice
// agreeing with this one on their groups has a solution. Every round adds
// at least one row of the program, so the loop ends. All violated groups
// enter at once (a few of their most violated rows each), which saves
// most of the re-solving of one group at a time.
func (c *choiceLP) solve(ctx context.Context, fixed []Row, groups []Group, chosen []int) (cert []rowRef, x []*big.Rat, err error) {
	p, n := c.p, c.p.n
	for _, k := range c.on {
		p.setActive(k, false)
	}
	c.on = c.on[:0]
	// add reports whether the row was not in the program.
	add := func(f rowKey, row Row) bool {
		if k, ok := c.index[f]; ok {
			if !p.off[k] {
				return false
			}
			p.setActive(k, true)
			c.on = append(c.on, k)
			return true
		}
		c.index[f] = len(c.keys)
		c.keys = append(c.keys, f)
		p.add(row)
		if f.g >= 0 {
			c.on = append(c.on, len(c.keys)-1)
		}
		return true
	}
	if len(c.keys) == 0 {
		for i, r := range fixed {
			if i%max(1, len(fixed)/(2*n+8)) == 0 {
				add(rowKey{-1, 0, i}, r)
			}
		}
	}
	for {
		var sup []int
		var ok bool
		x, sup, ok, err = p.solve(ctx)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			for _, k := range sup {
				cert = append(cert, rowRef{c.keys[k].g, c.keys[k].r})
			}
			return cert, nil, nil
		}
		added := 0
		grew := false
		pt := newPoint(x)
		for i, r := range fixed {
			if added < n+8 && pt.cmp(r) < 0 && add(rowKey{-1, 0, i}, r) {
				added++
				grew = true
			}
		}
		for g, opts := range groups {
			if slices.ContainsFunc(opts, pt.satisfies) {
				continue
			}
			rows := opts[chosen[g]]
			viol := violations(pt, rows)
			for _, i := range viol[:min(len(viol), 4)] {
				if add(rowKey{g, chosen[g], i}, rows[i]) {
					grew = true
				}
			}
		}
		if !grew {
			return nil, x, nil
		}
	}
}

// violations returns the rows x violates, the most violated first.
func violations(pt point, rows []Row) []int {
	type v struct {
		i     int
		slack *big.Rat
	}
	var vs []v
	for i, r := range rows {
		if pt.cmp(r) < 0 {
			vs = append(vs, v{i, pt.slack(r)})
		}
	}
	slices.SortStableFunc(vs, func(a, b v) int { return a.slack.Cmp(b.slack) })
	out := make([]int, len(vs))
	for k, e := range vs {
		out[k] = e.i
	}
	return out
}
