// Package register is the operator's append-only record of every decision:
// one SQLite database, one hash chain.
package register
