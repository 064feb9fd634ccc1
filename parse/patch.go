package parse

import (
	"fmt"
	"strings"
)

// Codex's apply_patch tool (docs/codex.md) edits files with a patch of its
// own format, which the hook receives as tool_input.command:
//
//	*** Begin Patch
//	*** Add File: PATH          then the file's lines, each after "+"
//	*** Delete File: PATH
//	*** Update File: PATH       then optionally "*** Move to: NEWPATH",
//	                            then chunks: "@@" or "@@ CONTEXT", lines
//	                            after " " (kept), "-" (removed), "+" (added),
//	                            optionally "*** End of File"
//	*** End Patch
//
// Patch reads it as Codex 0.169.0's own parser does, leniencies included
// (whitespace around the markers, CR before LF, a blank line inside a
// chunk, a first chunk without "@@", the whole patch wrapped in a
// <<'EOF' heredoc), so that the paths judged are the paths Codex writes.
// What Codex would reject is an error here too: an unparsable patch is
// never judged as "nothing".

// Patch operation kinds.
const (
	PatchAdd    = "add"
	PatchDelete = "delete"
	PatchUpdate = "update"
)

// PatchOp is one file operation of a patch.
type PatchOp struct {
	Kind string
	// Path is the file as written (relative paths are relative to the
	// call's cwd); MoveTo the new name of an updated file ("" when none).
	Path, MoveTo string
	// Content is an added file's text (each line with its "\n").
	Content string
	// Chunks are an update's changes, in order.
	Chunks []PatchChunk
}

// PatchChunk is one change of an update: Old lines (context and removed)
// replaced by New lines (context and added), after the line Context when
// set; EOF: at the end of the file.
type PatchChunk struct {
	Context  string
	Old, New []string
	EOF      bool
}

// PatchError is a patch that does not parse; Line is 1-based (0: the
// patch as a whole).
type PatchError struct {
	Line int
	Msg  string
}

func (e *PatchError) Error() string {
	if e.Line == 0 {
		return "invalid patch: " + e.Msg
	}
	return fmt.Sprintf("invalid patch at line %d: %s", e.Line, e.Msg)
}

const (
	patchBegin    = "*** Begin Patch"
	patchEnd      = "*** End Patch"
	patchAddFile  = "*** Add File: "
	patchDelFile  = "*** Delete File: "
	patchUpdFile  = "*** Update File: "
	patchMoveTo   = "*** Move to: "
	patchEndOfFil = "*** End of File"
)

// Patch parses an apply_patch patch into its file operations.
func Patch(text string) ([]PatchOp, error) {
	lines := patchLines(strings.TrimSpace(text))
	body, err := patchBody(lines)
	if err != nil {
		var ok bool
		// The model sometimes wraps the patch in a heredoc (<<'EOF' ... EOF),
		// which Codex strips.
		if n := len(lines); n >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) &&
			strings.HasSuffix(lines[n-1], "EOF") {
			if b, err2 := patchBody(lines[1 : n-1]); err2 == nil {
				body, err, ok = b, nil, true
			}
		}
		if !ok {
			return nil, err
		}
	}
	var ops []PatchOp
	line := 2
	for len(body) > 0 {
		op, n, err := patchOp(body, line)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
		line += n
		body = body[n:]
	}
	return ops, nil
}

// patchLines splits as Rust's str::lines does: at "\n", without a CR
// before it, and no empty last line after a final "\n".
func patchLines(s string) []string {
	if s == "" {
		return nil
	}
	ls := strings.Split(s, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, "\r")
	}
	return ls
}

