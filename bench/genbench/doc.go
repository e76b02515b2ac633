// Package genbench measures mcpgen's generator on packages of 10, 50 and
// 200 tools, next to the bare go/packages load of the same package (the
// floor: the generator must load the package anyway). It follows
// gen/bench_test.go's BenchmarkGenerate and BenchmarkLoad, at more sizes.
//
//	go test -run '^$' -bench . -benchtime 10x ./genbench
package genbench
