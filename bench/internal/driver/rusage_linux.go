package driver

import (
	"os"
	"syscall"
)

// rusageMaxRSS is the peak RSS of an exited process, in bytes.
func rusageMaxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}
