package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/judge"
)

// checkHookFiles opens every file outside the register that the hook reads
// on each call, the way the hook does (non-blocking, regular files only,
// symlinks only within their directory, size-capped), and names each one
// the hook would refuse and why: a refused file makes every call an
// unjudged one (ask, or deny unattended). The register's own files
// (journal, anchor, locks) are checked by checkRegisterIntegrity.
func checkHookFiles(rep *doctorReport, project string) {
	var files []string
	if dir, err := paths.ConfigDir(); err == nil {
		files = append(files, filepath.Join(dir, judge.UserConfigFile))
	}
	if project != "" {
		files = append(files, filepath.Join(project, judge.ProjectConfigFile))
	}
	if dir, err := paths.StateDir(); err == nil {
		// The hooks' queue lock: not read, but opened on every append.
		files = append(files, filepath.Join(dir, "hook.lock"))
	}
	for _, f := range files {
		b, err := safefile.ReadFile(f, judge.MaxConfigBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // nothing to read: the defaults
		case errors.Is(err, safefile.ErrRefused):
			rep.add("hook files", doctorFail, fmt.Sprintf("%v: the hook refuses it, so every call is unjudged (ask, or deny unattended)", err),
				fmt.Sprintf("look at what made it (ls -l %s), then remove it and, for a configuration, write it again as a plain file", f))
		case err != nil:
			rep.add("hook files", doctorFail, fmt.Sprintf("%s: %v: the hook cannot read it, so every call is unjudged", f, err),
				"check the file's permissions")
		default:
			rep.add("hook files", doctorOK, fmt.Sprintf("%s: a regular file of %d bytes, read without blocking", f, len(b)), "")
		}
	}
}
