package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/mod/module"

	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/judge"
)

// versionInfo is what `sentinel version --json` prints. Commit comes from
// the Makefile's -ldflags, else Go's VCS stamp (a build in the work tree),
// else the revision in the module's pseudo-version (go install ...@commit
// or @latest without a tag), and is "unknown" only where none of them is
// there (a tagged go install, a tarball): never guessed. CommitFrom says
// which.
type versionInfo struct {
	Version        string `json:"version"`
	Module         string `json:"module"`
	ModuleVersion  string `json:"module_version,omitempty"`
	CatalogVersion string `json:"catalog_version"`
	CatalogHash    string `json:"catalog_hash"`
	Go             string `json:"go"`
	Platform       string `json:"platform"`
	Commit         string `json:"commit"`
	CommitFrom     string `json:"commit_from"` // ldflags, vcs, module_version or none
	CommitTime     string `json:"commit_time,omitempty"`
	Modified       *bool  `json:"modified,omitempty"` // the work tree had uncommitted changes
}

func buildVersion() (v versionInfo) {
	v = versionInfo{Version: version.Version, Module: "github.com/sentinel-guard/sentinel",
		CatalogVersion: judge.CatalogVersion, CatalogHash: judge.CatalogHash(),
		Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	defer func() {
		if v.Commit == "" {
			v.Commit, v.CommitFrom = "unknown", "none"
		}
	}()
	if version.Commit != "" {
		v.Commit, v.CommitFrom = version.Commit, "ldflags"
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Path != "" {
		v.Module = bi.Main.Path
	}
	// "(devel)" is what a build from a work tree says: no module version.
	if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
		v.ModuleVersion = mv
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if v.Commit == "" {
				v.Commit, v.CommitFrom = s.Value, "vcs"
			}
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			m := s.Value == "true"
			v.Modified = &m
		}
	}
	if v.Commit == "" && module.IsPseudoVersion(v.ModuleVersion) {
		if rev, err := module.PseudoVersionRev(v.ModuleVersion); err == nil {
			v.Commit, v.CommitFrom = rev, "module_version" // the 12-hex prefix
		}
	}
	return v
}

func newVersionCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version, the rule catalog's version, Go and the commit",
		Long: `version prints what a bug report or a protocol file needs: sentinel's version,
the module version when installed with go install, the rule catalog's version
and hash (every decision records both), the Go version and platform, and the
commit it was built from when the build knew it (omitted otherwise).`,
		Example: `  sentinel version
  sentinel version --json | jq -r .catalog_version`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := buildVersion()
			w := cmd.OutOrStdout()
			if asJSON {
				return protoJSON(w, v)
			}
			fmt.Fprintf(w, "sentinel %s\n", v.Version)
			if v.ModuleVersion != "" {
				fmt.Fprintf(w, "module   %s %s\n", v.Module, v.ModuleVersion)
			}
			fmt.Fprintf(w, "catalog  %s (sha256 %s)\n", v.CatalogVersion, v.CatalogHash)
			fmt.Fprintf(w, "go       %s %s\n", v.Go, v.Platform)
			{
				dirty := ""
				if v.Modified != nil && *v.Modified {
					dirty = " (modified)"
				}
				fmt.Fprintf(w, "commit   %s%s %s\n", v.Commit, dirty, strings.TrimSpace(v.CommitTime+" ("+v.CommitFrom+")"))
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
