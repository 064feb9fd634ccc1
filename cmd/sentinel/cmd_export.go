package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/internal/outfile"
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

func newExportCmd() *cobra.Command {
	var out, disclose, fields, keyFlag string
	var asJSON, includeUnsealed bool
	var sigstoreDir, rekorKeyPath string
	cmd := &cobra.Command{
		Use:   "export --out PATH",
		Short: "Export a self-contained bundle for a third party to verify",
		Long: `export writes a bundle (JSON, format "sentinel-bundle/v1"): every register
entry, the sealed seals with Rekor's stored answers, and the operator's public
key. Anyone with the bundle and nothing else can run
'sentinel verify --bundle PATH'.

Each entry is shown at one of three levels:

  --disclose SEL  in full: every field, the tool input and its salt (the
                  verifier checks the input against the entry's commitment);
  --fields SEL    its fields without the input: kind, time (to the
                  nanosecond), session and tool_use ids, cwd (user and project
                  names), tool, decision, rules, reason text, permission mode,
                  catalog, commitment. 'protocol check --bundle' and 'replay'
                  read these;
  otherwise       withheld: its sequence number, hash and previous hash only.
                  The hash covers every field and the salted input
                  commitment, so nothing (not the cwd, ids, times, rules or
                  reasons) can be read or guessed from it.

So "--disclose none" (the default, with the default "--fields none") shows the
commitment only: a chain of hashes under the seals. Fields cannot be coarsened
(a day for a time, a short cwd): the hash covers them exactly, so a coarsened
entry would not verify. Disclosing more later gives a bundle that verifies
against the same seals. SEL is all, none or e.g. 1,5,7-9.

Sealed artifact statements (protocol files, census) travel in the bundle too,
each with its exact signed text: its sha256 is what the log holds. Pending
seals are not exported: they prove nothing yet.

The bundle stops at the last seal: entries after it are left out (export
says how many), because entries no seal covers prove nothing and make
'verify --bundle' fail. --include-unsealed writes them too (verify then
needs --allow-unsealed). Run 'sentinel seal' first to export everything.

The bundle is written with mode 0600: disclosed inputs may be sensitive.

--sigstore DIR also writes each sealed seal (register and artifact) as a
Sigstore bundle v0.3 (protobuf-specs' types): DIR/seal-N.sigstore.json, the
exact signed text DIR/seal-N.txt, the operator's DIR/operator.pub and, for a
log other than the public-good one, DIR/trusted_root.json naming that log's key
and URL. Each signing key is also written as DIR/operator-<first 12 hex of its
fingerprint>.pub: after a key rotation (keygen --rotate) the seals before it
are the old key's, and the rotation statement (a seal-N.txt too) names both. Then, with no sentinel binary:

  cosign verify-blob --new-bundle-format --bundle seal-1.sigstore.json \
    --key operator.pub [--trusted-root trusted_root.json] seal-1.txt

Exit codes: 0 written; 3 usage; 4 could not read the register or write PATH;
5 no register, or no operator public key for a sealed register.`,
		Example: `  sentinel export --out audit.json                 # hashes only: nothing readable
  sentinel export --out readings.json --fields all # decisions, rules, times; no inputs
  sentinel export --out audit.json --fields all --disclose 12,40-45
  sentinel export --out full.json --disclose all`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fail(exitUsage, "export: --out PATH is required")
			}
			if out == "-" && asJSON {
				return fail(exitUsage, "export: --json prints a summary to stdout, so the bundle cannot go there too (--out -)")
			}
			sel, err := bundle.ParseSelection(disclose)
			if err != nil {
				return fail(exitUsage, "--disclose %v", err)
			}
			fsel, err := bundle.ParseSelection(fields)
			if err != nil {
				return fail(exitUsage, "--fields %v", err)
			}
			keyPath, err := sealKeyPath(keyFlag)
			if err != nil {
				return fail(exitError, "%v", err)
			}
			pubPEM, err := os.ReadFile(seal.PublicKeyPath(keyPath))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fail(exitError, "operator key: %v", err)
			}
			regPath, err := paths.RegisterPath()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			reg, err := register.OpenReadOnly(regPath)
			if err != nil {
				return registerError(regPath, err)
			}
			defer reg.Close()
			defer registerProgress(cmd, reg, "exporting", asJSON, false)()
			if recs, _ := seal.Records(reg.DB(), seal.SubjectRegister); len(recs) > 0 && pubPEM == nil {
				return failCode("no_key", "the register has seals but there is no operator public key at %s", seal.PublicKeyPath(keyPath))
			}
			tmp, err := outfile.Create(out, cmd.OutOrStdout(), 0o600)
			if err != nil {
				return fail(exitError, "export: %v", err)
			}
			defer tmp.Abort()
			c, err := bundle.Write(tmp, reg, pubPEM, bundle.Disclosure{Input: sel, Fields: fsel, IncludeUnsealed: includeUnsealed}, time.Now())
			if err == nil {
				err = tmp.Commit()
			}
			if err != nil {
				return fail(exitError, "export: %v", err)
			}
			if !sel.All {
				for q := range sel.Seqs {
					if q > c.Entries+c.LeftOut {
						fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: note: entry %d does not exist (the register has %d)\n", q, c.Entries+c.LeftOut)
						break
					}
					if q > c.Entries {
						fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: note: entry %d is after the last seal and was left out\n", q)
						break
					}
				}
			}
			if asJSON {
				size := tmp.Written()
				var fp string
				if pub, err := seal.ParsePublicKey(pubPEM); err == nil {
					fp = seal.Fingerprint(pub)
				}
				return protoJSON(cmd.OutOrStdout(), map[string]any{"bundle": out, "entries": c.Entries, "disclosed": c.Input,
					"fields_only": c.Fields, "withheld": c.Withheld, "bytes": size, "operator_fingerprint": fp,
					"sealed_through": c.Sealed, "left_out_unsealed": c.LeftOut, "include_unsealed": includeUnsealed})
			}
			if sigstoreDir != "" {
				if err := exportSigstore(cmd, reg, sigstoreDir, pubPEM, rekorKeyPath); err != nil {
					return err
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d entries (%d disclosed, %d with fields only, %d withheld)\n", out, c.Entries, c.Input, c.Fields, c.Withheld)
			if c.LeftOut > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "left out: entries %d..%d, after the last seal (they prove nothing yet: run sentinel seal, or pass --include-unsealed)\n", c.Sealed+1, c.Sealed+c.LeftOut)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "write the bundle to this file (required; '-': stdout)")
	f.StringVar(&disclose, "disclose", "none", "entries shown in full, with their input: all, none, or e.g. 1,5,7-9")
	f.StringVar(&fields, "fields", "none", "entries shown with their fields but not their input; the rest are withheld (hash only)")
	f.BoolVar(&asJSON, "json", false, "print what was written as JSON")
	f.StringVar(&sigstoreDir, "sigstore", "", "also write every seal as a Sigstore bundle v0.3 into this directory (seal-N.sigstore.json beside the signed text seal-N.txt, operator.pub, and trusted_root.json for a private log): cosign verify-blob --new-bundle-format checks them")
	f.StringVar(&rekorKeyPath, "rekor-key", "", "with --sigstore: the private log's key for trusted_root.json (default: as verify pins it)")
	f.BoolVar(&includeUnsealed, "include-unsealed", false, "also write the entries after the last seal (they prove nothing; verify needs --allow-unsealed)")
	f.StringVar(&keyFlag, "key", "", "the signing key whose .pub goes into the bundle (default: sentinel keygen's)")
	return cmd
}

