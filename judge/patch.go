package judge

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
)

// Codex's apply_patch (tool_input.command holds the patch, parse.Patch
// reads it): each file operation is judged as the Claude Code tool or the
// shell command that does the same would be. An added file is a Write
// (and the session remembers what it holds), an update an Edit (its new
// text what the chunks make of the file on disk), a move an Edit of the
// new name plus the old name moved away, a delete an rm. Paths are
// Codex's: relative to the call's cwd, a leading ~ is no home directory.
// A patch that does not parse is not judged (SENTINEL-UNJUDGED): Codex
// would refuse it, and nothing about what it writes is known.
func (j *judge) applyPatch(text string) error {
	ops, err := parse.Patch(text)
	if err != nil {
		return fmt.Errorf("apply_patch: %v; not judged", err)
	}
	for _, op := range ops {
		p, err := j.patchPath(op.Path)
		if err != nil {
			return err
		}
		switch op.Kind {
		case parse.PatchAdd:
			k := kindEdit
			if strings.TrimSpace(op.Content) == "" {
				k = kindEmpty // an Add of nothing empties a file that is there
			}
			j.writeAbs(p, k, "apply_patch add "+p)
			j.noteWritten(p, op.Content)
		case parse.PatchDelete:
			j.deleteFile(p, "apply_patch delete "+p)
		case parse.PatchUpdate:
			edits := make([]edit, 0, len(op.Chunks))
			for _, c := range op.Chunks {
				edits = append(edits, edit{old: strings.Join(c.Old, "\n"), new: strings.Join(c.New, "\n")})
			}
			text := j.editedText(p, edits)
			dest := p
			if op.MoveTo != "" {
				if dest, err = j.patchPath(op.MoveTo); err != nil {
					return err
				}
				j.deleteFile(p, "apply_patch move "+p+" to "+dest)
			}
			j.writeAbs(dest, kindEdit, "apply_patch update "+dest)
			j.noteWritten(dest, text)
		}
	}
	return nil
}

// patchPath is where Codex writes a patch's path: absolute, or under the
// call's cwd.
func (j *judge) patchPath(p string) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("apply_patch: path %q holds a NUL byte; not judged", p)
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if j.cwd == "" {
		return "", fmt.Errorf("apply_patch: relative path %q and no cwd to resolve it against; not judged", p)
	}
	return filepath.Join(j.cwd, p), nil
}

// deleteFile judges the deletion of one file (not a tree) as rm would:
// the link itself, not what it leads to.
func (j *judge) deleteFile(p, detail string) {
	j.rmAbs(&parse.Exec{}, p, false, false, detail)
}
