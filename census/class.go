package census

import (
	"encoding/json"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// CallClasses is the fixed list of classes a call stopped by a permission
// rule is mapped to, strictest first: when a call does several things, the
// first class in this list that applies is the one counted.
var CallClasses = []string{
	"inline_code",     // interpreter one-liners, eval, code fed to a shell
	"git_history",     // git commands that rewrite or discard history
	"package_install", // package managers installing or adding packages
	"network",         // commands and tools that reach the network
	"file_write",      // writes, deletes, moves, redirects, Write/Edit tools
	"file_read",       // reads and searches, Read/Glob/Grep tools
	"other",           // anything else, and calls that could not be analysed
}

const classOther = "other"

// BashAnalyser turns a Bash command into the executions it would perform.
// It is the project's own analyser (parse.Parse); it runs in memory and only
// the class name derived from its result is kept.
type BashAnalyser func(cmd string) ([]parse.Exec, error)

// ParseAnalyser is the default analyser: parse.Parse with default limits
// (an error, such as an input over the limits, makes the class "other").
func ParseAnalyser(cmd string) ([]parse.Exec, error) {
	res, err := parse.Parse(cmd, parse.Options{})
	if err != nil {
		return nil, err
	}
	return res.Execs, nil
}

// classOfCall maps a tool call to a class. input is the tool_use input; it is
// dropped as soon as the class is known.
func classOfCall(tool string, input json.RawMessage, analyse BashAnalyser) string {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return "file_write"
	case "Read", "Glob", "Grep", "LS", "NotebookRead":
		return "file_read"
	case "WebFetch", "WebSearch":
		return "network"
	case "Bash":
	default:
		return classOther
	}
	if analyse == nil {
		analyse = ParseAnalyser
	}
	var in struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(input, &in) != nil || in.Command == "" {
		return classOther
	}
	execs, err := analyse(in.Command)
	if err != nil {
		return classOther
	}
	return classOfExecs(execs)
}

// classOfExecs picks the strictest class any execution falls in.
func classOfExecs(execs []parse.Exec) string {
	best := len(CallClasses) - 1
	for i := range execs {
		if c := classIndex(classOfExec(&execs[i])); c < best {
			best = c
		}
	}
	return CallClasses[best]
}

func classIndex(c string) int {
	for i, k := range CallClasses {
		if k == c {
			return i
		}
	}
	return len(CallClasses) - 1
}

var (
	inlineFlags = set("-c", "-e", "-E", "-r", "--eval", "--exec", "-p", "--print")
	writeCmds   = set("rm", "rmdir", "mv", "cp", "tee", "touch", "mkdir", "chmod", "chown", "chgrp", "dd", "truncate", "ln", "install", "shred", "unlink", "mkfs", "rsync")
	readCmds    = set("cat", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "find", "ls", "stat", "file", "wc", "diff", "strings", "xxd", "od", "base64", "jq", "awk", "sed", "tree", "du")
	gitHistory  = set("reset", "rebase", "filter-branch", "filter-repo", "push", "reflog", "update-ref", "gc", "prune", "clean", "restore", "checkout", "switch", "stash", "tag", "branch", "cherry-pick", "revert", "merge", "replace", "commit")
)

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// classOfExec classifies one execution.
func classOfExec(e *parse.Exec) string {
	if e.RunsCode != nil || e.Origin.Kind == parse.OriginInterpreter {
		return "inline_code"
	}
	name := e.Name
	args := make([]string, 0, len(e.Argv))
	for i, w := range e.Argv {
		if i > 0 {
			args = append(args, w.Value)
		}
	}
	if programs.Is(name, programs.Interpreter) { // python3.12 and nodejs too: the program model

		for _, a := range args {
			if inlineFlags[a] {
				return "inline_code"
			}
		}
	}
	switch {
	case name == "eval":
		return "inline_code"
	case name == "git" && len(args) > 0:
		if gitHistory[firstNonFlag(args)] || hasArg(args, "--amend") {
			return "git_history"
		}
	case programs.Is(name, programs.PkgManager) && len(args) > 0:
		if _, ok := programs.Lookup(name).InstallOperands(args); ok {
			return "package_install"
		}
	}
	switch {
	case programs.Is(name, programs.NetSender):
		return "network"
	case writeCmds[name], name == "sed" && hasArg(args, "-i"):
		return "file_write"
	}
	for _, r := range e.Redirects {
		if strings.HasPrefix(r.Op, ">") || r.Op == "&>" || r.Op == "&>>" || r.Op == "<>" {
			if r.Target.Value != "/dev/null" {
				return "file_write"
			}
		}
	}
	if readCmds[name] {
		return "file_read"
	}
	return classOther
}

func firstNonFlag(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func hasArg(args []string, want string) bool {
	for _, a := range args {
		if a == want || strings.HasPrefix(a, want) && want == "-i" {
			return true
		}
	}
	return false
}
