package learn

// arena holds a small slice per group in one backing array, so that a
// million groups cost a few offsets each instead of a slice header and an
// allocation each. A slice that outgrows its room moves to the end of the
// array, and the array is compacted when moves have left most of it
// unused. Slices returned by get are valid until the next change of the
// arena.
type arena[T any] struct {
	buf  []T
	off  []uint32
	n    []uint16
	room []uint16
	live int
}

func (a *arena[T]) init(groups int) {
	a.buf = a.buf[:0]
	a.off = make([]uint32, groups)
	a.n = make([]uint16, groups)
	a.room = make([]uint16, groups)
	a.live = 0
}

// get returns group g's slice.
func (a *arena[T]) get(g int) []T {
	o := a.off[g]
	return a.buf[o : o+uint32(a.n[g]) : o+uint32(a.room[g])]
}

// reserve makes room for n elements in group g's slice, keeping its
// contents, and returns the whole room.
func (a *arena[T]) reserve(g, n int) []T {
	if n <= int(a.room[g]) {
		o := a.off[g]
		return a.buf[o : o+uint32(a.room[g])]
	}
	if n > 1<<16-1 {
		panic("learn: internal error: an arena slice of more than 65535 elements")
	}
	if len(a.buf) > 2*a.live+1<<12 {
		a.compact()
	}
	r := min(max(n, 2*int(a.room[g]), 2), 1<<16-1)
	o := len(a.buf)
	var zero T
	for range r {
		a.buf = append(a.buf, zero)
	}
	copy(a.buf[o:], a.get(g))
	a.live += r - int(a.room[g])
	a.off[g], a.room[g] = uint32(o), uint16(r)
	return a.buf[o : o+r]
}

// set replaces group g's slice by a copy of v.
func (a *arena[T]) set(g int, v []T) {
	if len(v) > int(a.room[g]) {
		a.n[g] = 0
		a.reserve(g, len(v))
	}
	o := a.off[g]
	copy(a.buf[o:], v)
	a.n[g] = uint16(len(v))
}

// insert inserts x at index i of group g's slice.
func (a *arena[T]) insert(g, i int, x T) {
	n := int(a.n[g])
	s := a.reserve(g, n+1)
	copy(s[i+1:n+1], s[i:n])
	s[i] = x
	a.n[g]++
}

// remove removes index i of group g's slice.
func (a *arena[T]) remove(g, i int) {
	s := a.get(g)
	copy(s[i:], s[i+1:])
	a.n[g]--
}

// clear empties every group's slice, keeping the array.
func (a *arena[T]) clear() {
	a.buf = a.buf[:0]
	clear(a.off)
	clear(a.n)
	clear(a.room)
	a.live = 0
}

// compact moves every slice to the front, in group order, each with room
// for what it holds.
func (a *arena[T]) compact() {
	total := 0
	for g := range a.n {
		total += int(a.n[g])
	}
	buf := make([]T, 0, max(2*total, 1<<10))
	for g := range a.n {
		o := len(buf)
		buf = append(buf, a.get(g)...)
		a.off[g], a.room[g] = uint32(o), a.n[g]
	}
	a.buf, a.live = buf, total
}
