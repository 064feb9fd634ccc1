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
	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

func newExportCmd() *cobra.Command {
	var out, disclose, keyFlag string
	cmd := &cobra.Command{
		Use:   "export --out PATH",
		Short: "Export a self-contained bundle for a third party to verify",
		Long: `export writes a bundle (JSON, format "sentinel-bundle/v1"): every register
entry, the sealed seals with Rekor's stored answers, and the operator's public
key. Anyone with the bundle and nothing else can run
'sentinel verify --bundle PATH'.

Entries are disclosed selectively. A disclosed entry carries its tool input and
salt (and the verifier checks them against the entry's commitment); the others
carry the commitment only, which still verifies against the chain and the
seals. Disclosing more entries later gives a bundle that verifies against the
same seals. Pending seals are not exported: they prove nothing yet.

The bundle is written with mode 0600: disclosed inputs may be sensitive.

Exit codes: 0 written; 3 usage; 4 could not read the register or write PATH;
5 no register, or no operator public key for a sealed register.`,
		Example: `  sentinel export --out audit.json                 # commitments only
  sentinel export --out audit.json --disclose 12,40-45
  sentinel export --out full.json --disclose all`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fail(exitUsage, "export: --out PATH is required")
			}
			sel, err := bundle.ParseSelection(disclose)
			if err != nil {
				return fail(exitUsage, "%v", err)
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
			if recs, _ := seal.Records(reg.DB(), seal.SubjectRegister); len(recs) > 0 && pubPEM == nil {
				return failCode("no_key", "the register has seals but there is no operator public key at %s", seal.PublicKeyPath(keyPath))
			}
			tmp, err := os.CreateTemp(filepath.Dir(out), ".sentinel-export-*")
			if err != nil {
				return fail(exitError, "%v", err)
			}
			defer os.Remove(tmp.Name())
			n, d, err := bundle.Write(tmp, reg, pubPEM, sel, time.Now())
			if cerr := tmp.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				err = os.Rename(tmp.Name(), out)
			}
			if err != nil {
				return fail(exitError, "export: %v", err)
			}
			if !sel.All {
				for q := range sel.Seqs {
					if q > n {
						fmt.Fprintf(cmd.ErrOrStderr(), "sentinel: note: entry %d does not exist (the register has %d)\n", q, n)
						break
					}
				}
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d entries (%d disclosed, %d as commitments only)\n", out, n, d, n-d)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "write the bundle to this file (required)")
	f.StringVar(&disclose, "disclose", "none", "entries to disclose with their input: all, none, or e.g. 1,5,7-9")
	f.StringVar(&keyFlag, "key", "", "the signing key whose .pub goes into the bundle (default: sentinel keygen's)")
	return cmd
}
