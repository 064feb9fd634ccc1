package main

// The end-to-end tests: every testdata/script/*.txtar runs under testscript
// with the real, freshly built `sentinel` and `sentinel-hook` binaries first
// on PATH. Each script gets its own HOME, SENTINEL_HOME, XDG_CONFIG_HOME,
// XDG_STATE_HOME and CLAUDE_CONFIG_DIR under $WORK, so nothing touches the
// machine's real state.
//
// Commands available to scripts besides testscript's own:
//
//	jsonpath [!] FILE PATH [VALUE]   FILE ("stdout"/"stderr" for the last
//	                                 command's) is JSON; PATH is dot separated
//	                                 (keys, array indices, "len" for length);
//	                                 without VALUE it checks PATH exists.
//	holdlock DB SECONDS READYFILE    (exec, usually in background with &)
//	                                 takes SQLite's exclusive lock on DB,
//	                                 creates READYFILE, holds it SECONDS.
//	waitfile FILE [SECONDS]          waits until FILE exists (default 10 s).

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"
	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds the built sentinel and sentinel-hook; set by buildM.Run.
var binDir string

// buildM builds the binaries once before any test runs and removes them
// afterwards (testscript.Main calls os.Exit, so a plain defer would not run).
type buildM struct{ m *testing.M }

func (b buildM) Run() int {
	dir, err := os.MkdirTemp("", "sentinel-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, "script_test:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := buildBinaries(dir); err != nil {
		fmt.Fprintln(os.Stderr, "script_test:", err)
		return 1
	}
	binDir = dir
	return b.m.Run()
}

// buildBinaries runs `go build` for both commands into dir.
func buildBinaries(dir string) error {
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
		"github.com/sentinel-guard/sentinel/cmd/sentinel",
		"github.com/sentinel-guard/sentinel/cmd/sentinel-hook")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building the binaries: %v", err)
	}
	return nil
}

func TestMain(m *testing.M) {
	testscript.Main(buildM{m}, map[string]func(){
		"holdlock": holdLockMain,
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			env.Setenv("PATH", binDir+string(filepath.ListSeparator)+env.Getenv("PATH")+string(filepath.ListSeparator)+ciToolDir)
			env.Setenv("HOME", filepath.Join(work, "home"))
			env.Setenv("SENTINEL_HOME", filepath.Join(work, "state"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, "config"))
			env.Setenv("XDG_STATE_HOME", filepath.Join(work, "xstate"))
			env.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(work, "home", ".claude"))
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			// Codex's home is $HOME/.codex, and no real Codex is asked.
			env.Setenv("CODEX_HOME", "")
			env.Setenv("SENTINEL_CODEX_BIN", "")
			env.Setenv("SENTINEL_UNATTENDED", "")
			env.Setenv("BIN", binDir)
			// The signing key's password (keygen encrypts by default).
			env.Setenv("SENTINEL_PASSWORD", "script-password")
			// Real payload fixtures, read-only, shared by all scripts.
			payloads, err := filepath.Abs(filepath.Join("..", "..", "testdata", "payloads"))
			if err != nil {
				return err
			}
			env.Setenv("PAYLOADS", payloads)
			return os.MkdirAll(filepath.Join(work, "home"), 0o755)
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "cosign", "rekor-cli":
				return ciTool(cond) != "", nil
			case "realrekor":
				return realRekorBuilt(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonpath": cmdJSONPath,
			"waitfile": cmdWaitFile,
			"rekor":    cmdRekor,   // rekor_script_test.go
			"tsa":      cmdTSA,     // tsa_script_test.go
			"sqlexec":  cmdSQLExec, // verify_script_test.go
			"jsonset":  cmdJSONSet,
			"capture":  cmdCapture, // verify_script_test.go
		},
	})
}

// cmdJSONPath implements `jsonpath [!] FILE PATH [VALUE]`.
func cmdJSONPath(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: jsonpath [!] FILE PATH [VALUE]")
	}
	data := ts.ReadFile(args[0])
	var v any
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		ts.Fatalf("%s is not one JSON value: %v\n%s", args[0], err, data)
	}
	got, ok := lookupJSON(v, args[1])
	switch {
	case len(args) == 2 && neg && ok:
		ts.Fatalf("%s: %s exists (%s)", args[0], args[1], got)
	case len(args) == 2 && !neg && !ok:
		ts.Fatalf("%s: %s does not exist", args[0], args[1])
	case len(args) == 3:
		match := ok && got == args[2]
		if match == neg {
			ts.Fatalf("%s: %s is %q (exists: %v), want %s%q", args[0], args[1], got, ok, map[bool]string{true: "not ", false: ""}[neg], args[2])
		}
	}
}

// lookupJSON follows a dot-separated path; "len" yields an array's or
// object's length. Scalars are rendered as JSON without string quotes.
func lookupJSON(v any, path string) (string, bool) {
	if path != "." && path != "" {
		for _, k := range strings.Split(path, ".") {
			switch x := v.(type) {
			case map[string]any:
				if _, has := x[k]; !has && k == "len" {
					v = float64(len(x))
					continue
				}
				next, ok := x[k]
				if !ok {
					return "", false
				}
				v = next
			case []any:
				if k == "len" {
					v = float64(len(x))
					continue
				}
				i, err := strconv.Atoi(k)
				if err != nil || i < 0 || i >= len(x) {
					return "", false
				}
				v = x[i]
			default:
				return "", false
			}
		}
	}
	if s, ok := v.(string); ok {
		return s, true
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// cmdWaitFile implements `waitfile FILE [SECONDS]`.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: waitfile FILE [SECONDS]")
	}
	limit := 10 * time.Second
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil {
			ts.Fatalf("waitfile: bad seconds %q", args[1])
		}
		limit = time.Duration(n) * time.Second
	}
	p := ts.MkAbs(args[0])
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(p); err == nil {
			return
		}
	}
	ts.Fatalf("waitfile: %s did not appear within %v", args[0], limit)
}

// holdLockMain is the `holdlock DB SECONDS READYFILE` helper process: it
// holds SQLite's exclusive lock so that a hook finds the register locked.
func holdLockMain() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: holdlock DB SECONDS READYFILE")
		os.Exit(3)
	}
	secs, err := strconv.Atoi(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "holdlock:", err)
		os.Exit(3)
	}
	db, err := sql.Open("sqlite3", "file:"+os.Args[1]+"?_busy_timeout=5000")
	if err != nil {
		fmt.Fprintln(os.Stderr, "holdlock:", err)
		os.Exit(4)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("BEGIN EXCLUSIVE"); err != nil {
		fmt.Fprintln(os.Stderr, "holdlock:", err)
		os.Exit(4)
	}
	if err := os.WriteFile(os.Args[3], []byte("locked\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "holdlock:", err)
		os.Exit(4)
	}
	time.Sleep(time.Duration(secs) * time.Second)
	db.Exec("ROLLBACK")
	db.Close()
}
