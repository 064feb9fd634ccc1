package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
)

// doctorProbeWait bounds each lock doctor's write probe waits for: doctor
// must answer even when something holds the register.
const doctorProbeWait = 500 * time.Millisecond

// checkRegisterIntegrity reports what the hook would run into on its next
// append: a register that is not the one this machine had (its anchor), a
// register that cannot take a write (a real bounded write, not a lock taken
// and rolled back: a read-only directory or a full disk fail here), and
// fallback-journal files that were refused (a FIFO, a symlink).
func checkRegisterIntegrity(rep *doctorReport) {
	path, err := paths.RegisterPath()
	if err != nil {
		return // checkRegister says so
	}
	dir := filepath.Dir(path)
	checkJournalFiles(rep, dir)
	err = register.Continuity(path)
	switch {
	case errors.Is(err, register.ErrNotExist):
		return // checkRegister says there is none yet
	case errors.Is(err, register.ErrVanished):
		rep.add("register anchor", doctorFail, err.Error(),
			"see what happened (sentinel register status), keep the files as evidence, then: sentinel register reset --accept-loss")
		return
	case err != nil:
		rep.add("register anchor", doctorFail, err.Error(), registerFix(err))
		return
	}
	if a, _ := register.ReadAnchor(dir); a != nil {
		rep.add("register anchor", doctorOK, fmt.Sprintf("the register is the one this machine had (register %s, anchored at entry %d)", a.ID, a.Seq), "")
	} else {
		rep.add("register anchor", doctorWarn, fmt.Sprintf("no %s beside the register yet: a deleted or rolled-back register would not be noticed", register.AnchorFile),
			"make one tool call (every append writes it)")
	}
	if err := register.Probe(path, doctorProbeWait); err != nil {
		fix := "free disk space or fix the permissions of " + dir
		if errors.Is(err, register.ErrLocked) {
			fix = "find the process holding it: fuser " + path
		}
		rep.add("register write", doctorFail, fmt.Sprintf("the register cannot take a write: %v; decisions go to the fallback journal or become ask/deny", err), fix)
		return
	}
	rep.add("register write", doctorOK, "a real write beside the register and a commit in it succeeded (no entry written)", "")
}

// registerFix is what to do about a register that cannot be opened: a
// refused file is evidence, running out of descriptors is not damage.
func registerFix(err error) string {
	switch {
	case errors.Is(err, register.ErrRefused):
		return "keep the file as evidence (move it aside); the next append says which entries it cost"
	case errors.Is(err, register.ErrDescriptors):
		return "raise the limit of open files (ulimit -n 1024) and run doctor again; do not reset the register"
	case errors.Is(err, register.ErrVanished):
		return "see what happened (sentinel register status), keep the files as evidence, then: sentinel register reset --accept-loss"
	}
	return "check the register's files and permissions, and free disk space"
}

// checkJournalFiles names a fallback journal that is not a regular file
// and journals moved aside after being refused.
func checkJournalFiles(rep *doctorReport, dir string) {
	if _, err := register.PendingJournal(dir); errors.Is(err, register.ErrRefused) {
		rep.add("journal file", doctorFail, err.Error()+": decisions cannot be journaled when the register is busy",
			"remove it: rm "+filepath.Join(dir, register.JournalFile)+" (the next append also moves it aside)")
	}
	refused, _ := filepath.Glob(filepath.Join(dir, register.JournalFile+".refused-*"))
	if len(refused) > 0 {
		names := make([]string, len(refused))
		for i, p := range refused {
			names[i] = filepath.Base(p)
			if fi, err := os.Lstat(p); err == nil {
				names[i] += " (" + fi.Mode().Type().String() + ")"
			}
		}
		rep.add("journal file", doctorWarn, fmt.Sprintf("a fallback journal that was not a regular file was refused and moved aside: %s (something replaced it; the register has an error entry for each)", strings.Join(names, ", ")),
			"look at sentinel log --kind error, then remove the files")
	}
}
