package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// sealConfig is seal.toml in the config directory (kept apart from the
// rules' config.toml, whose reader rejects unknown keys).
type sealConfig struct {
	Seal struct {
		EveryEntries int64  `toml:"every_entries"`
		Every        string `toml:"every"`
		RekorURL     string `toml:"rekor_url"`
		// RekorPublicKey is the PEM file of a private log's key, pinned by
		// verify instead of the public-good key.
		RekorPublicKey string `toml:"rekor_public_key"`
	} `toml:"seal"`
	every time.Duration
}

func loadSealConfig() (*sealConfig, string, error) {
	c := &sealConfig{}
	c.Seal.EveryEntries, c.Seal.Every = 500, "24h"
	dir, err := paths.ConfigDir()
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(dir, "seal.toml")
	md, err := toml.DecodeFile(path, c)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, path, fmt.Errorf("%s: %v", path, err)
	case len(md.Undecoded()) > 0:
		return nil, path, fmt.Errorf("%s: unknown key %q (known: [seal] every_entries, every, rekor_url, rekor_public_key)", path, md.Undecoded()[0].String())
	}
	if c.every, err = time.ParseDuration(c.Seal.Every); err != nil || c.every <= 0 {
		return nil, path, fmt.Errorf("%s: every = %q is not a positive duration (e.g. \"24h\")", path, c.Seal.Every)
	}
	if c.Seal.EveryEntries < 1 {
		return nil, path, fmt.Errorf("%s: every_entries must be at least 1", path)
	}
	return c, path, nil
}

// sealDue says whether --if-due should seal now, and why (not).
func sealDue(reg *register.Register, c *sealConfig, now time.Time) (bool, string, error) {
	recs, err := seal.Records(reg.DB(), seal.SubjectRegister)
	if err != nil {
		return false, "", err
	}
	size, _, err := reg.Head()
	if err != nil {
		return false, "", err
	}
	var covered int64
	var since time.Time
	if n := len(recs); n > 0 {
		last := recs[n-1]
		if last.Status == seal.StatusPending {
			return true, "a pending seal waits for upload", nil
		}
		covered, since = int64(last.Size), last.CreatedAt
	} else if size > 0 {
		first, err := reg.Get(1)
		if err != nil {
			return false, "", err
		}
		since = first.Time
	}
	fresh := size - covered
	switch {
	case fresh <= 0:
		return false, "not due: no entries since the last seal", nil
	case fresh >= c.Seal.EveryEntries:
		return true, fmt.Sprintf("%d new entries (every_entries = %d)", fresh, c.Seal.EveryEntries), nil
	case now.Sub(since) >= c.every:
		return true, fmt.Sprintf("%d new entries, oldest unsealed since %s (every = %s)", fresh, since.UTC().Format(time.RFC3339), c.Seal.Every), nil
	}
	return false, fmt.Sprintf("not due: %d new entries (seals at %d) and %s since the last seal (seals every %s)",
		fresh, c.Seal.EveryEntries, now.Sub(since).Round(time.Second), c.Seal.Every), nil
}

type sealOutput struct {
	Register string         `json:"register"`
	Entries  uint64         `json:"entries"`
	Due      *bool          `json:"due,omitempty"`
	Reason   string         `json:"reason,omitempty"`
	Uploaded []*seal.Record `json:"uploaded"`
	New      *seal.Record   `json:"new"`
	Pending  *seal.Record   `json:"pending"`
	Error    string         `json:"error,omitempty"`
	// Code and Exit go with Error, as in every --json error (docs/cli.md):
	// the report is the one JSON value, so the error is in it.
	Code string `json:"code,omitempty"`
	Exit int    `json:"exit,omitempty"`
}

// recordJSON is a seal record under --json: Rekor's answer embedded as the
// JSON it is, not as a string holding JSON.
type recordJSON struct {
	*seal.Record
	RekorEntry json.RawMessage `json:"rekor_entry,omitempty"`
}

