package main

import (
	"errors"
	"strings"
	"testing"
)

// TestStateEditsKeepTheRest: tables are removed and renamed by their
// headers wherever the file's other syntax could mislead a line scanner;
// every other byte stays.
func TestStateEditsKeepTheRest(t *testing.T) {
	in := strings.Join([]string{
		`# top comment`,
		`model = "m" # [hooks.state."fake"]`,
		`matrix = [`,
		`  [1, 2],`,
		`  ["[x]", '[y]'],`,
		`]`,
		`notes = """`,
		`[hooks.state."in-a-string"]`,
		`trusted_hash = "no"`,
		`"""`,
		`lit = '''`,
		`[not.a.table]`,
		`'''`,
		``,
		`[ hooks . state . "a:pre_tool_use:1:0" ]   # spaced, with a comment`,
		`trusted_hash = "sha256:aa"`,
		``,
		`# the user's comment about b`,
		`[hooks.state.'b:pre_tool_use:2:0']`,
		`trusted_hash = "sha256:bb"`,
		`enabled = true`,
		``,
		`[projects."/p"]`,
		`trust_level = "trusted"`,
	}, "\r\n") + "\r\n"
	out, err := applyStateEdits(in, []stateEdit{
		{Op: "remove", From: "a:pre_tool_use:1:0"},
		{Op: "rename", From: "b:pre_tool_use:2:0", To: "b:pre_tool_use:1:0"},
		{Op: "set", To: `q"uote\:pre_tool_use:2:0`, Hash: "sha256:cc"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`notes = """`, `[hooks.state."in-a-string"]`, `[not.a.table]`, `# the user's comment about b`,
		`[hooks.state."b:pre_tool_use:1:0"]`, "enabled = true", `[projects."/p"]`, `[hooks.state."q\"uote\\:pre_tool_use:2:0"]`} {
		if !strings.Contains(out, want) {
			t.Errorf("lost %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sha256:aa") || strings.Contains(out, "b:pre_tool_use:2:0") {
		t.Errorf("removed or renamed table still there:\n%s", out)
	}
	d, err := parseCodexTOML(out)
	if err != nil {
		t.Fatal(err)
	}
	st := hooksState(d.data)
	if len(st) != 2 || st[`q"uote\:pre_tool_use:2:0`] == nil {
		t.Errorf("state after the edit: %v", st)
	}
}

// TestStateEditsRefuseOtherForms: an entry that is not its own table is
// not edited, and a file that would decode differently is not written.
func TestStateEditsRefuseOtherForms(t *testing.T) {
	for _, in := range []string{
		"[hooks.state]\n\"k\".trusted_hash = \"sha256:aa\"\n",
		"[hooks]\nstate = { \"k\" = { trusted_hash = \"sha256:aa\" } }\n",
	} {
		_, err := applyStateEdits(in, []stateEdit{{Op: "remove", From: "k"}})
		if !errors.Is(err, errNotTable) {
			t.Errorf("%q: got %v, want a refusal", in, err)
		}
	}
	// An inline hooks.state cannot take a new [hooks.state."k"] table.
	_, err := applyStateEdits("[hooks]\nstate = {}\n", []stateEdit{{Op: "set", To: "k", Hash: "sha256:aa"}})
	if err == nil || !strings.Contains(err.Error(), "nothing written") {
		t.Errorf("set under an inline hooks.state: %v", err)
	}
}
