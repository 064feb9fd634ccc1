// Package archdoc holds the test that keeps docs/architecture.md's package
// table true: every package `go list ./...` finds has its row, every row
// names a package that exists, and every package of this module a package
// imports is named in its row's "may import" column. It has no code of its
// own.
package archdoc
