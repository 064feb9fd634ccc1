package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/sentinel-guard/sentinel/internal/safefile"
)

// Config file names.
const (
	UserConfigFile    = "config.toml"    // in the operator's config dir
	ProjectConfigFile = ".sentinel.toml" // in the project root
)

// Config is the merged operator (user-level) and project configuration.
// The zero value (and nil) is the shipped default.
type Config struct {
	// Disabled rule ids (user level only; never catastrophic rules).
	Disabled map[string]bool
	// ProtectedPaths may not be written or deleted (deny).
	ProtectedPaths []string
	// AllowedHosts exempt network sends from the exfiltration check
	// (user level only). "*.example.com" matches subdomains.
	AllowedHosts []string
	// RestrictWebFetch makes WebFetch to hosts not in AllowedHosts ask.
	RestrictWebFetch bool
	// Custom are the operator's own rules (class "custom").
	Custom []Rule
	// customTools holds the tool-name glob for custom rules that match a
	// tool instead of a command, keyed by rule id.
	customTools map[string]string

	warnings []string
}

// fileConfig is the TOML format (see docs/rules.md).
type fileConfig struct {
	Disable          []string   `toml:"disable"`
	ProtectedPaths   []string   `toml:"protected_paths"`
	AllowedHosts     []string   `toml:"allowed_hosts"`
	RestrictWebFetch *bool      `toml:"restrict_webfetch"`
	Rule             []fileRule `toml:"rule"`
}

type fileRule struct {
	ID          string `toml:"id"`
	Command     string `toml:"command"`
	Tool        string `toml:"tool"`
	Decision    string `toml:"decision"`
	Reason      string `toml:"reason"`
	Alternative string `toml:"alternative"`
}

var customID = lazyRegexp(`^[A-Z][A-Z0-9-]{1,63}$`)

// LoadConfig reads userDir/config.toml (the operator's, may loosen within
// limits) and projectDir/.sentinel.toml (may only make things stricter).
// Missing files are fine; either dir may be "". Errors name the file and
// the offending key or rule.
func LoadConfig(userDir, projectDir string) (*Config, error) {
	c := &Config{Disabled: map[string]bool{}, customTools: map[string]string{}}
	if userDir != "" {
		if err := c.loadFile(filepath.Join(userDir, UserConfigFile), true); err != nil {
			return nil, err
		}
	}
	if projectDir != "" {
		if err := c.loadFile(filepath.Join(projectDir, ProjectConfigFile), false); err != nil {
			return nil, err
		}
	}
	sort.Strings(c.ProtectedPaths)
	sort.Strings(c.AllowedHosts)
	return c, nil
}

// ParseConfig reads one configuration from TOML text; user says whether it
// has operator (user-level) authority. name is used in messages.
func ParseConfig(name, text string, user bool) (*Config, error) {
	c := &Config{Disabled: map[string]bool{}, customTools: map[string]string{}}
	if err := c.apply(name, text, user); err != nil {
		return nil, err
	}
	return c, nil
}

// MaxConfigBytes caps a configuration file. The agent can replace either
// file (a FIFO, /dev/zero, a huge file): the read is non-blocking, of a
// regular file only, and stops at the cap (package safefile).
const MaxConfigBytes = 1 << 20

// ErrConfigRefused is matched (errors.Is) by a configuration file that was
// refused unread: not a regular file, a symlink out of its directory, or
// over MaxConfigBytes.
var ErrConfigRefused = safefile.ErrRefused

