package runtime

import "sync"

// A bufferPool lends the buffers that responses are encoded into. A
// transport copies a response out before it returns (into the HTTP
// response's buffer, or the line writer's), so the buffer can serve the
// next response: one allocation less per call. A buffer that grew past
// maxPooledBuffer is left to the garbage collector, so that one large
// answer does not keep its memory.
type bufferPool struct{ p sync.Pool }

// maxPooledBuffer bounds the buffers a bufferPool keeps.
const maxPooledBuffer = 64 << 10

// get returns an empty buffer of at least size bytes' capacity; put gives
// it back once its bytes are copied out.
func (bp *bufferPool) get(size int) *[]byte {
	b, _ := bp.p.Get().(*[]byte)
	if b == nil {
		b = new([]byte)
	}
	if cap(*b) < size {
		*b = make([]byte, 0, size)
	}
	*b = (*b)[:0]
	return b
}

func (bp *bufferPool) put(b *[]byte) {
	if cap(*b) <= maxPooledBuffer {
		bp.p.Put(b)
	}
}
