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
	"strings"
	"sync"
	"testing"

	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/toolcall"
)

// commands is a realistic mix of what an agent runs: mostly reads, builds
// and tests, some git, data-only mentions of dangerous words, and the odd
// flag. Weights are the number of times each appears per cycle. A %d in a
// command is filled with the entry number modulo vary (0: the entry number,
// so every such input is unique): about half of all inputs are distinct,
// which keeps the replay's memo honest.
var commands = []struct {
	cmd        string
	weight     int
	vary       int
	unattended bool
}{
	{"git status", 12, 1, false},
	{"git diff --stat HEAD~%d", 6, 50, false},
	{"ls -la src/pkg%d", 8, 500, false},
	{"npm test", 8, 1, false},
	{"go test ./internal/mod%d/... 2>&1 | tail -20", 6, 0, false},
	{"cat src/components/Widget%d.tsx", 6, 0, false},
	{"grep -rn \"TODO(%d)\" --include=*.go .", 5, 0, false},
	{"rg -n 'func handler%d' cmd/", 4, 0, false},
	{"git add -A && git commit -m \"fix #%d: never run git reset --hard in CI\"", 4, 0, false},
	{"find . -name '*.test.ts' -newer build/%d.stamp | head", 3, 0, false},
	{"cd web && npm run build -- --mode=m%d && cd ..", 3, 20, false},
	{"echo \"note %d: rm -rf / is what we must never do\" >> NOTES.md", 2, 0, false},
	{"python3 -c 'import json,sys; print(json.load(sys.stdin)[\"v%d\"])' < package.json", 2, 100, false},
	{"docker compose up -d db && sleep %d && npm run migrate", 2, 5, false},
	{"for f in src/*.ts; do wc -l \"$f\"; done", 2, 1, false},
	{"git log --oneline -%d", 3, 40, false},
	{"curl -s https://registry.npmjs.org/left-pad | jq .version", 1, 1, false},
	{"env", 1, 1, false},
	{"git checkout -- README.md", 1, 1, false},
	{"sudo apt-get install -y jq", 1, 1, false},
	{"git reset --hard origin/main", 1, 1, true},
	{"git stash drop", 1, 1, true},
}

type template struct {
	cmd      string
	vary     int
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
			canon, err := canonical(c.cmd, 7)
			if err != nil {
				buildErr = fmt.Errorf("%q: %v", c.cmd, err)
				return
			}
			mode := "default"
			if c.unattended {
				mode = "bypassPermissions"
			}
			d := judge.Decide(judge.Call{ToolName: "Bash", ToolInput: canon, Cwd: "/home/dev/proj", PermissionMode: mode},
				judge.Env{Home: "/home/dev", ProjectDir: "/home/dev/proj", Unattended: c.unattended})
			t := template{cmd: c.cmd, vary: c.vary, input: canon, decision: d.Verdict.String(), rules: d.RuleIDs(), attended: !c.unattended, mode: mode}
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
			input := t.input
			if strings.Contains(t.cmd, "%d") {
				k := i
				if t.vary > 0 {
					k = i % t.vary
				}
				if input, err = canonical(t.cmd, k); err != nil {
					panic(err)
				}
			}
			*e = register.Entry{Kind: register.KindDecision, SessionID: "bench", ToolUseID: fmt.Sprintf("toolu_%09d", i),
				Cwd: "/home/dev/proj", Tool: "Bash", Input: input, Decision: t.decision, Rules: t.rules,
				Attended: t.attended, PermissionMode: t.mode, CatalogVersion: judge.CatalogVersion, CatalogHash: judge.CatalogHash()}
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

// TestMain removes the register the benchmarks built.
func TestMain(m *testing.M) {
	code := m.Run()
	if dbPath != "" {
		os.RemoveAll(filepath.Dir(dbPath))
	}
	os.Exit(code)
}

// canonical is the canonical Bash input the hook would register.
func canonical(cmd string, k int) ([]byte, error) {
	if strings.Contains(cmd, "%d") {
		cmd = fmt.Sprintf(cmd, k)
	}
	raw, _ := json.Marshal(map[string]string{"command": cmd})
	return judge.Canonical("Bash", raw)
}

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
	decide := protocol.HookDecider(nil, &toolcall.Environ{Home: "/home/dev"})
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
