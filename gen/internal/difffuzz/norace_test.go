//go:build !race

package difffuzz_test

// raceEnabled says that the tests run under the race detector.
const raceEnabled = false
