//go:build !unix

package claude

import "os"

// blockingPipe returns an ordinary pipe: the blocking pipes of the unix
// version (pipe_unix.go) are a speed-up only.
func blockingPipe() (r, w *os.File, err error) {
	return os.Pipe()
}
