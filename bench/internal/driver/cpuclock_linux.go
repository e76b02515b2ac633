package driver

import (
	"syscall"
	"time"
	"unsafe"
)

// processClock reads the CPU-time clock of process pid (clock_gettime
// with the clock id that clock_getcpuclockid(3) returns): the scheduler's
// own count of the time every thread of the process has run, to the
// nanosecond. The benchmark reads it for its own children.
func processClock(pid int) (time.Duration, bool) {
	// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED), as in the kernel's
	// include/linux/posix-timers.h: the pid's complement shifted by
	// three, the clock kind (2: scheduler time) below it, and the
	// per-thread bit (4) clear for the whole process.
	clock := int32(^uint32(pid)<<3) | 2
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, uintptr(clock), uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
