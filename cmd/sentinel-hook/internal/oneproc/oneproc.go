// Package oneproc sets GOMAXPROCS to 1 from its package initialiser, which
// runs before the hook's heavier dependencies (parse, hook, register)
// initialise: package main imports it, and Go initialises packages in
// import-path order once their dependencies are done.
//
// Why one P: the hook is one goroutine of work. With a second, idle P,
// every cgo call or syscall longer than 20 µs (SQLite's open, the fsync)
// lets sysmon hand the P off and keep polling every 20 µs. Why so early:
// shrinking to one P frees the other P's cached spans; done in main, after
// the initialisers' allocations, that alone cost about 0.25 ms.
package oneproc

import "runtime"

func init() { runtime.GOMAXPROCS(1) }
