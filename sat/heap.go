package sat

// heap is a binary max-heap of variables ordered by activity, with an index
// so that membership tests and key increases are O(1) and O(log n).
type heap struct {
	act   *[]float64
	items []int32
	pos   []int32 // position in items, or -1
}

func (h *heap) grow(n int) {
	for len(h.pos) < n {
		h.pos = append(h.pos, -1)
	}
}

func (h *heap) less(a, b int32) bool { return (*h.act)[a] > (*h.act)[b] }

func (h *heap) empty() bool { return len(h.items) == 0 }

func (h *heap) contains(v int32) bool { return h.pos[v] >= 0 }

func (h *heap) insert(v int32) {
	h.pos[v] = int32(len(h.items))
	h.items = append(h.items, v)
	h.up(int(h.pos[v]))
}

func (h *heap) increase(v int32) { h.up(int(h.pos[v])) }

func (h *heap) removeMax() int32 {
	v := h.items[0]
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	h.pos[v] = -1
	if len(h.items) > 0 {
		h.items[0] = last
		h.pos[last] = 0
		h.down(0)
	}
	return v
}

func (h *heap) up(i int) {
	v := h.items[i]
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(v, h.items[p]) {
			break
		}
		h.items[i] = h.items[p]
		h.pos[h.items[i]] = int32(i)
		i = p
	}
	h.items[i] = v
	h.pos[v] = int32(i)
}

func (h *heap) down(i int) {
	v := h.items[i]
	n := len(h.items)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h.less(h.items[c+1], h.items[c]) {
			c++
		}
		if !h.less(h.items[c], v) {
			break
		}
		h.items[i] = h.items[c]
		h.pos[h.items[i]] = int32(i)
		i = c
	}
	h.items[i] = v
	h.pos[v] = int32(i)
}
