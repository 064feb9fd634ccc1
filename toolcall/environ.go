package toolcall

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/session"
)

// Budget bounds. The budget is how long the hook may take before it
// answers fail-closed; MaxBudget plus ExtraMoment stays below the shortest
// timeout `sentinel install` accepts (MinInstallTimeout), so the hook
// always answers before Claude Code gives up on it and lets the call run.
const (
	DefaultBudget = 2 * time.Second
	MinBudget     = 50 * time.Millisecond
	MaxBudget     = 3 * time.Second
	// ExtraMoment is how long the deadline's own record (one journal
	// line) may take after the answer is written.
	ExtraMoment = 500 * time.Millisecond
	// MinInstallTimeout is the shortest hook timeout, in seconds, that
	// `sentinel install` writes.
	MinInstallTimeout = 4
)

// Environ is everything about the machine and the operator that a call is
// judged in, read once from the process environment. The hook, `sentinel
// check`, `explain` and replay all build it here.
type Environ struct {
	Home string
	// ProjectDir is $CLAUDE_PROJECT_DIR ("" : the call's cwd).
	ProjectDir string
	// StateDir holds the register; ConfigDir the operator's configuration
	// and keys. "" with the error in StateErr or ConfigErr.
	StateDir, ConfigDir string
	StateErr, ConfigErr error
	// Binaries are the sentinel's own executables (this one and its
	// sibling), protected from the agent.
	Binaries []string
	// Attendance is what the environment says about a human being there;
	// the call's permission mode can still make it unattended.
	Attendance Attendance
	// Budget is the hook's deadline (SENTINEL_HOOK_BUDGET, default 2 s).
	Budget time.Duration
	// MemoryBudget bounds the session memory's look-ups
	// (SENTINEL_MEMORY_BUDGET, default session.Budget, 1 ms to 1 s; never
	// more than a quarter of the time left before the deadline).
	MemoryBudget time.Duration
	// Problems are settings that could not be read, for stderr and the
	// entry; each was replaced by its fail-closed reading.
	Problems []string
	// AgentDirs are CLAUDE_CONFIG_DIR and CODEX_HOME when set: where the
	// agents' settings and hooks live instead of ~/.claude and ~/.codex.
	AgentDirs []string
	// Memory is the session's memory (package session), set by the hook
	// once the payload names the session; nil for check, explain, replay.
	Memory judge.Memory
	// NoFiles and NoGate are replay's: scripts are not read from today's
	// disk, and the must-keep gate (which consumes replay's verdicts) is
	// not applied.
	NoFiles, NoGate bool
}

// NewEnviron reads the environment through getenv (os.Getenv in the
// binaries; a map in tests). It never fails: what cannot be found is
// recorded and makes the call that needs it an error decision.
func NewEnviron(getenv func(string) string) *Environ {
	e := &Environ{Home: paths.HomeFrom(getenv), ProjectDir: getenv("CLAUDE_PROJECT_DIR")}
	e.StateDir, e.StateErr = paths.StateDirFrom(getenv)
	e.ConfigDir, e.ConfigErr = paths.ConfigDirFrom(getenv)
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		e.Binaries = []string{exe, filepath.Join(dir, "sentinel"), filepath.Join(dir, "sentinel-hook")}
	}
	for _, v := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME"} {
		if d := getenv(v); d != "" {
			e.AgentDirs = append(e.AgentDirs, d)
		}
	}
	e.Attendance = attendance(getenv)
	e.Problems = append(e.Problems, e.Attendance.Problems...)
	e.Budget = DefaultBudget
	if v := getenv("SENTINEL_HOOK_BUDGET"); v != "" {
		b, err := parseBudget(v)
		if err != nil {
			e.Problems = append(e.Problems, err.Error())
		} else {
			e.Budget = b
		}
	}
	e.MemoryBudget = session.Budget
	if v := getenv("SENTINEL_MEMORY_BUDGET"); v != "" {
		if b, err := time.ParseDuration(strings.TrimSpace(v)); err != nil {
			e.Problems = append(e.Problems, fmt.Sprintf("SENTINEL_MEMORY_BUDGET=%q is not a duration (want e.g. 20ms); using %s", v, session.Budget))
		} else {
			e.MemoryBudget = min(max(b, time.Millisecond), time.Second)
		}
	}
	return e
}

// parseBudget reads a Go duration ("1.5s", "800ms") or plain seconds, and
// clamps it to [MinBudget, MaxBudget].
func parseBudget(v string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(v))
	if err != nil {
		f, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if ferr != nil {
			return 0, fmt.Errorf("SENTINEL_HOOK_BUDGET=%q is not a duration (want e.g. 2s or 1500ms); using %s", v, DefaultBudget)
		}
		d = time.Duration(f * float64(time.Second))
	}
	return min(max(d, MinBudget), MaxBudget), nil
}

// Project is the project directory for a call in cwd.
func (e *Environ) Project(cwd string) string {
	if e.ProjectDir != "" {
		return e.ProjectDir
	}
	return cwd
}

// LoadConfig reads the operator's and the project's configuration for a
// call in cwd (bounded, non-blocking reads: judge.LoadConfig).
func (e *Environ) LoadConfig(cwd string) (*judge.Config, error) {
	if e.ConfigErr != nil {
		return nil, e.ConfigErr
	}
	return judge.LoadConfig(e.ConfigDir, e.Project(cwd))
}

// JudgeEnv is the judge's view of this environment for a call in cwd,
// unattended when the environment says so or the caller forces it.
func (e *Environ) JudgeEnv(cwd string, cfg *judge.Config, unattended bool) judge.Env {
	return judge.Env{
		Home:       e.Home,
		ProjectDir: e.Project(cwd),
		Unattended: unattended || e.Attendance.Unattended,
		Config:     cfg,
		Protected:  append([]string(nil), e.Binaries...),
		StateDir:   e.StateDir,
		ConfigDir:  e.ConfigDir,
		Memory:     e.Memory,
		AgentDirs:  e.AgentDirs,
		NoFiles:    e.NoFiles,
	}
}
