package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// FileVersion is the protocol file format this package reads.
const FileVersion = 1

// DateLayout is the format of reading dates ("2026-12-15").
const DateLayout = "2006-01-02"

// Metrics a prediction may name. The set is fixed: a protocol that could
// invent metrics could also invent their meaning after the fact.
const (
	MetricSelfConcordance            = "self_concordance"
	MetricUnattendedShareOfFlags     = "unattended_share_of_flags"
	MetricUnattendedShareTrueDenials = "unattended_share_of_true_denials"
	MetricHarnessStopsPer100Calls    = "harness_stops_per_100_tool_calls"
	MetricSentinelFlagsPer100        = "sentinel_flags_per_100_decisions"
	MetricHumanCellMeasured          = "human_cell_measured"
)

// Metrics lists the metric names in documentation order.
var Metrics = []string{
	MetricSelfConcordance,
	MetricUnattendedShareOfFlags,
	MetricUnattendedShareTrueDenials,
	MetricHarnessStopsPer100Calls,
	MetricSentinelFlagsPer100,
	MetricHumanCellMeasured,
}

// Comparisons. below and above are strict; between includes both ends.
// A boolean metric (human_cell_measured) uses "is" with Expected.
const (
	Below   = "below"
	Above   = "above"
	Between = "between"
	Is      = "is"
)

// File is a protocol file.
type File struct {
	Version        int          `toml:"version" json:"version"`
	CatalogVersion string       `toml:"catalog_version" json:"catalog_version"`
	CatalogHash    string       `toml:"catalog_hash" json:"catalog_hash"`
	Note           string       `toml:"note" json:"note,omitempty"`
	MustKeep       []MustKeep   `toml:"must_keep" json:"must_keep"`
	Predictions    []Prediction `toml:"prediction" json:"predictions"`
}

// MustKeep names a register entry that every rule change must still deny.
// The commitment pins the entry: a file that points at another entry (or a
// different register) is an error, not a silent pass.
type MustKeep struct {
	Seq        int64  `toml:"seq" json:"seq"`
	Commitment string `toml:"commitment" json:"commitment"`
	Note       string `toml:"note" json:"note,omitempty"`
}

// Prediction is one stated expectation.
type Prediction struct {
	ID         string   `toml:"id" json:"id"`
	Metric     string   `toml:"metric" json:"metric"`
	Comparison string   `toml:"comparison" json:"comparison"`
	Value      *float64 `toml:"value" json:"value,omitempty"`
	Low        *float64 `toml:"low" json:"low,omitempty"`
	High       *float64 `toml:"high" json:"high,omitempty"`
	Expected   *bool    `toml:"expected" json:"expected,omitempty"`
	Reading    string   `toml:"reading" json:"reading"`
	Note       string   `toml:"note" json:"note,omitempty"`
}

// ReadingDate parses the prediction's reading date.
func (p Prediction) ReadingDate() (time.Time, error) {
	return time.Parse(DateLayout, p.Reading)
}

// Statement renders the prediction as a sentence fragment
// ("self_concordance below 0.5").
func (p Prediction) Statement() string {
	switch p.Comparison {
	case Between:
		return fmt.Sprintf("%s between %s and %s", p.Metric, fmtNum(deref(p.Low)), fmtNum(deref(p.High)))
	case Is:
		return fmt.Sprintf("%s is %t", p.Metric, p.Expected != nil && *p.Expected)
	}
	return fmt.Sprintf("%s %s %s", p.Metric, p.Comparison, fmtNum(deref(p.Value)))
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}

func fmtNum(f float64) string { return fmt.Sprintf("%g", f) }

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Load reads and validates a protocol file.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Parse decodes and validates a protocol file. Unknown keys are errors: a
// misspelt key would otherwise drop a prediction's bound without a word.
func Parse(data []byte) (*File, error) {
	var f File
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f)
	if err != nil {
		return nil, err
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("unknown key(s): %s", strings.Join(keys, ", "))
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return &f, nil
}

