package protocol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExampleProtocolLoads(t *testing.T) {
	f, err := Load("../testdata/protocol/week12.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Predictions) != 5 || len(f.MustKeep) != 2 {
		t.Fatalf("got %d predictions, %d must_keep", len(f.Predictions), len(f.MustKeep))
	}
	seen := map[string]bool{}
	for _, p := range f.Predictions {
		seen[p.Metric] = true
		if p.Reading != "2026-12-15" {
			t.Errorf("%s: reading %s", p.ID, p.Reading)
		}
	}
	for _, m := range []string{MetricSelfConcordance, MetricUnattendedShareOfFlags,
		MetricUnattendedShareTrueDenials, MetricHarnessStopsPer100Calls, MetricHumanCellMeasured} {
		if !seen[m] {
			t.Errorf("example lacks %s", m)
		}
	}
}

func TestParseRejects(t *testing.T) {
	head := "version = 1\ncatalog_version = \"v\"\ncatalog_hash = \"h\"\n"
	cases := map[string]struct{ body, want string }{
		"unknown key":     {head + "[[prediction]]\nid=\"a\"\nmetric=\"self_concordance\"\ncomparison=\"below\"\nvalu=0.5\nreading=\"2026-12-15\"\n", "unknown key(s): prediction.valu"},
		"unknown metric":  {head + "[[prediction]]\nid=\"a\"\nmetric=\"precision\"\ncomparison=\"below\"\nvalue=0.5\nreading=\"2026-12-15\"\n", `metric "precision" is not one of`},
		"between value":   {head + "[[prediction]]\nid=\"a\"\nmetric=\"self_concordance\"\ncomparison=\"between\"\nvalue=0.5\nreading=\"2026-12-15\"\n", "takes low and high"},
		"low above high":  {head + "[[prediction]]\nid=\"a\"\nmetric=\"self_concordance\"\ncomparison=\"between\"\nlow=2.0\nhigh=1.0\nreading=\"2026-12-15\"\n", "low 2 is above high 1"},
		"bad date":        {head + "[[prediction]]\nid=\"a\"\nmetric=\"self_concordance\"\ncomparison=\"below\"\nvalue=0.5\nreading=\"15.12.2026\"\n", "not a date"},
		"bool bound":      {head + "[[prediction]]\nid=\"a\"\nmetric=\"human_cell_measured\"\ncomparison=\"below\"\nvalue=1.0\nreading=\"2026-12-15\"\n", `comparison = "is"`},
		"duplicate id":    {head + strings.Repeat("[[prediction]]\nid=\"a\"\nmetric=\"self_concordance\"\ncomparison=\"below\"\nvalue=0.5\nreading=\"2026-12-15\"\n", 2), "duplicate id"},
		"version":         {"version = 2\ncatalog_version = \"v\"\ncatalog_hash = \"h\"\n", "reads protocol version 1"},
		"no catalog":      {"version = 1\n", "catalog_version is missing"},
		"bad commitment":  {head + "[[must_keep]]\nseq = 3\ncommitment = \"abc\"\n", "must_keep seq 3: commitment must be 64"},
		"not toml at all": {"version = = 1", "expected value"},
	}
	for name, c := range cases {
		_, err := Parse([]byte(c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}

func TestLoadMustKeepFormats(t *testing.T) {
	dir := t.TempDir()
	c := strings.Repeat("ab", 32)
	lines := filepath.Join(dir, "keep.txt")
	os.WriteFile(lines, []byte("# the hits\n12 "+c+" # reset to remote\n\n3 "+c+"\n"), 0o644)
	mk, err := LoadMustKeep(lines)
	if err != nil {
		t.Fatal(err)
	}
	if len(mk) != 2 || mk[0].Seq != 3 || mk[1].Seq != 12 || mk[1].Note != "reset to remote" {
		t.Fatalf("got %+v", mk)
	}
	tomlPath := filepath.Join(dir, "keep.toml")
	os.WriteFile(tomlPath, []byte("[[must_keep]]\nseq = 7\ncommitment = \""+c+"\"\n"), 0o644)
	if mk, err = LoadMustKeep(tomlPath); err != nil || len(mk) != 1 || mk[0].Seq != 7 {
		t.Fatalf("toml: %+v %v", mk, err)
	}
	os.WriteFile(lines, []byte("x12 "+c+"\n"), 0o644)
	if _, err := LoadMustKeep(lines); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("bad line: %v", err)
	}
	os.WriteFile(lines, []byte("4 "+c+"\n4 "+c+"\n"), 0o644)
	if _, err := LoadMustKeep(lines); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Fatalf("duplicate: %v", err)
	}
}
