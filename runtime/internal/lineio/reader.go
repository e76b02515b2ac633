// Package lineio reads and writes newline-delimited messages for the
// transports that speak one JSON message per line: stdio, and the Claude
// Code control protocol on the CLI's stdin and stdout.
//
// Two tricks keep a sequential exchange (a client that sends one request
// and waits for its answer) cheap, and each has its invariant beside it:
// the Writer batches the answers to a burst of requests into one write
// (Reader.NextFor, Writer.Hold and Writer.Release), and RunInline answers a
// request on the reading goroutine instead of waking another one.
package lineio

import (
	"bufio"
	"bytes"
	"io"
)

// A Reader splits its input into lines without ever holding more than
// Limit bytes of one line.
type Reader struct {
	r *bufio.Reader
	// Limit is the longest line returned; longer lines are consumed and
	// reported by their size only.
	Limit int
}

// NewReader returns a Reader of r with the given line limit.
func NewReader(r io.Reader, limit int) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), Limit: limit}
}

// Next returns the next line with surrounding JSON whitespace trimmed, and
// its full size. A line longer than Limit is consumed and returned empty,
// with its size.
//
// Every line is returned in a buffer of its own, never reused: a parsed
// message refers to its line (see package jsonvalue), and a request may
// still be running when the next line is read.
func (lr *Reader) Next() (line []byte, size int, err error) {
	for {
		frag, err := lr.r.ReadSlice('\n')
		size += len(frag)
		if size <= lr.Limit {
			line = append(line, frag...)
		} else {
			line = nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.Trim(line, " \t\r\n"), size, err // JSON's whitespace only
	}
}

// NextFor is Next for a reader whose answers go to w. What w held back is
// written before the reader waits for input, and w holds the answer to the
// line returned while another line is already buffered, so that a burst of
// requests is answered in one write.
//
// Invariant: w holds lines only while the reader has buffered input to
// work through. Before this reader blocks on its input, it releases w, so
// an answer is never held back while its client waits for it.
func (lr *Reader) NextFor(w *Writer) (line []byte, size int, err error) {
	if !lr.lineBuffered() {
		w.Release()
	}
	line, size, err = lr.Next()
	if lr.lineBuffered() {
		w.Hold()
	}
	return line, size, err
}

// lineBuffered reports whether a whole line is already buffered, so that
// Next will return without reading.
func (lr *Reader) lineBuffered() bool {
	b, _ := lr.r.Peek(lr.r.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}