// Validate checks the whole file and reports every problem at once.
func (f *File) Validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if f.Version != FileVersion {
		add("version = %d: this sentinel reads protocol version %d", f.Version, FileVersion)
	}
	if f.CatalogVersion == "" {
		add("catalog_version is missing (the catalog the predictions were written against)")
	}
	if f.CatalogHash == "" {
		add("catalog_hash is missing")
	}
	if err := validateMustKeep(f.MustKeep); err != nil {
		errs = append(errs, err)
	}
	ids := map[string]bool{}
	for i, p := range f.Predictions {
		where := fmt.Sprintf("prediction %d", i+1)
		if p.ID != "" {
			where = fmt.Sprintf("prediction %q", p.ID)
		}
		if p.ID == "" {
			add("%s: id is missing", where)
		} else if ids[p.ID] {
			add("%s: duplicate id", where)
		}
		ids[p.ID] = true
		if err := p.validate(); err != nil {
			add("%s: %v", where, err)
		}
	}
	return errors.Join(errs...)
}

func (p Prediction) validate() error {
	known := false
	for _, m := range Metrics {
		known = known || m == p.Metric
	}
	if !known {
		return fmt.Errorf("metric %q is not one of %s", p.Metric, strings.Join(Metrics, ", "))
	}
	if _, err := p.ReadingDate(); err != nil {
		return fmt.Errorf("reading %q is not a date YYYY-MM-DD", p.Reading)
	}
	if p.Metric == MetricHumanCellMeasured {
		if p.Comparison != Is || p.Expected == nil || p.Value != nil || p.Low != nil || p.High != nil {
			return errors.New(`human_cell_measured takes comparison = "is" and expected = true|false, nothing else`)
		}
		return nil
	}
	if p.Expected != nil {
		return fmt.Errorf("expected is only for %s", MetricHumanCellMeasured)
	}
	switch p.Comparison {
	case Below, Above:
		if p.Value == nil || p.Low != nil || p.High != nil {
			return fmt.Errorf("comparison %q takes value, not low/high", p.Comparison)
		}
	case Between:
		if p.Value != nil || p.Low == nil || p.High == nil {
			return errors.New(`comparison "between" takes low and high, not value`)
		}
		if *p.Low > *p.High {
			return fmt.Errorf("low %g is above high %g", *p.Low, *p.High)
		}
	default:
		return fmt.Errorf("comparison %q is not one of below, above, between", p.Comparison)
	}
	return nil
}

func validateMustKeep(mk []MustKeep) error {
	var errs []error
	seen := map[int64]bool{}
	for i, m := range mk {
		if m.Seq < 1 {
			errs = append(errs, fmt.Errorf("must_keep %d: seq %d is not a register sequence number", i+1, m.Seq))
		}
		if !hex64.MatchString(m.Commitment) {
			errs = append(errs, fmt.Errorf("must_keep seq %d: commitment must be 64 lowercase hex characters", m.Seq))
		}
		if seen[m.Seq] {
			errs = append(errs, fmt.Errorf("must_keep seq %d: listed twice", m.Seq))
		}
		seen[m.Seq] = true
	}
	return errors.Join(errs...)
}

// LoadMustKeep reads a must-keep list. A file ending in .toml is read as
// TOML with [[must_keep]] tables (a protocol file works too); any other file
// holds one entry per line, "SEQ COMMITMENT [note]", with # comments.
func LoadMustKeep(path string) ([]MustKeep, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var mk []MustKeep
	if strings.HasSuffix(path, ".toml") {
		var doc struct {
			MustKeep []MustKeep `toml:"must_keep"`
		}
		if _, err := toml.Decode(string(data), &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		mk = doc.MustKeep
	} else if mk, err = ParseMustKeepLines(data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := validateMustKeep(mk); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sort.Slice(mk, func(i, j int) bool { return mk[i].Seq < mk[j].Seq })
	return mk, nil
}

// ParseMustKeepLines reads the line format "SEQ COMMITMENT [note]".
func ParseMustKeepLines(data []byte) ([]MustKeep, error) {
	var mk []MustKeep
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 {
			return nil, fmt.Errorf("line %d: want SEQ COMMITMENT [note]", n+1)
		}
		var seq int64
		if _, err := fmt.Sscanf(fields[0], "%d", &seq); err != nil || fmt.Sprint(seq) != fields[0] {
			return nil, fmt.Errorf("line %d: %q is not a sequence number", n+1, fields[0])
		}
		note := strings.TrimSpace(strings.TrimPrefix(strings.Join(fields[2:], " "), "#"))
		mk = append(mk, MustKeep{Seq: seq, Commitment: fields[1], Note: note})
	}
	return mk, nil
}
