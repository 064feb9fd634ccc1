package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/gate"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/judge"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
)

func newGateCmd() *cobra.Command {
	g := &cobra.Command{
		Use:   "gate",
		Short: "Make the must-keep gate bind: check the live configuration, accept a failing one",
		Long: `The must-keep file (must-keep.txt in the config directory, lines from
'sentinel protocol keep') lists denied entries every rule change must keep
denied. 'sentinel gate check' replays the register under the live
configuration; when a must-keep entry is lost, the hook holds the rules of
the lost entries closed (judged as the shipped catalog judges them) for as
long as that configuration is live, and doctor fails. A configuration that
changed since the last check is unchecked: the hook holds every must-keep
entry's rules until the gate runs again. 'sentinel gate accept' accepts the
failing configuration explicitly.

Each check and each acceptance is appended to the register (kind "gate") and
cached in gate.json in the state directory, which the hook reads (a few
microseconds). The cache names its register entry, so an edited gate.json is
evident: doctor compares them. The agent is denied running 'sentinel gate'.

Exit codes: 0 passed or accepted; 1 the gate failed (each lost entry named);
3 usage; 4 no must-keep file, or the register or configuration could not be
read; 5 no register.`,
		Example: `  sentinel protocol keep 412 415 >> ~/.config/sentinel/must-keep.txt
  sentinel gate check
  sentinel gate accept     # after reading what check said`,
	}
	var mkFlag string
	check := &cobra.Command{
		Use:   "check",
		Short: "Replay the register under the live configuration against the must-keep file",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			mkPath, err := mustKeepPath(mkFlag)
			if err != nil {
				return err
			}
			mk, err := protocol.LoadMustKeep(mkPath)
			if err != nil {
				return fail(exitError, "must-keep: %v", err)
			}
			cfg, _, err := replayConfig("")
			if err != nil {
				return err
			}
			reg, err := protoOpenRegister(false)
			if err != nil {
				return err
			}
			defer reg.Close()
			rep, err := protocol.ReplayFrom(protocol.Source{Each: outcome.Entries(reg), Index: reg}, protocol.HookDecider(cfg, replayEnv()), mk, nil)
			if err != nil {
				return fail(exitError, "replay: %v", err)
			}
			s := &gate.State{ConfigHash: judge.CatalogHashFor(cfg), Status: gate.Passed, Rules: []string{},
				KeepRules: []string{}, MustKeep: fileHash(mkPath)}
			for _, k := range mk {
				s.KeepRules = addRules(s.KeepRules, entryRules(reg, k.Seq))
			}
			fails := rep.GateFailures()
			for _, k := range fails {
				s.Rules = addRules(s.Rules, entryRules(reg, k.Seq))
			}
			if len(fails) > 0 {
				s.Status = gate.Failed
			}
			if err := recordGate(reg, s); err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if len(fails) == 0 {
				fmt.Fprintf(w, "gate passed: configuration %s keeps all %d must-keep entries denied (register entry %d)\n", s.ConfigHash, len(mk), s.Seq)
				return nil
			}
			msgs := make([]string, len(fails))
			for i, k := range fails {
				msgs[i] = keepMessage(k)
			}
			fmt.Fprintf(w, "gate FAILED: configuration %s (register entry %d)\n  %s\nthe hook now holds closed: %s\n",
				s.ConfigHash, s.Seq, strings.Join(msgs, "\n  "), strings.Join(s.Rules, ", "))
			return failCode("gate_failed", "must-keep gate failed: run 'sentinel gate accept' to accept this configuration, or undo the change")
		},
	}
	check.Flags().StringVar(&mkFlag, "must-keep", "", "the must-keep file (default: must-keep.txt in the config directory)")
	accept := &cobra.Command{
		Use:   "accept",
		Short: "Accept the live configuration although it failed the gate (recorded in the register)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := paths.StateDir()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			s, err := gate.Load(dir)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			cfg, _, err := replayConfig("")
			if err != nil {
				return err
			}
			live := judge.CatalogHashFor(cfg)
			switch {
			case s == nil:
				return fail(exitUsage, "the gate has not run: 'sentinel gate check' first")
			case s.ConfigHash != live:
				return fail(exitUsage, "the live configuration (%s) is not the one the gate checked (%s): 'sentinel gate check' first", live, s.ConfigHash)
			case s.Status != gate.Failed:
				fmt.Fprintf(cmd.OutOrStdout(), "nothing to accept: the gate %s for configuration %s\n", s.Status, live)
				return nil
			}
			reg, err := protoOpenRegister(false)
			if err != nil {
				return err
			}
			defer reg.Close()
			s.Status = gate.Accepted
			if err := recordGate(reg, s); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "accepted configuration %s (register entry %d): %s no longer held\n", live, s.Seq, strings.Join(s.Rules, ", "))
			return nil
		},
	}
	g.AddCommand(check, accept)
	return g
}

// recordGate appends the state to the register and caches it.
func recordGate(reg *register.Register, s *gate.State) error {
	e := &register.Entry{Kind: gate.EntryKind, Label: s.Status, Rules: s.Rules, Tool: "sentinel gate",
		Reason: s.Reason()}
	if err := reg.Append(e); err != nil {
		return fail(exitError, "recording the gate in the register: %v", err)
	}
	s.Seq, s.EntryHash, s.Time = e.Seq, e.Hash, e.Time
	dir, err := paths.StateDir()
	if err != nil {
		return fail(exitError, "%v", err)
	}
	if err := gate.Save(dir, s); err != nil {
		return fail(exitError, "writing %s: %v", gate.File, err)
	}
	return nil
}

func mustKeepPath(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	dir, err := paths.ConfigDir()
	if err != nil {
		return "", fail(exitError, "%v", err)
	}
	p := filepath.Join(dir, gate.MustKeepFile)
	if _, err := os.Stat(p); err != nil {
		return "", fail(exitError, "no must-keep file at %s (lines from 'sentinel protocol keep', or --must-keep FILE)", p)
	}
	return p, nil
}

func entryRules(reg *register.Register, seq int64) []string {
	e, err := reg.Get(seq)
	if err != nil {
		return nil
	}
	return e.Rules
}

func addRules(to, rules []string) []string {
	for _, r := range rules {
		if !slices.Contains(to, r) {
			to = append(to, r)
		}
	}
	slices.Sort(to)
	return to
}

func fileHash(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}
