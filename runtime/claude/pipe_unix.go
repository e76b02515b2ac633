//go:build unix

package claude

import (
	"os"
	"syscall"
)

// blockingPipe returns a pipe whose ends wait in the read and write system
// calls rather than in the Go runtime's network poller. The CLI and the
// host exchange small messages in turn, and on such a stream a wake-up
// through the poller costs more than the message: with blocking ends, a
// sequential round trip through a CLI stand-in took half the time and half
// the host's CPU (BENCHMARKS.md).
//
// It relies on os.NewFile's documented rule: a descriptor that is not in
// non-blocking mode gives a File that is not pollable, whose reads and
// writes block in the system call. syscall.Pipe makes blocking descriptors
// (TestBlockingPipe checks that both ends stay so). Such files take no
// deadlines, and nothing here sets any.
func blockingPipe() (r, w *os.File, err error) {
	var p [2]int
	syscall.ForkLock.RLock() // no child may inherit the descriptors before they are close-on-exec
	err = syscall.Pipe(p[:])
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, os.NewSyscallError("pipe", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
