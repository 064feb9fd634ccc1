package judge

import "github.com/sentinel-guard/sentinel/programs"

// REMOTE-PACKAGE-SOURCE: an install from a URL, a git repository or an
// index the agent named (programs/pkgsource.go). The install runs the
// package's code, and nothing on the command line says what that code is.

// RuleRemotePackageSource is spelled as its id.
const RuleRemotePackageSource = "REMOTE-PACKAGE-SOURCE"

var _ = rules(Rule{ID: RuleRemotePackageSource, Class: ClassRemoteCode, Severity: SevHigh, Decision: Ask,
	Reason:      "installs a package from a URL, a git repository or another index: the install runs its code",
	Alternative: "install from the project's registry, or ask the operator to vet the source",
	Matches:     "a package manager's install whose operand is a URL or repository (`git+https://`, `github:`, `https://…/x.tgz`) or with an index option (`pip -i/--index-url/--extra-index-url/--find-links`, `npm --registry`, `gem --source`, `cargo --git/--index`), and `npm|pip config set` of the registry or index",
	Fire: []string{"pip install git+https://github.com/x/pkg", "pip install --index-url https://x.example/simple requests", "npm i https://x.example/p.tgz",
		"npm install github:x/pkg", "cargo install --git https://github.com/x/tool", "npm config set registry https://x.example", "pip install 'pkg @ https://x.example/p.whl'"},
	Pass: []string{"pip install requests", "npm install lodash", "pip install -e .", "pip install -r requirements.txt", "cargo install ripgrep", "npm config get registry", "pip install ./dist/pkg-1.0.whl"},
})

var _ = onExec(func(j *judge, x execution) {
	if src, ok := programs.InstallSource(x.e.Name, x.args); ok {
		j.add(RuleRemotePackageSource, x.detail+" (from "+src+")")
	}
})
