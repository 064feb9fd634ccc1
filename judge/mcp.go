package judge

import (
	"sort"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// MCP tools' arguments typed like any other operand (issue 19 class 14):
// an mcp__SERVER__TOOL call whose arguments name a path, a URL or a
// command is judged as the read, write, fetch or command it is. What the
// tool does to a path is read from its name: a verb that writes, moves or
// deletes makes its paths writes (deletes), anything else reads them (a
// read of ~/.aws/credentials by mcp__filesystem__read_file is a secret
// read); a tool that runs commands (mcp__shell__run_command) has its
// command judged as Bash.

// mcpPathKeys name arguments that hold a path; mcpURLKeys a URL;
// mcpCommandKeys a command line.
var (
	mcpPathKeys    = []string{"path", "paths", "file", "files", "file_path", "filepath", "filename", "filenames", "dir", "directory", "source", "destination", "target", "src", "dest", "root", "cwd", "notebook_path"}
	mcpURLKeys     = []string{"url", "uri", "urls", "endpoint", "href", "link"}
	mcpCommandKeys = []string{"command", "cmd", "script", "shell", "commandline", "command_line", "cli_command", "input"}
	// mcpSQLKeys hold a statement for a data store
	mcpSQLKeys = []string{"sql", "query", "statement", "statements"}
	// mcpDestKeys name where a move puts its sources
	mcpDestKeys = []string{"destination", "dest", "target", "to", "new_path", "destination_path", "target_path"}
)

// mcpVerbs sort a tool's name: writes, deletes, runs.
var (
	mcpWriteVerbs  = []string{"write", "edit", "create", "move", "rename", "copy", "put", "upload", "save", "append", "patch", "update", "set", "mkdir"}
	mcpDeleteVerbs = []string{"delete", "remove", "rm", "rmdir", "unlink", "trash", "purge", "del", "erase"}
	mcpRunVerbs    = []string{"run", "exec", "execute", "shell", "terminal", "command", "bash", "spawn", "cli"}
	// a tool of these names deletes a whole tree (rm -rf), not one file
	mcpTreeWords = []string{"directory", "dir", "folder", "rmdir", "tree", "recursive"}
)

func (j *judge) mcpTool(tool string, obj map[string]any) error {
	name := strings.ToLower(tool[strings.LastIndex(tool, "__")+2:])
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	hasVerb := func(vs []string) bool {
		for _, w := range words {
			for _, v := range vs {
				if w == v {
					return true
				}
			}
		}
		return false
	}
	kind, write := kindEdit, hasVerb(mcpWriteVerbs)
	if hasVerb(mcpDeleteVerbs) {
		kind, write = kindDelete, true
	}
	detail := tool
	// a delete is judged as rm judges it (rm -rf ~ through delete_directory
	// is RM-HOME, not a dotfile write), a move as mv (move_file of
	// ~/Documents to /tmp is MOVE-ROOT)
	tree := hasVerb(mcpTreeWords) || obj["recursive"] == true
	synth := &parse.Exec{Name: "rm", Dir: j.cwd}
	var moved []string
	dest := ""
	if hasVerb([]string{"move", "rename", "mv"}) {
		for k, v := range obj {
			if s, ok := v.(string); ok && contains(mcpDestKeys, strings.ToLower(k)) {
				dest = s
			}
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // deterministic hits
	for _, k := range keys {
		lk := strings.ToLower(k)
		for _, v := range mcpStrings(obj[k]) {
			switch {
			case kind == kindDelete && (contains(mcpPathKeys, lk) || strings.HasSuffix(lk, "path")):
				if p, ok := j.resolve(v, j.cwd); ok {
					j.rmAbs(synth, p, tree, tree, detail+" "+v)
				}
			case contains(mcpPathKeys, lk) || strings.HasSuffix(lk, "_path") || strings.HasSuffix(lk, "path"):
				if dest != "" && !contains(mcpDestKeys, lk) {
					moved = append(moved, v)
				}
				if write && (lk != "source" && lk != "src" || kind == kindDelete) {
					j.writePath(v, kind, detail+" "+v)
				} else {
					j.readPath(v, detail+" "+v)
				}
			case contains(mcpURLKeys, lk) || strings.HasSuffix(lk, "_url"):
				if h := programs.HostOf(v); metadataHost(h) {
					j.secretReadHit(detail + " " + v)
				}
			case contains(mcpCommandKeys, lk) && (hasVerb(mcpRunVerbs) || lk == "cli_command"):
				if err := j.bash(v); err != nil {
					return err // could not be judged: the call's error decision
				}
			case contains(mcpSQLKeys, lk) && destructiveSQL(v):
				j.add(RuleDataSqlDestructive, detail) // mcp__postgres__query {sql: "DROP TABLE users"}
			}
		}
	}
	if len(moved) > 0 {
		j.moveAway(&parse.Exec{Name: "mv", Dir: j.cwd}, moved, dest, detail)
	}
	return nil
}

// mcpStrings are the strings a value holds: itself, or an array's.
func mcpStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
			if len(out) >= 64 {
				break
			}
		}
		return out
	}
	return nil
}
