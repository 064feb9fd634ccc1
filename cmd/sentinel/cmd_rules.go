package main

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/judge"
)

// rulesOutput is the JSON of `sentinel rules --json`.
type rulesOutput struct {
	Version       string       `json:"catalog_version"`
	Hash          string       `json:"catalog_hash"`           // shipped catalog
	EffectiveHash string       `json:"effective_catalog_hash"` // with the operator configuration
	Rules         []judge.Rule `json:"rules"`
	Custom        []judge.Rule `json:"custom,omitempty"`
	Disabled      []string     `json:"disabled,omitempty"`
	Warnings      []string     `json:"warnings,omitempty"`
}

func newRulesCmd() *cobra.Command {
	var asJSON bool
	var class string
	c := &cobra.Command{
		Use:   "rules [--json] [--class CLASS]",
		Short: "List the rule catalog with its version and hash",
		Long: `rules lists the shipped rule catalog: every rule's id, class, severity,
decision (ask or deny; unattended, ask becomes deny), reason and safer
alternative, and whether it is catastrophic (cannot be switched off). It
prints the catalog version and hash every decision records, and the
effective hash with the operator configuration
($XDG_CONFIG_HOME/sentinel/config.toml and ./.sentinel.toml), the
operator's own rules and the rules switched off.

Exit codes: 0 listed, 3 usage, 4 the configuration could not be read.`,
		Example: `  sentinel rules
  sentinel rules --class discard-work
  sentinel rules --json | jq -r '.rules[] | select(.catastrophic) | .id'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := paths.ConfigDir()
			if err != nil {
				return fail(exitError, "%v", err)
			}
			cfg, err := judge.LoadConfig(dir, ".")
			if err != nil {
				return fail(exitError, "%v", err)
			}
			out := rulesOutput{Version: judge.CatalogVersion, Hash: judge.CatalogHash(), EffectiveHash: cfg.Hash(),
				Custom: cfg.Custom, Warnings: cfg.Warnings()}
			for _, r := range judge.Rules() {
				if class == "" || r.Class == class {
					out.Rules = append(out.Rules, r)
				}
			}
			if class != "" && len(out.Rules) == 0 {
				return fail(exitUsage, "no rules in class %q (classes: %v)", class, judge.Classes())
			}
			for id, off := range cfg.Disabled {
				if off {
					out.Disabled = append(out.Disabled, id)
				}
			}
			sort.Strings(out.Disabled)
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				return enc.Encode(out)
			}
			fmt.Fprintf(w, "catalog %s  hash %s\n", out.Version, out.Hash)
			if out.EffectiveHash != out.Hash {
				fmt.Fprintf(w, "effective hash with operator configuration %s\n", out.EffectiveHash)
			}
			last := ""
			for _, r := range out.Rules {
				if r.Class != last {
					fmt.Fprintf(w, "\n%s\n", r.Class)
					last = r.Class
				}
				flags := ""
				if r.Catastrophic {
					flags = " catastrophic"
				}
				if cfg.Disabled[r.ID] {
					flags += " DISABLED"
				}
				fmt.Fprintf(w, "  %-26s %-4s %-8s%s\n    %s\n    safer: %s\n", r.ID, r.Decision, r.Severity, flags, r.Reason, r.Alternative)
			}
			if len(out.Custom) > 0 {
				fmt.Fprintf(w, "\noperator rules\n")
				for _, r := range out.Custom {
					fmt.Fprintf(w, "  %-26s %-4s %v\n    %s\n", r.ID, r.Decision, r.Prefix, r.Reason)
				}
			}
			for _, warn := range out.Warnings {
				fmt.Fprintf(w, "warning: %s\n", warn)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().StringVar(&class, "class", "", "only rules of this class")
	return c
}
