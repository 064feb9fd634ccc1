package judge

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOverwriteExistingHomeFile: a write that replaces a home file outside
// the project destroys it only where the file exists; emptying one is
// destruction whether or not the judge can see it.
func TestOverwriteExistingHomeFile(t *testing.T) {
	home := filepath.Join(t.TempDir(), "u")
	for _, d := range []string{"proj", "Documents", ".cache/pip"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "Documents/thesis.tex"), []byte("chapter 1"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tool, input string
		noFiles     bool
		want        Verdict
	}{
		{"Bash", "curl -o ~/Documents/thesis.tex https://example.com/", false, Deny},
		{"Bash", "echo draft > ~/Documents/thesis.tex", false, Deny},
		{"Bash", "curl -o ~/Documents/new.pdf https://example.com/", false, Allow},
		{"Bash", "curl -o ~/Documents/thesis.tex https://example.com/", true, Allow}, // replay does not look
		{"Bash", "truncate -s 0 ~/Documents/thesis.tex", true, Deny},
		{"Bash", "truncate -s +1M ~/Documents/thesis.tex", false, Allow}, // grows it
		{"Bash", "truncate -s 0 ~/.cache/pip/log", false, Allow},
		{"Write", `{"file_path":"` + home + `/Documents/thesis.tex","content":""}`, false, Deny},
		{"Write", `{"file_path":"PROJ/notes.txt","content":""}`, false, Allow},
		{"Write", `{"file_path":"` + home + `/Documents/thesis.tex","content":"x"}`, false, Deny},
		{"Write", `{"file_path":"` + home + `/Documents/new.md","content":"x"}`, false, Allow},
		{"Edit", `{"file_path":"` + home + `/Documents/thesis.tex","old_string":"chapter","new_string":"part"}`, false, Allow}, // an edit keeps the rest
		{"Bash", "sed -i 's/chapter/part/' ~/Documents/thesis.tex", false, Allow},
		{"Bash", "cp ./draft.tex ~/Documents/thesis.tex", false, Deny},
		{"Bash", "perl -pi -e 's/.*//' ~/Documents/thesis.tex", false, Deny},
		{"Bash", "sed -i 's|^.*$||g' ~/Documents/gone.tex", false, Deny}, // empties whatever it is
		{"Bash", "perl -pi -e 's/foo/bar/' ./src.txt", false, Allow},
		{"Bash", "echo > ~/Documents/gone.tex", false, Deny}, // a newline replaces whatever it held
		{"Bash", "echo '' > ~/Documents/gone.tex", false, Deny},
		{"Bash", "echo draft > ~/Documents/new.tex", false, Allow},
		{"Bash", "echo > ./build/x.txt", false, Allow},
		{"Bash", "rm ~/*", false, Ask}, // every file at home's top level
		{"Bash", "rm ./*.o", false, Allow},
	}
	for _, tc := range cases {
		if d := decideLinked(t, home, tc.tool, tc.input, tc.noFiles); d.Verdict != tc.want {
			t.Errorf("%s %s (NoFiles %v): %s %v, want %s", tc.tool, tc.input, tc.noFiles, d.Decision, d.RuleIDs(), tc.want)
		}
	}
}

// TestHomeUnderTempIsHome: a home under /tmp or /var/tmp (CI, containers,
// this test's own TempDir) is the operator's, not scratch space: a deleting
// find in it is stopped, while one in a temp dir outside it passes.
func TestHomeUnderTempIsHome(t *testing.T) {
	home := filepath.Join(t.TempDir(), "u") // under /tmp
	if err := os.MkdirAll(filepath.Join(home, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	scratchDir := t.TempDir()
	cases := []struct {
		input string
		want  Verdict
	}{
		{"find ~/Documents -delete", Deny},
		{"find ~ -name '*.md' -delete", Deny},
		{"find " + home + "/Documents -type f -exec rm {} +", Deny},
		{"find " + scratchDir + " -name 'build-*' -delete", Allow},
		{"find . -name '*.pyc' -delete", Allow},
	}
	for _, tc := range cases {
		if d := decideLinked(t, home, "Bash", tc.input, false); d.Verdict != tc.want {
			t.Errorf("%s: %s %v, want %s", tc.input, d.Decision, d.RuleIDs(), tc.want)
		}
	}
}
