//go:build race

package difffuzz_test

// raceEnabled says that the tests run under the race detector: the
// fuzzer then runs fewer batches, since its work is in the go command
// and the programs it builds, which the detector does not watch.
const raceEnabled = true