func rawRecord(r *seal.Record) *recordJSON {
	if r == nil {
		return nil
	}
	j := &recordJSON{Record: r}
	if json.Valid([]byte(r.RekorEntry)) {
		j.RekorEntry = json.RawMessage(r.RekorEntry)
	}
	return j
}

type sealOutputJSON struct {
	*sealOutput
	Uploaded []*recordJSON `json:"uploaded"`
	New      *recordJSON   `json:"new"`
	Pending  *recordJSON   `json:"pending"`
}

func describeSeal(r *seal.Record) string {
	s := fmt.Sprintf("seal %d (entries 1..%d)", r.ID, r.Size)
	if e, err := r.Entry(); err == nil {
		s += fmt.Sprintf(": Rekor log index %d, integrated %s, uuid %s", *e.LogIndex,
			time.Unix(*e.IntegratedTime, 0).UTC().Format(time.RFC3339), r.RekorUUID)
	}
	return s
}

func newSealCmd() *cobra.Command {
	var rekorURL, keyFlag string
	var ifDue, asJSON bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "seal",
		Short: "Seal the register in Sigstore Rekor",
		Long: `seal signs a checkpoint of the register (register id, size, RFC 6962 Merkle root
over the entry hashes, chain head, the previous seal's Rekor UUID, time) with the
operator key (see sentinel keygen) and uploads it to a Rekor v1 log as a
hashedrekord. Rekor's complete answer (entry body, integrated time, log index,
signed entry timestamp, inclusion proof, checkpoint) is stored with the seal, so
that sentinel verify can check it offline later.

Sealing reads only the entries appended since the last seal (the Merkle tree is
kept as a compact range), so its cost does not grow with the register.

If Rekor is unreachable or refuses, the signed checkpoint is kept as PENDING,
seal says so and exits 4; the next seal uploads it first. Nothing is lost and
nothing is faked.

--if-due seals only when enough has happened since the last seal, so it can run
from a SessionEnd hook or cron. Thresholds live in seal.toml in the config
directory:

  [seal]
  every_entries = 500               # seal after this many new entries
  every = "24h"                     # or when the oldest unsealed entry is older
  rekor_url = "https://rekor.sigstore.dev"
  rekor_public_key = "/etc/sentinel/rekor.pub"   # a private log's key, for verify

The log is the public-good Rekor (rekor.sigstore.dev) unless --rekor-url,
else $SENTINEL_REKOR_URL, else rekor_url in seal.toml names another.
Exit codes: 0 sealed, up to date or not due (with --if-due: no register yet,
or nothing due, key or no key: the key is read only when a seal is due); 3
usage or bad seal.toml; 4 could not seal (Rekor unreachable: the seal is
pending); 5 no register or no signing key.`,
		Example: `  sentinel seal
  sentinel seal --if-due
  sentinel seal --rekor-url http://127.0.0.1:3000 --json
  SENTINEL_REKOR_URL=https://rekor.internal.example sentinel seal`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, _, err := loadSealConfig()
			if err != nil {
				return fail(exitUsage, "%v", err)
			}
			regPath, err := paths.RegisterPath()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			if _, err := os.Stat(regPath); err != nil {
				if ifDue {
					// Nothing recorded yet is nothing due: a SessionEnd hook on
					// a fresh machine must not fail.
					no := false
					return sealPrint(cmd.OutOrStdout(), asJSON, &sealOutput{Register: regPath, Uploaded: []*seal.Record{},
						Due: &no, Reason: "not due: no register yet"}, nil)
				}
				return registerError(regPath, register.ErrNotExist)
			}
			// --if-due decides before the key is needed: nothing due is exit 0,
			// key or no key.
			var key *ecdsa.PrivateKey
			logURL := rekorURL
			loadKey := func() (err error) {
				logURL, key, err = sealTarget(cmd, rekorURL, keyFlag)
				return err
			}
			if !ifDue {
				if err := loadKey(); err != nil {
					return err
				}
			}
			reg, unlock, err := openLocked(regPath)
			if err != nil {
				return err
			}
			defer unlock()
			out := &sealOutput{Register: regPath, Uploaded: []*seal.Record{}}
			w := cmd.OutOrStdout()
			if ifDue {
				due, why, err := sealDue(reg, cfg, time.Now())
				if err != nil {
					return fail(exitError, "%v", err)
				}
				out.Due, out.Reason = &due, why
				if !due {
					return sealPrint(w, asJSON, out, nil)
				}
				if err := loadKey(); err != nil {
					return err
				}
			}
			res, err := seal.SealRegister(context.Background(), reg.DB(), seal.RegisterSource(reg),
				seal.Options{RekorURL: logURL, Key: key, Timeout: timeout})
			if res != nil {
				out.Entries, out.Uploaded, out.New, out.Pending = res.Size, append(out.Uploaded, res.Uploaded...), res.New, res.Pending
			}
			if err != nil && res == nil {
				return fail(exitError, "seal: %v", err)
			}
			return sealPrint(w, asJSON, out, err)
		},
	}
	f := cmd.Flags()
	f.StringVar(&rekorURL, "rekor-url", seal.DefaultRekorURL, "the Rekor v1 log to seal in (default from seal.toml, else the public-good log)")
	f.BoolVar(&ifDue, "if-due", false, "seal only when enough new entries or time have passed (see seal.toml)")
	f.StringVar(&keyFlag, "key", "", "the signing key (default: the key made by sentinel keygen)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.DurationVar(&timeout, "timeout", seal.DefaultTimeout, "time allowed for each Rekor request")
	return cmd
}

