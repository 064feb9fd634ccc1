package programs

import (
	"strings"
	"testing"
)

func TestEnvPrinters(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{`awk BEGIN{for(k_in_ENVIRON)print}`, true},
		{`awk BEGIN{print_ENVIRON["HOME"]}`, false},
		{"jq -n env", true},
		{"jq -n $ENV", true},
		{"jq -n $ENV.HOME", false},
		{"jq .env package.json", false},
		{"perl -e print_%ENV", true},
		{"perl -le print_$ENV{HOME}", false},
		{"node -p process.env", true},
		{"node -p process.env.HOME", false},
		{"node --print JSON.stringify(process.env)", true},
		{"deno eval console.log(Deno.env.toObject())", false}, // deno eval: not an inline option
	} {
		f := strings.Fields(tc.cmd)
		for i := range f {
			f[i] = strings.ReplaceAll(f[i], "_", " ")
		}
		if got := Lookup(f[0]).PrintsEnv(f[1:]); got != tc.want {
			t.Errorf("%s: PrintsEnv %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

func TestFiltersEnv(t *testing.T) {
	for _, tc := range []struct {
		args string
		want bool
	}{
		{"-i proxy", true},
		{"-E ^(LANG|LC_)", true},
		{"-v -i -E key|token|secret|pass", true},
		{"-i token", false},
		{"AWS", false},
		{"-v PATH", false},
		{"-i .", false},
		{"proxy file.txt", false},
	} {
		if got := FiltersEnv("grep", strings.Fields(tc.args)); got != tc.want {
			t.Errorf("grep %s: FiltersEnv %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestGitPrints(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"show HEAD:.env", ".env HEAD:.env"},
		{"--no-pager cat-file -p :0:.env", ".env :0:.env"},
		{"log -p -- .env", ".env"},
		{"log -- .env", ""},
		{"grep -n TODO", ""},
		{"grep -h . -- .env", ".env"},
		{"diff --no-index a b", "a b"},
		{"hash-object README.md", ""},
		{"status", ""},
	} {
		if got := strings.Join(gitPrints(strings.Fields(tc.args)), " "); got != tc.want {
			t.Errorf("git %s: %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestLinks(t *testing.T) {
	for _, tc := range []struct {
		cmd, targets, name string
		intoDir            bool
	}{
		{"ln -s ~ h", "~", "h", false},
		{"ln -sfn a b", "a", "b", false},
		{"ln -s x", "x", ".", true},
		{"ln a b dir", "a b", "dir", true},
		{"ln -t dir a", "a", "dir", true},
		{"cp -s a b", "a", "b", false},
		{"cp a b", "", "", false},
		{"mount --bind ~ t", "~", "t", false},
		{"mount -o ro,bind /src t", "/src", "t", false},
		{"mount /dev/sdb1 /mnt", "", "", false},
		{"bindfs ~ t", "~", "t", false},
	} {
		f := strings.Fields(tc.cmd)
		ts, name, into := Lookup(f[0]).Links(f[1:])
		if strings.Join(ts, " ") != tc.targets || name != tc.name || into != tc.intoDir {
			t.Errorf("%s: %v %q %v, want %s %q %v", tc.cmd, ts, name, into, tc.targets, tc.name, tc.intoDir)
		}
	}
}

func TestCodeArgs(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []int
	}{
		{"grep -r .env src", []int{1}},
		{"grep -e x .env", nil},
		{"sed -n p .env", []int{1}},
		{"node -p process.env", []int{1}},
		{"python3 -c x .env", []int{1}},
		{"python3 script.py .env", nil},
		{"cat .env", nil},
	} {
		f := strings.Fields(tc.cmd)
		got := CodeArgs(f[0], f[1:])
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.cmd, got, tc.want)
			continue
		}
		for _, i := range tc.want {
			if !got[i] {
				t.Errorf("%s: %v, want %v", tc.cmd, got, tc.want)
			}
		}
	}
}

// TestEnvNamesPrinted: the variables printed by name, one a case ("" none).
func TestEnvNamesPrinted(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string
	}{
		{"declare -p GITHUB_TOKEN", "GITHUB_TOKEN"},
		{"typeset -p X", "X"},
		{"declare -x X=1", ""},
		{"set -p", ""},
		{`awk BEGIN{print·ENVIRON["TOKEN"]}`, "TOKEN"},
		{`awk -f x.awk`, ""},
		{"jq -n env.TOKEN", "TOKEN"},
		{"jq -rn $ENV.TOKEN", "TOKEN"},
		{`jq -n env["TOKEN"]`, "TOKEN"},
		{"jq .x.env.TOKEN f.json", ""},
		{"cat env.TOKEN", ""},
	} {
		f := strings.Fields(tc.cmd)
		for i := range f {
			f[i] = strings.ReplaceAll(f[i], "·", " ")
		}
		got := strings.Join(EnvNamesPrinted(f[0], f[1:]), ",")
		if got != tc.want {
			t.Errorf("EnvNamesPrinted(%q) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

// TestDecryptsToOutput: a decrypter prints unless told to write a file.
func TestDecryptsToOutput(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"gpg -d s.gpg", true}, {"gpg --decrypt -o - s.gpg", true}, {"gpg -d -o out s.gpg", false},
		{"gpg --output=out --decrypt s.gpg", false}, {"gpg --verify s.sig", false}, {"gpg --export-secret-keys", true},
		{"age -d -i k.txt x.age", true}, {"age -d -oout x.age", false}, {"age -e -r age1x -o out.age f", false},
	} {
		f := strings.Fields(tc.cmd)
		if got := Lookup(f[0]).PrintsCredentials(f[1:]); got != tc.want {
			t.Errorf("%s: PrintsCredentials = %v, want %v", tc.cmd, got, tc.want)
		}
	}
}
