// Package session is the hook's memory of the session's earlier calls
// (issue 12): a file written by an earlier Write/Edit/MultiEdit or Bash call
// and run now is judged by what was written; a secret read in one call and
// a network send in a later call of the same session is an exfiltration.
//
// What is remembered. When a call writes a file that can be run (a #!
// line, a shell/python/js/ruby/perl/php extension, no extension, a
// package.json), the judge judges the written content as if it ran, at
// Write time, and the call's register entry keeps compact facts (the
// entry's Facts field, covered by its hash): for each such file a digest
// of (session id, path), the verdict its content would get and up to four
// rule ids; and whether the call read a secret. Content is never kept.
//
// How it is looked up. A later call that runs a file by path (bash x.sh,
// sh < x.sh, ./x, source x, python3 x.py, npm install) or sends over the
// network asks Memory. On the first question Memory opens the register
// read-only; each question is one query over the session's newest Window
// entries with facts (a partial index on (session_id, seq) of the entries
// that have facts: bounded whatever the register's size), the path's
// digest or the secret mark tested by SQLite so that only the rows that
// may answer come back. All questions of a call share a fixed budget
// (Budget, 250 ms, less when the hook's deadline is nearer); when a
// question cannot finish, memory is unavailable and the entry's reason says
// so. Calls that run no file and send nothing never
// open it.
//
// What counts. Calls known to have run: an allow, or an ask followed by
// an outcome entry for its tool_use_id (PostToolUse); an ask declined or
// rejected, and a deny, leave no trace, except a written file's content
// that would be stopped: that fact is kept from any call, run or not, and
// only ever makes the file's fact stricter (the agent that tried to plant
// it may get it there another way; the later call that runs the file is
// judged as if it had).
//
// Why it cannot be forged into a pass. Facts count only from entries in
// the hash chain (an edited or deleted entry breaks the chain that verify
// and the seals check); an entry merged from the fallback journal (which
// anyone who can write the state directory can write) can only make the
// chain's fact stricter, never shadow it. Memory only ever adds a hit: the
// file on disk is judged as well (judge/scriptfile.go). A memory that
// cannot answer (the register's schema is not the migrations', journal
// lines are not merged, a read failed or ran out of time) is unavailable,
// not empty: the call that needed it is asked about.
//
// Replay rebuilds the same memory from the register it replays (Replay),
// entry by entry, weighed by the same code.
//
// What is not remembered: files written by other sessions, files outside
// the window, content over 256 KiB, data files (.md, .json other than
// package.json, .txt, sources of compiled languages), reads of secrets in
// calls that were denied or declined. A file copied or moved after it was
// written (cp, mv, install, cat > other) keeps its fact: the copying call
// leaves it for the destination (judge/provenance.go).
package session