func (c *Config) loadFile(file string, user bool) error {
	b, err := safefile.ReadFile(file, MaxConfigBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return c.apply(file, string(b), user)
}

func (c *Config) apply(name, text string, user bool) error {
	var fc fileConfig
	md, err := toml.Decode(text, &fc)
	if err != nil {
		return fmt.Errorf("config %s: %v", name, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return fmt.Errorf("config %s: unknown key %q", name, und[0].String())
	}
	if c.Disabled == nil {
		c.Disabled = map[string]bool{}
	}
	if c.customTools == nil {
		c.customTools = map[string]string{}
	}
	for _, id := range fc.Disable {
		r, ok := ruleByID(id)
		if !ok {
			return fmt.Errorf("config %s: disable: unknown rule %q (see `sentinel rules`)", name, id)
		}
		if r.Catastrophic {
			return fmt.Errorf("config %s: disable: rule %s is catastrophic and cannot be switched off", name, id)
		}
		if !user {
			c.warnings = append(c.warnings, fmt.Sprintf("%s: ignored disable of %s: a project file can only make rules stricter", name, id))
			continue
		}
		c.Disabled[id] = true
	}
	for _, p := range fc.ProtectedPaths {
		if p == "" {
			return fmt.Errorf("config %s: protected_paths: empty path", name)
		}
		c.ProtectedPaths = append(c.ProtectedPaths, p)
	}
	for _, h := range fc.AllowedHosts {
		if h == "" || strings.ContainsAny(h, "/ :") {
			return fmt.Errorf("config %s: allowed_hosts: %q is not a host name", name, h)
		}
		if !user {
			c.warnings = append(c.warnings, fmt.Sprintf("%s: ignored allowed_hosts %q: a project file can only make rules stricter", name, h))
			continue
		}
		c.AllowedHosts = append(c.AllowedHosts, strings.ToLower(h))
	}
	if fc.RestrictWebFetch != nil {
		if *fc.RestrictWebFetch {
			c.RestrictWebFetch = true
		} else if !user {
			c.warnings = append(c.warnings, fmt.Sprintf("%s: ignored restrict_webfetch = false: a project file can only make rules stricter", name))
		} else {
			c.RestrictWebFetch = false
		}
	}
	for i, fr := range fc.Rule {
		r, err := fr.rule()
		if err != nil {
			return fmt.Errorf("config %s: rule %d: %v", name, i+1, err)
		}
		if _, clash := ruleByID(r.ID); clash {
			return fmt.Errorf("config %s: rule %d: id %s is a shipped rule", name, i+1, r.ID)
		}
		for _, o := range c.Custom {
			if o.ID == r.ID {
				return fmt.Errorf("config %s: rule %d: id %s defined twice", name, i+1, r.ID)
			}
		}
		c.Custom = append(c.Custom, r)
		if fr.Tool != "" {
			c.customTools[r.ID] = fr.Tool
		}
	}
	return nil
}

func (fr fileRule) rule() (Rule, error) {
	if !customID().MatchString(fr.ID) {
		return Rule{}, fmt.Errorf("id %q must be upper case letters, digits and dashes", fr.ID)
	}
	v, ok := ParseVerdict(fr.Decision)
	if !ok || v == Allow {
		return Rule{}, fmt.Errorf("%s: decision must be \"ask\" or \"deny\", not %q", fr.ID, fr.Decision)
	}
	if (fr.Command == "") == (fr.Tool == "") {
		return Rule{}, fmt.Errorf("%s: give exactly one of command or tool", fr.ID)
	}
	if fr.Tool != "" {
		if _, err := path.Match(fr.Tool, ""); err != nil {
			return Rule{}, fmt.Errorf("%s: tool pattern %q: %v", fr.ID, fr.Tool, err)
		}
	}
	reason := fr.Reason
	if reason == "" {
		reason = "operator rule"
	}
	alt := fr.Alternative
	if alt == "" {
		alt = "ask the operator"
	}
	return Rule{ID: fr.ID, Class: ClassCustom, Severity: SevMedium, Decision: v,
		Reason: reason, Alternative: alt, Prefix: strings.Fields(fr.Command)}, nil
}

// Warnings lists configuration entries that were ignored (a project file
// trying to loosen), for `sentinel doctor`.
func (c *Config) Warnings() []string {
	if c == nil {
		return nil
	}
	return append([]string(nil), c.warnings...)
}

// Hash is the sha256 (hex) of the catalog together with this configuration:
// the CatalogHash recorded with every decision made under it.
func (c *Config) Hash() string { return CatalogHashFor(c) }

// canonical serialises what affects decisions, in a stable order.
func (c *Config) canonical() []byte {
	var dis []string
	for id, on := range c.Disabled {
		if on {
			dis = append(dis, id)
		}
	}
	sort.Strings(dis)
	type crule struct {
		Rule
		Tool string `json:"tool,omitempty"`
	}
	var rules []crule
	for _, r := range c.Custom {
		rules = append(rules, crule{r, c.customTools[r.ID]})
	}
	b, _ := json.Marshal(struct {
		Disabled  []string `json:"disabled"`
		Protected []string `json:"protected"`
		Hosts     []string `json:"hosts"`
		WebFetch  bool     `json:"restrict_webfetch"`
		Rules     []crule  `json:"rules"`
	}{dis, sortedCopy(c.ProtectedPaths), sortedCopy(c.AllowedHosts), c.RestrictWebFetch, rules})
	return b
}

func sortedCopy(s []string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// empty reports a configuration that changes no decision: its hash is the
// shipped catalog's.
func (c *Config) empty() bool {
	for _, on := range c.Disabled {
		if on {
			return false
		}
	}
	return len(c.ProtectedPaths) == 0 && len(c.AllowedHosts) == 0 && !c.RestrictWebFetch && len(c.Custom) == 0
}

// disabled reports whether the operator switched a rule off.
func (c *Config) disabled(id string) bool {
	return c != nil && c.Disabled[id]
}

// hostAllowed reports whether host is on the allowed list.
func (c *Config) hostAllowed(host string) bool {
	if c == nil || host == "" {
		return false
	}
	host = strings.ToLower(host)
	for _, a := range c.AllowedHosts {
		if a == host {
			return true
		}
		if strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:]) {
			return true
		}
	}
	return false
}