// exportSigstore writes every sealed record as a Sigstore bundle v0.3 with
// its signed text, the operator key and, for a private log, a trusted root
// naming the log (docs/sealing.md, Sigstore bundles).
func exportSigstore(cmd *cobra.Command, reg *register.Register, dir string, pubPEM []byte, rekorKeyPath string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(exitError, "--sigstore: %v", err)
	}
	var recs []*seal.Record
	for _, subject := range []string{seal.SubjectRegister, seal.SubjectArtifact, seal.SubjectRotation} {
		rs, err := seal.Records(reg.DB(), subject)
		if err != nil {
			return fail(exitError, "--sigstore: %v", err)
		}
		recs = append(recs, rs...)
	}
	w := cmd.OutOrStdout()
	write := func(name string, data []byte) error {
		if err := outfile.WriteFile(filepath.Join(dir, name), w, data, 0o644); err != nil {
			return fail(exitError, "--sigstore: %v", err)
		}
		return nil
	}
	if err := write("operator.pub", pubPEM); err != nil {
		return err
	}
	n, urls, keys := 0, map[string]bool{}, map[string]bool{}
	var first time.Time
	for _, r := range recs {
		if r.Status != seal.StatusSealed {
			continue
		}
		b, err := bundle.SigstoreBundle(r)
		if err != nil {
			return fail(exitError, "--sigstore: seal %d: %v", r.ID, err)
		}
		if err := write(fmt.Sprintf("seal-%d.sigstore.json", r.ID), b); err != nil {
			return err
		}
		if err := write(fmt.Sprintf("seal-%d.txt", r.ID), []byte(r.Checkpoint)); err != nil {
			return err
		}
		// After a key rotation the seals have more than one signer: each
		// key is written as operator-<12 hex of its fingerprint>.pub, to be
		// checked against the fingerprints the rotation statements name.
		if pub, err := seal.ParsePublicKey([]byte(r.PublicKey)); err == nil && !keys[seal.KeyID(pub)] {
			keys[seal.KeyID(pub)] = true
			if err := write("operator-"+seal.KeyID(pub)[:12]+".pub", []byte(r.PublicKey)); err != nil {
				return err
			}
		}
		if t, ok := r.IntegratedAt(); ok && (first.IsZero() || t.Before(first)) {
			first = t
		}
		urls[r.RekorURL] = true
		n++
	}
	rk, _, err := rekorKey(rekorKeyPath)
	if err != nil {
		return err
	}
	if !rk.PublicGood() && n > 0 {
		if len(urls) != 1 {
			return fail(exitError, "--sigstore: the seals name %d logs; a trusted root names one", len(urls))
		}
		var url string
		for u := range urls {
			url = u
		}
		tr, err := bundle.TrustedRoot(rk, url, first.Add(-time.Hour))
		if err != nil {
			return fail(exitError, "--sigstore: %v", err)
		}
		if err := write("trusted_root.json", tr); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "wrote %d Sigstore bundles (v0.3) to %s: cosign verify-blob --new-bundle-format --bundle %s/seal-N.sigstore.json --key %s/operator.pub%s %s/seal-N.txt\n",
		n, dir, dir, dir, map[bool]string{true: "", false: " --trusted-root " + dir + "/trusted_root.json"}[rk.PublicGood()], dir)
	return nil
}
