package programs

import "strings"

// Package managers, and the runners of a project's or framework's tasks
// (database migrations and resets among them). npm, pnpm and yarn are
// here; their credential printing with them. Interpreters that also
// install or run tasks (bun, python, php) say so in interp.go, the
// version managers that do (poetry, pipenv, brew, conda) in shell.go.

var npmInstalls = []string{"install", "i", "add", "ci"}

var _ = register(
	&Program{Name: "npm", Names: []string{"pnpm", "yarn"}, Kind: CredPrinter | PkgManager | TaskRunner,
		Installs: npmInstalls, InstallRunsCode: true, Manifest: "package.json",
		CodeIn: func(a []string) []Code {
			if len(a) > 0 && (a[0] == "exec" || a[0] == "x") {
				return npmExecCode(a) // npm exec -c 'CMD'
			}
			return nil
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "token", "list") || sub(a, "token", "create") || sub(a, "config", "get") && len(a) > 2 && strings.Contains(a[2], "authToken") || sub(a, "config", "list") && has(a, "-l", "--long", "--json")
		}},
	// npx runs a package's command (npx rimraf DIR is rm -rf DIR).
	&Program{Name: "npx", Names: []string{"bunx", "pnpx"}, Kind: TaskRunner, CodeIn: npmExecCode},
	&Program{Name: "pip", Kind: PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "pipx", Kind: PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "uv", Kind: PkgManager | TaskRunner, Installs: []string{"add", "pip"}, InstallRunsCode: true,
		Launch: launchAfterSub("run", 0, S("p", "python", "with", "project", "directory", "env-file", "package", "extra", "group", "index", "index-url"))},
	&Program{Name: "apt", Names: []string{"apt-get", "dnf", "yum"}, Kind: PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "apk", Kind: PkgManager, Installs: []string{"add"}, InstallRunsCode: true},
	&Program{Name: "cargo", Kind: PkgManager, Installs: []string{"install", "add"}, InstallRunsCode: true},
	&Program{Name: "go", Kind: PkgManager, Installs: []string{"install", "get"}, Opts: S("").Runs("toolexec", RunsShell, "exec", RunsShell)},
	&Program{Name: "gem", Kind: PkgManager, Installs: []string{"install"}, InstallRunsCode: true},
	&Program{Name: "composer", Kind: PkgManager, Installs: []string{"require", "install"}, InstallRunsCode: true},
	&Program{Name: "bundle", Kind: PkgManager | TaskRunner, Installs: []string{"install", "add"}, InstallRunsCode: true,
		Launch: launchAfterSub("exec", 0, S("", "gemfile"))},
	// framework task runners: rails db:drop, manage.py flush, artisan migrate:fresh
	&Program{Name: "rails", Names: []string{"mix"}, Kind: TaskRunner},
	&Program{Name: "rake", Kind: TaskRunner, CodeIn: rakeCode},
	// dotnet tool install / add package fetch from NuGet (--add-source: another feed)
	&Program{Name: "dotnet", Kind: TaskRunner | PkgManager, Installs: []string{"tool", "add"}},
	&Program{Name: "prisma", Names: []string{"alembic", "sequelize", "typeorm", "knex", "doctrine"}, Kind: TaskRunner},
	&Program{Name: "manage.py", Names: []string{"django-admin"}, Kind: TaskRunner},
	&Program{Name: "artisan", Names: []string{"symfony", "console"}, Kind: TaskRunner},
)

// pkgInstallSpec is the grammar of install options that take a value, the
// same across pip and the npm family.
var pkgInstallSpec = S("rceit", "requirement", "constraint", "editable", "index-url",
	"extra-index-url", "target", "prefix", "registry", "cache")

// InstallOperands are the packages a package manager's install names
// (operands and -e/--editable: a directory, a file, a name); ok is false
// when args are not an install. The install subcommand is the first
// operand.
func (p *Program) InstallOperands(args []string) (ops []string, ok bool) {
	if !p.Is(PkgManager) {
		return nil, false
	}
	k := 0
	for k < len(args) && strings.HasPrefix(args[k], "-") {
		k++
	}
	if k == len(args) || !has(p.Installs, args[k]) {
		return nil, false
	}
	o := Parse(args[k+1:], pkgInstallSpec)
	ops = o.Pos
	if v := o.Value('e', "editable"); v != "" {
		ops = append(ops, v)
	}
	return ops, true
}

// ScriptsSet are the package.json scripts an npm (pnpm, yarn, bun) command
// line sets, name to command: npm pkg set scripts.NAME=CMD (several),
// npm set-script NAME CMD. Each is code the package manager runs later.
func ScriptsSet(name string, args []string) map[string]string {
	switch Canon(name) {
	case "npm", "bun":
	default:
		return nil
	}
	out := map[string]string{}
	switch {
	case sub(args, "pkg", "set"):
		for _, a := range args[2:] {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "scripts.") {
				out[strings.TrimPrefix(k, "scripts.")] = v
			}
		}
	case len(args) > 2 && args[0] == "set-script":
		out[args[1]] = args[2]
	}
	return out
}

// npmLifecycle are the scripts the package manager runs on its own, at
// install (and pack or publish): not named by whoever runs it.
var npmLifecycle = map[string]bool{"preinstall": true, "install": true, "postinstall": true, "prepublish": true,
	"preprepare": true, "prepare": true, "postprepare": true, "prepack": true, "postpack": true,
	"dependencies": true}

// NpmLifecycle reports a script npm runs at install without being named.
func NpmLifecycle(script string) bool { return npmLifecycle[script] }
