// Package cputime reads the CPU time used so far by the process and by the
// calling OS thread. The benchmarks report it besides the wall-clock time:
// on a loaded machine it tracks their work far better, as the wall-clock
// time also counts the time other processes hold the cores.
//
// Only benchmarks import it.
package cputime
