package binary

// nameTable holds the names a decoder has read in full, in chunks of
// nameChunk, so that a table of many names grows without copying (and
// without the garbage of the copies).
type nameTable struct {
	chunks [][]string
	n      int
}

const nameChunk = 4096

func (t *nameTable) add(s string) {
	c, i := t.n/nameChunk, t.n%nameChunk
	if c == len(t.chunks) {
		t.chunks = append(t.chunks, make([]string, nameChunk))
	}
	t.chunks[c][i] = s
	t.n++
}

func (t *nameTable) get(i int) string { return t.chunks[i/nameChunk][i%nameChunk] }

// reset empties the table for the next response, keeping its first chunk
// only.
func (t *nameTable) reset() {
	if len(t.chunks) > 0 {
		clear(t.chunks[0][:min(t.n, nameChunk)])
		clear(t.chunks[1:])
		t.chunks = t.chunks[:1]
	}
	t.n = 0
}

// resolve turns a name item into its text: a string is a new table entry,
// an integer an index into the table.
