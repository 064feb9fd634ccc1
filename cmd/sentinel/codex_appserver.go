package main

// Asking Codex itself whether it will run the hook: `codex app-server`
// speaks newline-delimited JSON-RPC on stdio; hooks/list gives every hook
// it discovered with its trust key, current hash, trust status and whether
// it is enabled. A hash computed here can be wrong in ways only Codex
// knows; its own answer cannot.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"syscall"
	"time"
)

// codexListTimeout bounds one app-server conversation (it answered in
// about 1 s here).
const codexListTimeout = 20 * time.Second

// codexListedHook is one entry of hooks/list.
type codexListedHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	Matcher     string `json:"matcher"`
	TimeoutSec  int    `json:"timeoutSec"`
	SourcePath  string `json:"sourcePath"`
	Enabled     bool   `json:"enabled"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
}

// codexHooksList is hooks/list's answer for one cwd.
type codexHooksList struct {
	CodexHome string            `json:"codex_home"`
	Hooks     []codexListedHook `json:"hooks"`
	Warnings  []string          `json:"warnings"`
	Errors    []string          `json:"errors"`
}

// codexBinary is --codex-bin, else $SENTINEL_CODEX_BIN, else codex on
// PATH; explicit says whether the user named it.
func codexBinary(flag string) (string, bool) {
	if flag != "" {
		return flag, true
	}
	if b := os.Getenv("SENTINEL_CODEX_BIN"); b != "" {
		return b, true
	}
	if p, err := exec.LookPath("codex"); err == nil {
		return p, false
	}
	return "", false
}

// listCodexHooks runs `bin app-server` in cwd and asks hooks/list.
func listCodexHooks(bin, cwd string) (*codexHooksList, error) {
	ctx, cancel := context.WithTimeout(context.Background(), codexListTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "app-server")
	cmd.Dir = cwd
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 8 << 10}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot run %s app-server: %v", bin, err)
	}
	defer func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	send := func(v any) error {
		b, _ := json.Marshal(v)
		_, err := in.Write(append(b, '\n'))
		return err
	}
	wait := func(id int) (json.RawMessage, error) {
		for sc.Scan() {
			var msg struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil || *msg.ID != id {
				continue
			}
			if len(msg.Error) > 0 && string(msg.Error) != "null" {
				return nil, fmt.Errorf("app-server answered an error: %s", firstLine(string(msg.Error)))
			}
			return msg.Result, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s app-server gave no answer within %s", bin, codexListTimeout)
		}
		return nil, fmt.Errorf("%s app-server ended without an answer (stderr %q)", bin, firstLine(stderr.String()))
	}
	if err := send(map[string]any{"id": 1, "method": "initialize",
		"params": map[string]any{"clientInfo": map[string]any{"name": "sentinel", "version": "0"}}}); err != nil {
		return nil, fmt.Errorf("%s app-server: %v (stderr %q)", bin, err, firstLine(stderr.String()))
	}
	initRes, err := wait(1)
	if err != nil {
		return nil, err
	}
	send(map[string]any{"method": "initialized"})
	if err := send(map[string]any{"id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{cwd}}}); err != nil {
		return nil, err
	}
	res, err := wait(2)
	if err != nil {
		return nil, err
	}
	var init struct {
		CodexHome string `json:"codexHome"`
	}
	json.Unmarshal(initRes, &init)
	var lr struct {
		Data []struct {
			Hooks    []codexListedHook `json:"hooks"`
			Warnings []string          `json:"warnings"`
			Errors   []json.RawMessage `json:"errors"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res, &lr); err != nil {
		return nil, fmt.Errorf("hooks/list answered something unexpected: %v", err)
	}
	l := &codexHooksList{CodexHome: init.CodexHome}
	for _, d := range lr.Data {
		l.Hooks = append(l.Hooks, d.Hooks...)
		l.Warnings = append(l.Warnings, d.Warnings...)
		for _, e := range d.Errors {
			var s string
			if json.Unmarshal(e, &s) != nil {
				var m struct {
					Message string `json:"message"`
					Path    string `json:"path"`
				}
				if json.Unmarshal(e, &m) == nil && m.Message != "" {
					s = strings.TrimSpace(m.Path + " " + m.Message)
				} else {
					s = string(e)
				}
			}
			l.Errors = append(l.Errors, s)
		}
	}
	return l, nil
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

var _ io.Writer = (*limitedBuffer)(nil)

// codexVerdict is what Codex said about sentinel's hooks.
type codexVerdict struct {
	Binary string            `json:"binary"`
	OK     bool              `json:"ok"` // every sentinel hook listed, trusted and enabled
	Hooks  []codexListedHook `json:"hooks"`
	// Problems: one line per hook Codex would skip, and its errors.
	Problems []string `json:"problems,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// verifyCodexTrust asks Codex about the hooks at keys (event -> key).
func verifyCodexTrust(bin string, home codexHome, keys map[string]string) (*codexVerdict, error) {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = home.Dir
	}
	l, err := listCodexHooks(bin, cwd)
	if err != nil {
		return nil, fail(exitError, "could not ask Codex whether it trusts the hook: %v", err)
	}
	v := &codexVerdict{Binary: bin, Warnings: l.Warnings}
	v.Problems = append(v.Problems, l.Errors...)
	if l.CodexHome != "" && l.CodexHome != home.Dir {
		v.Problems = append(v.Problems, fmt.Sprintf("Codex reads its configuration from %s, not %s", l.CodexHome, home.Dir))
	}
	events := make([]string, 0, len(keys))
	for e := range keys {
		events = append(events, e)
	}
	sort.Strings(events)
	for _, e := range events {
		k := keys[e]
		var found *codexListedHook
		for i := range l.Hooks {
			if l.Hooks[i].Key == k {
				found = &l.Hooks[i]
			}
		}
		if found == nil {
			v.Problems = append(v.Problems, fmt.Sprintf("Codex does not list the %s hook %s: it will not run it", e, k))
			continue
		}
		v.Hooks = append(v.Hooks, *found)
		if found.TrustStatus != "trusted" {
			v.Problems = append(v.Problems, fmt.Sprintf("Codex reports the %s hook %s (current hash %s): it skips it without a word", e, found.TrustStatus, found.CurrentHash))
		}
		if !found.Enabled {
			v.Problems = append(v.Problems, fmt.Sprintf("Codex reports the %s hook disabled (enabled = false in its [hooks.state] table)", e))
		}
	}
	v.OK = len(v.Problems) == 0
	if !v.OK {
		return v, fail(exitFailure, "Codex would not run sentinel-hook: %s", strings.Join(v.Problems, "; "))
	}
	return v, nil
}

func printCodexVerdict(w io.Writer, v *codexVerdict, unverified string) {
	if v == nil {
		fmt.Fprintln(w, "codex: "+unverified)
		return
	}
	for _, h := range v.Hooks {
		fmt.Fprintf(w, "codex: %s hook %s: %s, enabled %v (asked %s app-server, hooks/list)\n", h.EventName, h.Key, h.TrustStatus, h.Enabled, v.Binary)
	}
	for _, wn := range v.Warnings {
		fmt.Fprintf(w, "codex: warning: %s\n", wn)
	}
	if v.OK {
		fmt.Fprintln(w, "codex: Codex will run sentinel-hook on every tool call")
	}
}
