// Package bench times yume-cli as a user runs it: the whole process, next
// to the floor of the same workload (scripts/rawdrain, a plain creack/pty
// read-and-discard loop), on a producer that writes pre-built output at
// full speed and on one that computes each line (scripts/flood -fast, and
// without), in alternating pairs on one machine, so a noisy
// shared machine slows both alike and the ratio stays meaningful. In-process
// benchmarks live beside their packages; this one sees what they cannot
// (a reader that stops draining while it parses, the process's start-up,
// its peak memory). Run it with make bench.
package bench
