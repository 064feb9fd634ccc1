// Package transcript reads Claude Code's transcripts (the JSON Lines files
// under ~/.claude/projects) for the census and the outcome join: one walk,
// one line reader, one record decoder and one attribution of who stopped a
// call, so that the two commands cannot disagree about a file.
//
// Behaviour, decided once (docs/census.md, "Reading transcripts"):
//   - Symlinks below a root are not followed (files or directories): Claude
//     Code writes regular files, and a link is how a planted FIFO, device,
//     loop or a second copy of a session would get in. They are counted in
//     Sources.SkippedLinks. A root given by the operator may itself be a
//     link: it is resolved once.
//   - Anything named *.jsonl that is not a regular file (FIFO, device,
//     socket) is counted in Sources.SkippedSpecial and never opened for
//     reading; files are opened O_NONBLOCK|O_NOFOLLOW and checked again with
//     fstat, so a file swapped for a FIFO after the walk cannot block.
//   - A file or subdirectory that cannot be opened or read to the end is
//     counted in Sources.UnreadableFiles and skipped; what was read before a
//     read error still counts. A missing or unreadable root is an error.
//   - A line longer than MaxLine is counted (oversized and unreadable) and
//     skipped without being buffered; the lines after it are read.
//
// Privacy by construction: lines are decoded into structs that hold only
// record types, ids, tool names, flags, timestamps, the structured
// permission record and the fixed start and end of result texts. No
// command, path or message text leaves this package, except the raw line
// of a call that Reread returns for in-memory classification.
package transcript
