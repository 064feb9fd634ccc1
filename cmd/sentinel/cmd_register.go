package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
)

// registerStatus is what `sentinel register status` reports.
type registerStatus struct {
	Path      string           `json:"path"`
	OK        bool             `json:"ok"`
	Problem   string           `json:"problem,omitempty"`
	Vanished  bool             `json:"vanished"`
	Anchor    *register.Anchor `json:"anchor"`
	Pending   int              `json:"journal_pending"`
	Merged    *int             `json:"merged,omitempty"`
	ResetWith *register.Entry  `json:"reset_entry,omitempty"`
	Warnings  []string         `json:"warnings,omitempty"`
}

func writeRegisterStatus(w io.Writer, st *registerStatus, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.Encode(st)
		return
	}
	fmt.Fprintf(w, "register: %s\n", st.Path)
	if st.Anchor != nil {
		fmt.Fprintf(w, "anchor: register %s, entry %d, head %.16s\n", st.Anchor.ID, st.Anchor.Seq, st.Anchor.Hash)
	} else {
		fmt.Fprintln(w, "anchor: none yet (written by the first append)")
	}
	fmt.Fprintf(w, "journal: %d lines pending\n", st.Pending)
	if st.Merged != nil {
		fmt.Fprintf(w, "merged: %d journal lines\n", *st.Merged)
	}
	if st.ResetWith != nil {
		fmt.Fprintf(w, "reset: new register, entry %d records the loss: %s\n", st.ResetWith.Seq, st.ResetWith.Reason)
	}
	for _, s := range st.Warnings {
		fmt.Fprintln(w, "warning:", s)
	}
	if st.OK {
		fmt.Fprintln(w, "OK")
	} else {
		fmt.Fprintln(w, "FAILED:", st.Problem)
	}
}

// statusOf reads the register's continuity, anchor and journal.
func statusOf(path string) *registerStatus {
	st := &registerStatus{Path: path, OK: true}
	dir := filepath.Dir(path)
	a, err := register.ReadAnchor(dir)
	if err != nil {
		st.Warnings = append(st.Warnings, "anchor: "+err.Error())
	}
	st.Anchor = a
	pending := func() (int, error) { return register.PendingJournal(dir) }
	if ro, err := register.OpenReadOnly(path); err == nil {
		defer ro.Close()
		pending = ro.JournalPending // skips lines a part-way merge has taken
	}
	if n, err := pending(); err != nil {
		st.Warnings = append(st.Warnings, err.Error())
	} else {
		st.Pending = n
	}
	err = register.Continuity(path)
	switch {
	case err != nil:
		st.OK, st.Problem, st.Vanished = false, err.Error(), errors.Is(err, register.ErrVanished)
	}
	return st
}

func newRegisterCmd() *cobra.Command {
	reg := &cobra.Command{
		Use:   "register",
		Short: "Inspect and repair the register's continuity and fallback journal",
		Long: `register looks after the register file itself (the entries are read with
sentinel log and checked with sentinel verify).

  status   is this the register this machine had (the anchor beside it
           remembers its id and last entry), and how many journal lines wait
  merge    merge every pending fallback-journal line now (hook calls merge
           256 lines each; a long journal drains faster this way)
  reset    after a register was deleted, emptied, replaced or rolled back:
           start a new one that records the loss (needs --accept-loss)

While the register is not the one the anchor remembers, every hook call is
answered fail-closed (ask, or deny unattended) and journaled; only reset
ends that state, and the reset is the new register's first entry.

Exit codes (docs/cli.md): 0 ok; 1 the register vanished, or reset found
nothing to reset; 3 usage; 4 could not read or write the register; 5 there
is no register yet.`,
		Example: `  sentinel register status
  sentinel register merge --json
  sentinel register reset --accept-loss`,
	}

	var asJSON bool
	status := &cobra.Command{
		Use:   "status",
		Short: "Say whether the register is the one this machine had, and what the journal holds",
		Example: `  sentinel register status
  sentinel register status --json | jq .problem`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := paths.RegisterPath()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			if err := register.Continuity(path); errors.Is(err, register.ErrNotExist) {
				return registerError(path, err)
			}
			st := statusOf(path)
			writeRegisterStatus(cmd.OutOrStdout(), st, asJSON)
			if !st.OK {
				if st.Vanished {
					return exitCode(exitFailure)
				}
				return exitCode(exitError)
			}
			return nil
		},
	}
	status.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")

	var mergeJSON bool
	merge := &cobra.Command{
		Use:     "merge",
		Short:   "Merge every pending fallback-journal line into the register now",
		Example: `  sentinel register merge`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := paths.RegisterPath()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			if ro, err := register.OpenReadOnly(path); errors.Is(err, register.ErrNotExist) {
				return registerError(path, err)
			} else if err == nil {
				ro.Close()
			}
			r, err := register.Open(path)
			if err != nil {
				return registerError(path, err)
			}
			defer r.Close()
			n, err := r.MergeJournal()
			if errors.Is(err, register.ErrVanished) {
				return fail(exitFailure, "%v", err)
			}
			if err != nil {
				return fail(exitError, "merged %d lines, then: %v", n, err)
			}
			st := statusOf(path)
			st.Merged = &n
			writeRegisterStatus(cmd.OutOrStdout(), st, mergeJSON)
			return nil
		},
	}
	merge.Flags().BoolVar(&mergeJSON, "json", false, "print the result as JSON")

	var accept, resetJSON bool
	reset := &cobra.Command{
		Use:   "reset --accept-loss",
		Short: "Start a new register after the old one vanished, recording the loss",
		Long: `reset is the only way out of the fail-closed state a vanished register
puts the hook in. It moves the old files aside (register.db*, the anchor:
suffix .lost-<time>, never deleted), starts a new register whose first entry
names the lost register, its last entry and what was found, and merges any
decisions journaled meanwhile. The old register's seals stay valid for the
old file; the new register is sealed from its first entry.

It refuses (exit 1) when the register is the one the anchor remembers.`,
		Example: `  sentinel register status          # see what happened first
  sentinel register reset --accept-loss`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !accept {
				return fail(exitUsage, "reset starts a new register and leaves the lost entries lost: pass --accept-loss to confirm")
			}
			path, err := paths.RegisterPath()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			err = register.Continuity(path)
			if err == nil {
				return fail(exitFailure, "the register at %s is the one this machine had; nothing to reset", path)
			}
			found := err.Error()
			var re *register.Error
			if errors.As(err, &re) {
				found = re.Detail
			}
			if errors.Is(err, register.ErrNotExist) {
				return registerError(path, err)
			}
			e, err := register.Reset(path, found)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			st := statusOf(path)
			st.ResetWith = e
			writeRegisterStatus(cmd.OutOrStdout(), st, resetJSON)
			return nil
		},
	}
	reset.Flags().BoolVar(&accept, "accept-loss", false, "confirm that the lost entries stay lost")
	reset.Flags().BoolVar(&resetJSON, "json", false, "print the result as JSON")

	reg.AddCommand(status, merge, reset)
	return reg
}