// patchBody checks the begin and end markers and returns what lies
// between them.
func patchBody(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != patchBegin {
		return nil, &PatchError{Msg: "the first line of the patch must be '" + patchBegin + "'"}
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != patchEnd {
		return nil, &PatchError{Msg: "the last line of the patch must be '" + patchEnd + "'"}
	}
	return lines[1 : len(lines)-1], nil
}

// patchOp reads one file operation from the start of lines (the first at
// line number line) and how many lines it took.
func patchOp(lines []string, line int) (PatchOp, int, error) {
	first := strings.TrimSpace(lines[0])
	if p, ok := strings.CutPrefix(first, patchAddFile); ok {
		var b strings.Builder
		n := 1
		for _, l := range lines[1:] {
			t, ok := strings.CutPrefix(l, "+")
			if !ok {
				break
			}
			b.WriteString(t)
			b.WriteByte('\n')
			n++
		}
		return PatchOp{Kind: PatchAdd, Path: p, Content: b.String()}, n, nil
	}
	if p, ok := strings.CutPrefix(first, patchDelFile); ok {
		return PatchOp{Kind: PatchDelete, Path: p}, 1, nil
	}
	p, ok := strings.CutPrefix(first, patchUpdFile)
	if !ok {
		return PatchOp{}, 0, &PatchError{Line: line, Msg: fmt.Sprintf("%q is not a valid hunk header (want '%s{path}', '%s{path}' or '%s{path}')",
			first, patchAddFile, patchDelFile, patchUpdFile)}
	}
	op := PatchOp{Kind: PatchUpdate, Path: p}
	rest, n := lines[1:], 1
	if len(rest) > 0 {
		if m, ok := strings.CutPrefix(rest[0], patchMoveTo); ok {
			if m == "" {
				return PatchOp{}, 0, &PatchError{Line: line + 1, Msg: "'" + patchMoveTo + "' without a path"}
			}
			op.MoveTo = m
			rest, n = rest[1:], n+1
		}
	}
	for len(rest) > 0 {
		if strings.TrimSpace(rest[0]) == "" {
			rest, n = rest[1:], n+1 // blank lines between chunks
			continue
		}
		if strings.HasPrefix(rest[0], "*") {
			break // the next operation, or the end of the patch
		}
		c, k, err := patchChunk(rest, line+n, len(op.Chunks) == 0)
		if err != nil {
			return PatchOp{}, 0, err
		}
		op.Chunks = append(op.Chunks, c)
		rest, n = rest[k:], n+k
	}
	if len(op.Chunks) == 0 {
		return PatchOp{}, 0, &PatchError{Line: line, Msg: fmt.Sprintf("the update of %q has no changes", p)}
	}
	return op, n, nil
}

// patchChunk reads one chunk of an update; the first may lack its "@@".
func patchChunk(lines []string, line int, first bool) (PatchChunk, int, error) {
	var c PatchChunk
	start := 0
	switch {
	case lines[0] == "@@":
		start = 1
	case strings.HasPrefix(lines[0], "@@ "):
		c.Context, start = lines[0][3:], 1
	case !first:
		return c, 0, &PatchError{Line: line, Msg: fmt.Sprintf("expected a chunk to start with '@@', got %q", lines[0])}
	}
	if start >= len(lines) {
		return c, 0, &PatchError{Line: line + 1, Msg: "a chunk without lines"}
	}
	n := 0
	for _, l := range lines[start:] {
		if l == patchEndOfFil {
			if n == 0 {
				return c, 0, &PatchError{Line: line + 1, Msg: "a chunk without lines"}
			}
			c.EOF = true
			n++
			break
		}
		if l == "" {
			c.Old, c.New = append(c.Old, ""), append(c.New, "")
			n++
			continue
		}
		switch l[0] {
		case ' ':
			c.Old, c.New = append(c.Old, l[1:]), append(c.New, l[1:])
		case '+':
			c.New = append(c.New, l[1:])
		case '-':
			c.Old = append(c.Old, l[1:])
		default:
			if n == 0 {
				return c, 0, &PatchError{Line: line + 1, Msg: fmt.Sprintf("unexpected line %q in a chunk (each starts with ' ', '+' or '-')", l)}
			}
			return c, n + start, nil // the next chunk
		}
		n++
	}
	return c, n + start, nil
}
