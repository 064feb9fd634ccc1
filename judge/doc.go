// Package judge decides a tool call: it turns the call into executions and
// paths (through package parse for Bash), judges them against the rule
// catalog and returns the strictest verdict.
//
// The package only reads its input: it never executes, sources or sends
// anything, and it does not write the register (the caller does).
package judge
