// Package parse turns shell source into the executions it would perform.
//
// It parses Bash with mvdan.cc/sh/v3 and walks the syntax tree, yielding one
// Exec for every simple command that would run: at the top level, inside
// lists, pipelines, compound commands, command and process substitutions,
// functions and aliases called in the same source, behind wrappers (sudo,
// env, xargs, find -exec, ...), and inside code that re-enters a shell
// (bash -c, eval, text piped into sh, ssh HOST 'cmd', interpreter one-liners).
// Words in data positions (echo arguments, commit messages, grep patterns,
// quoted heredocs) are never yielded as commands.
//
// The package only reads its input: it never executes, sources, opens or
// sends anything. It runs on hostile input.
package parse
