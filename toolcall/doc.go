// Package toolcall owns one tool call's whole life in the hook: the
// environment it is judged in (built once, here, for the hook, `sentinel
// check`, `explain` and replay alike), the decision as a pure function of
// (payload, environment, configuration), the error verdict, the register
// entry, the append or the journal, the answer Claude Code reads (with the
// one reason cap Claude Code imposes), and the deadline that answers
// fail-closed whatever else hangs.
//
// The hook binary (cmd/sentinel-hook) is a short main over Pre and Post.
// Like the hook, this package links no network, exec or sealing code.
package toolcall
