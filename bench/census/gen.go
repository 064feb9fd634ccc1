//go:build ignore

// gen writes synthetic Claude Code transcripts for the census benchmark:
// realistic record mix and sizes (tool results repeated in toolUseResult,
// file-history snapshots, subagents, forked sessions that copy history,
// ~2% denials of every form). Usage:
//
//	go run bench/census/gen.go -out /tmp/census-bench -size 1GiB
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var denials = []struct{ kind, text string }{
	{"user-rejected", "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed."},
	{"permission-rule", "Permission to use Bash with command %s has been denied."},
	{"permission-rule", "sentinel[GIT-RESET-HARD]: resetting discards uncommitted work (register #%d)."},
	{"permission-rule", "Permission to use Bash has been denied because Claude Code is running in don't ask mode."},
	{"automode-blocked", "Permission for this action was denied by the Claude Code auto mode classifier. Reason: [Data Exfiltration] sends %s away."},
	{"", "Permission to read /home/u/.ssh/id_%d has been denied."},
	{"", "PreToolUse:Bash hook error: [/opt/guard]: blocked %d"},
}

var cmds = []string{"go test ./...", "git status", "ls -la", "npm run build", "git reset --hard HEAD~1",
	"curl -s https://example.com/api", "python3 -c 'print(1)'", "cat README.md", "rm -rf dist", "npm install lodash"}

func main() {
	out := flag.String("out", "/tmp/census-bench", "output directory")
	sizeS := flag.String("size", "1GiB", "total size (bytes, or with KiB/MiB/GiB)")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	size := parseSize(*sizeS)
	rng := rand.New(rand.NewPCG(*seed, 7))
	filler := strings.Repeat("lorem ipsum dolor sit amet, consectetur adipiscing elit; ", 400)
	var total, calls, stops int64
	nfile := 0
	for total < size {
		proj := filepath.Join(*out, "projects", fmt.Sprintf("-home-u-proj%03d", nfile%50))
		sess := fmt.Sprintf("%08x-0000-4000-8000-%012d", rng.Uint32(), nfile)
		path := filepath.Join(proj, sess+".jsonl")
		if nfile%5 == 4 {
			path = filepath.Join(proj, fmt.Sprintf("sess%d", nfile-1), "subagents", fmt.Sprintf("agent-%x.jsonl", rng.Uint32()))
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		f, err := os.Create(path)
		if err != nil {
			panic(err)
		}
		w := bufio.NewWriterSize(f, 1<<20)
		n := 200 + rng.IntN(1800) // records
		var kept []string         // lines a fork copies
		for i := 0; i < n; i++ {
			ts := fmt.Sprintf("2026-11-%02dT%02d:%02d:%02d.%03dZ", 1+nfile%28, i/3600%24, i/60%60, i%60, rng.IntN(1000))
			var lines []string
			switch r := rng.IntN(10); {
			case r < 1:
				lines = append(lines, mustJSON(map[string]any{"type": "file-history-snapshot", "messageId": sess, "snapshot": map[string]any{"trackedFileBackups": map[string]any{"a.go": filler[:rng.IntN(2000)]}}}))
			case r < 3:
				lines = append(lines, rec(sess, ts, "assistant", map[string]any{"role": "assistant", "model": "claude-opus-4-5", "content": []any{map[string]any{"type": "text", "text": filler[:200+rng.IntN(3000)]}}}, nil))
			default:
				id := fmt.Sprintf("toolu_%016x%08x", rng.Uint64(), nfile)
				cmd := cmds[rng.IntN(len(cmds))]
				lines = append(lines, rec(sess, ts, "assistant", map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd, "description": "run it"}}}}, nil))
				calls++
				res := filler[:rng.IntN(1500)] // most results are short
				if rng.IntN(10) == 0 {
					res = filler[:rng.IntN(len(filler))] // a file read or a long log
				}
				extra := map[string]any{"toolUseResult": map[string]any{"stdout": res, "stderr": "", "interrupted": false}}
				isErr := false
				if rng.IntN(50) == 0 {
					d := denials[rng.IntN(len(denials))]
					res = d.text
					if strings.Contains(res, "%s") {
						res = fmt.Sprintf(res, cmd)
					} else if strings.Contains(res, "%d") {
						res = fmt.Sprintf(res, i)
					}
					extra = map[string]any{"toolUseResult": "Error: " + res}
					if d.kind != "" {
						extra["toolDenialKind"] = d.kind
					}
					isErr = true
					stops++
				}
				tr := map[string]any{"type": "tool_result", "tool_use_id": id, "content": res}
				if isErr {
					tr["is_error"] = true
				}
				lines = append(lines, rec(sess, ts, "user", map[string]any{"role": "user", "content": []any{tr}}, extra))
			}
			for _, l := range lines {
				w.WriteString(l)
				w.WriteByte('\n')
				total += int64(len(l) + 1)
				if len(kept) < 200 && rng.IntN(4) == 0 {
					kept = append(kept, l)
				}
			}
		}
		w.Flush()
		f.Close()
		nfile++
		if nfile%10 == 0 && len(kept) > 0 { // a resumed session copying history
			fork := filepath.Join(proj, fmt.Sprintf("fork-%d.jsonl", nfile))
			data := strings.Join(kept, "\n") + "\n"
			os.WriteFile(fork, []byte(data), 0o644)
			total += int64(len(data))
			nfile++
		}
	}
	fmt.Printf("wrote %d files, %d bytes, %d tool calls, %d denials (before de-dup) under %s\n", nfile, total, calls, stops, *out)
}

func rec(sess, ts, typ string, msg map[string]any, extra map[string]any) string {
	m := map[string]any{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/u/proj",
		"sessionId": sess, "version": "2.1.210", "gitBranch": "main", "type": typ, "message": msg,
		"uuid": fmt.Sprintf("%x", rand.Uint64()), "timestamp": ts}
	for k, v := range extra {
		m[k] = v
	}
	return mustJSON(m)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func parseSize(s string) int64 {
	mult := int64(1)
	for suf, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSuffix(s, suf), m
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("bad -size: " + s)
	}
	return int64(n * float64(mult))
}
