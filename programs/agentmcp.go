package programs

import (
	"encoding/json"
	"sort"
	"strings"
)

// An agent handed MCP servers on its command line starts each server's
// command itself, outside the hooks of the session that started it:
// claude --mcp-config '{"mcpServers":{"x":{"command":"sh","args":[...]}}}'
// runs sh. The server commands are code of the call (file paths are not
// read here: they are the operator's or a file the session wrote).
var _ = register(&Program{Name: "claude", CodeIn: mcpConfigCode})

// mcpConfigCode is the command line of each server of an inline JSON
// --mcp-config value (--mcp-config=JSON, or the next words that are JSON).
func mcpConfigCode(args []string) []Code {
	var out []Code
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		var vals []int
		switch {
		case strings.HasPrefix(a, "--mcp-config="):
			vals = []int{i}
		case a == "--mcp-config":
			// the option takes one or more configs
			for k := i + 1; k < len(args) && !strings.HasPrefix(args[k], "-"); k++ {
				vals = append(vals, k)
			}
		}
		for _, k := range vals {
			v := strings.TrimPrefix(args[k], "--mcp-config=")
			for _, t := range mcpServerCommands(v) {
				out = append(out, Code{Arg: k, Text: t, Via: "claude --mcp-config"})
			}
		}
	}
	return out
}

// mcpServerCommands are the command lines of the stdio servers of an MCP
// configuration in JSON ({"mcpServers":{NAME:{"command":C,"args":[...]}}}),
// each shell-quoted; none when it is not JSON.
func mcpServerCommands(v string) []string {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "{") {
		return nil
	}
	var cfg struct {
		Servers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if json.Unmarshal([]byte(v), &cfg) != nil {
		return nil
	}
	var out []string
	names := make([]string, 0, len(cfg.Servers))
	for n := range cfg.Servers {
		names = append(names, n)
	}
	sort.Strings(names) // the same text, hence the same explanation, every call
	for _, n := range names {
		s := cfg.Servers[n]
		if s.Command == "" {
			continue
		}
		w := []string{shellQuote(s.Command)}
		for _, a := range s.Args {
			w = append(w, shellQuote(a))
		}
		out = append(out, strings.Join(w, " "))
	}
	return out
}
