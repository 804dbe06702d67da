package gcf

import (
	"container/heap"

	"github.com/graphwire/graphwire/codecs/jsonvalue"
)

// tableFields returns the columns of one table that keeps the member order
// of every row: the rows' keys in an order that agrees with each row's own
// (a topological order of "comes before in some row", ties broken by first
// appearance), or false when the rows' orders contradict one another (one
// row has a before b, another b before a) and no one table carries them.
func tableFields(rows []*jsonvalue.Object) ([]string, bool) {
	index := map[string]int{}
	var names []string
	var next [][]int
	var indeg []int
	seenEdge := map[[2]int]bool{}
	id := func(k string) int {
		i, ok := index[k]
		if !ok {
			i = len(names)
			index[k] = i
			names = append(names, k)
			next = append(next, nil)
			indeg = append(indeg, 0)
		}
		return i
	}
	for _, r := range rows {
		prev := -1
		for _, m := range r.Members {
			i := id(m.Key)
			if prev >= 0 && !seenEdge[[2]int{prev, i}] {
				seenEdge[[2]int{prev, i}] = true
				next[prev] = append(next[prev], i)
				indeg[i]++
			}
			prev = i
		}
	}
	ready := &intHeap{}
	for i := range names {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	out := make([]string, 0, len(names))
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		out = append(out, names[i])
		for _, j := range next[i] {
			if indeg[j]--; indeg[j] == 0 {
				heap.Push(ready, j)
			}
		}
	}
	return out, len(out) == len(names)
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