func sealPrint(w io.Writer, asJSON bool, out *sealOutput, upErr error) error {
	if upErr != nil {
		out.Error, out.Code, out.Exit = upErr.Error(), genericCode(exitError), exitError
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		js := sealOutputJSON{sealOutput: out, Uploaded: []*recordJSON{}, New: rawRecord(out.New), Pending: rawRecord(out.Pending)}
		for _, r := range out.Uploaded {
			js.Uploaded = append(js.Uploaded, rawRecord(r))
		}
		if err := enc.Encode(js); err != nil {
			return fail(exitError, "%v", err)
		}
	} else {
		if out.Reason != "" {
			fmt.Fprintln(w, out.Reason)
		}
		for _, r := range out.Uploaded {
			fmt.Fprintf(w, "uploaded pending %s\n", describeSeal(r))
		}
		switch {
		case out.Pending != nil:
			fmt.Fprintf(w, "PENDING: seal %d (entries 1..%d) is signed and kept, but %v.\n", out.Pending.ID, out.Pending.Size, upErr)
			fmt.Fprintln(w, "Run 'sentinel seal' again when the log is reachable: it uploads the pending seal first.")
		case out.New != nil:
			fmt.Fprintf(w, "sealed %s\n", describeSeal(out.New))
		case out.Due != nil && !*out.Due:
		case out.Entries == 0:
			fmt.Fprintln(w, "the register is empty: nothing to seal")
		default:
			fmt.Fprintf(w, "up to date: all %d entries are sealed\n", out.Entries)
		}
	}
	if upErr != nil {
		return exitCode(exitError)
	}
	return nil
}

// openLocked opens the register for sealing under the seal lock: one seal
// run at a time (two SessionEnd hooks may fire together), since each
// checkpoint names its predecessor. The returned func unlocks and closes.
func openLocked(regPath string) (*register.Register, func(), error) {
	reg, err := register.Open(regPath)
	if err != nil {
		return nil, nil, fail(exitError, "%v", err)
	}
	unlock, err := sealLock(reg.Dir())
	if err != nil {
		reg.Close()
		return nil, nil, fail(exitError, "%v", err)
	}
	return reg, func() { unlock(); reg.Close() }, nil
}

// sealLock takes an exclusive lock on seal.lock beside the register,
// waiting for another seal run to finish.
func sealLock(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, "seal.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("seal lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("seal lock: %v", err)
	}
	return func() { f.Close() }, nil
}
