// Package replay benchmarks `sentinel replay` on a large register: the
// whole register re-decided with the running catalog and a must-keep gate,
// against a plain read of the same register (the baseline, same run).
//
//	bench/replay/run.sh               # 1,000,000 entries
//	REPLAY_N=100000 bench/replay/run.sh
package replay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/sentinel-guard/sentinel/hook"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
)

// commands is a realistic mix of what an agent runs: mostly reads, builds
// and tests, some git, data-only mentions of dangerous words, and the odd
// flag. Weights are the number of times each appears per cycle.
var commands = []struct {
	cmd        string
	weight     int
	unattended bool
}{
	{"git status", 12, false},
	{"git diff --stat", 6, false},
	{"ls -la src", 8, false},
	{"npm test", 8, false},
	{"go test ./... 2>&1 | tail -20", 6, false},
	{"cat package.json", 6, false},
	{"grep -rn \"TODO\" --include=*.go .", 5, false},
	{"rg -n 'func main' cmd/", 4, false},
	{"git add -A && git commit -m \"fix: never run git reset --hard in CI\"", 4, false},
	{"find . -name '*.test.ts' -newer package.json | head", 3, false},
	{"cd web && npm run build && cd ..", 3, false},
	{"echo \"rm -rf / is what we must never do\" >> NOTES.md", 2, false},
	{"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"version\"])' < package.json", 2, false},
	{"docker compose up -d db && sleep 2 && npm run migrate", 2, false},
	{"for f in src/*.ts; do wc -l \"$f\"; done", 2, false},
	{"git log --oneline -20", 3, false},
	{"curl -s https://registry.npmjs.org/left-pad | jq .version", 1, false},
	{"env | grep PATH", 1, false},
	{"git checkout -- README.md", 1, false},
	{"sudo apt-get install -y jq", 1, false},
	{"git reset --hard origin/main", 1, true},
	{"git stash drop", 1, true},
}

type template struct {
	input    []byte
	decision string
	rules    []string
	attended bool
	mode     string
}

var (
	once     sync.Once
	dbPath   string
	mustKeep []protocol.MustKeep
	n        int
	buildErr error
)

func size() int {
	if v, err := strconv.Atoi(os.Getenv("REPLAY_N")); err == nil && v > 0 {
		return v
	}
	return 1_000_000
}

// build makes the register once per process, outside the timed loops.
func build(b *testing.B) {
	once.Do(func() {
		n = size()
		dir, err := os.MkdirTemp("", "replay-bench")
		if err != nil {
			buildErr = err
			return
		}
		dbPath = filepath.Join(dir, "register.db")
		var cycle []template
		for _, c := range commands {
			raw, _ := json.Marshal(map[string]string{"command": c.cmd})
			canon, err := hook.Canonical("Bash", raw)
			if err != nil {
				buildErr = fmt.Errorf("%q: %v", c.cmd, err)
				return
			}
			mode := "default"
			if c.unattended {
				mode = "bypassPermissions"
			}
			d := hook.Decide(hook.Call{ToolName: "Bash", ToolInput: canon, Cwd: "/home/dev/proj", PermissionMode: mode},
				hook.Env{Home: "/home/dev", ProjectDir: "/home/dev/proj", Unattended: c.unattended})
			t := template{input: canon, decision: d.Verdict.String(), rules: d.RuleIDs(), attended: !c.unattended, mode: mode}
			if t.rules == nil {
				t.rules = []string{}
			}
			for i := 0; i < c.weight; i++ {
				cycle = append(cycle, t)
			}
		}
		r, err := register.Open(dbPath)
		if err != nil {
			buildErr = err
			return
		}
		defer r.Close()
		e := &register.Entry{}
		buildErr = register.BulkLoad(r, n, func(i int) *register.Entry {
			t := cycle[i%len(cycle)]
			*e = register.Entry{Kind: register.KindDecision, SessionID: "bench", ToolUseID: fmt.Sprintf("toolu_%09d", i),
				Cwd: "/home/dev/proj", Tool: "Bash", Input: t.input, Decision: t.decision, Rules: t.rules,
				Attended: t.attended, PermissionMode: t.mode, CatalogVersion: hook.CatalogVersion, CatalogHash: hook.CatalogHash()}
			return e
		})
		if buildErr != nil {
			return
		}
		// Keep every unattended deny of the first cycle.
		buildErr = r.Each(1, func(e *register.Entry) error {
			if e.Seq > int64(len(cycle)) {
				return errStop
			}
			if e.Decision == "deny" {
				mustKeep = append(mustKeep, protocol.MustKeep{Seq: e.Seq, Commitment: e.Commitment})
			}
			return nil
		})
		if buildErr == errStop {
			buildErr = nil
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
}

var errStop = fmt.Errorf("stop")

func open(b *testing.B) *register.Register {
	r, err := register.OpenReadOnly(dbPath)
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkScan is the baseline: read every entry of the register.
func BenchmarkScan(b *testing.B) {
	build(b)
	r := open(b)
	defer r.Close()
	b.ResetTimer()
	for b.Loop() {
		count := 0
		if err := outcome.Entries(r)(func(register.Entry) error { count++; return nil }); err != nil {
			b.Fatal(err)
		}
		if count != n {
			b.Fatalf("read %d of %d", count, n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
}

// BenchmarkReplay re-decides every entry with the shipped catalog and
// checks the must-keep gate, as `sentinel replay --must-keep` does.
func BenchmarkReplay(b *testing.B) {
	build(b)
	r := open(b)
	defer r.Close()
	decide := protocol.HookDecider(nil, hook.Env{Home: "/home/dev"})
	b.ResetTimer()
	for b.Loop() {
		rep, err := protocol.Replay(outcome.Entries(r), decide, mustKeep)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Replayed != n || rep.Gate != protocol.Held || len(mustKeep) == 0 {
			b.Fatalf("replayed %d of %d, gate %s, %d must-keep, %d changed", rep.Replayed, n, rep.Gate, len(mustKeep), rep.Changed)
		}
		if rep.Changed != 0 {
			b.Fatalf("%d decisions changed under the same catalog", rep.Changed)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
}
