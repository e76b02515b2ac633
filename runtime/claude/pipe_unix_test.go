//go:build unix

package claude

import (
	"os"
	"syscall"
	"testing"
)

// TestBlockingPipe: both ends of the CLI's pipes are in blocking mode, and
// the Files read and write through them: the speed-up of blockingPipe
// depends on it.
func TestBlockingPipe(t *testing.T) {
	r, w, err := blockingPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, f := range map[string]*os.File{"read end": r, "write end": w} {
		rc, err := f.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var flags int
		var errno syscall.Errno
		rc.Control(func(fd uintptr) {
			r, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
			flags, errno = int(r), e
		})
		if errno != 0 {
			t.Fatalf("%s: fcntl: %v", name, errno)
		}
		if flags&syscall.O_NONBLOCK != 0 {
			t.Errorf("%s is in non-blocking mode", name)
		}
	}
	if _, err := w.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "ping\n" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
}
