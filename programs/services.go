package programs

import "strings"

// Services: the programs a tool host stands for. An MCP server is named
// by the service it fronts (mcp__kubernetes__..., mcp__redis__...), not by
// a command name: its tools do that program's work, so its calls are
// judged as the program's command lines (issue 19: MCP tool arguments
// typed like any other operand). The names are those a server is
// commonly given; a server also names its program directly (kubectl,
// redis-cli).
var serviceProgram = map[string]string{
	"kubernetes": "kubectl", "k8s": "kubectl", "kube": "kubectl", "openshift": "kubectl",
	"redis": "redis-cli", "valkey": "redis-cli",
	"mongodb": "mongosh", "mongo": "mongosh",
	"postgres": "psql", "postgresql": "psql", "pg": "psql", "neon": "psql",
	"mysql": "mysql", "mariadb": "mysql",
	"sqlite": "sqlite3", "duckdb": "sqlite3",
	"github": "gh", "gitlab": "glab",
	"cloudflare": "wrangler", "workers": "wrangler",
	"aws": "aws", "gcp": "gcloud", "gcloud": "gcloud", "azure": "az",
	"terraform": "terraform", "opentofu": "terraform",
	"docker": "docker", "podman": "docker",
	"vercel": "vercel", "netlify": "netlify", "heroku": "heroku", "fly": "flyctl",
	"supabase": "supabase", "helm": "helm", "pulumi": "pulumi",
}

// Service is the program a service name (an MCP server's name, or one
// word of it: aws-api, mcp-server-kubernetes) stands for, or nil.
func Service(server string) *Program {
	s := strings.ToLower(server)
	if p := Lookup(s); p != nil && serviceWorthy(p) {
		return p
	}
	if n, ok := serviceProgram[s]; ok {
		return Lookup(n)
	}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if n, ok := serviceProgram[w]; ok {
			return Lookup(n)
		}
		if p := Lookup(w); p != nil && serviceWorthy(p) {
			return p
		}
	}
	return nil
}

// serviceWorthy: a program whose work a service does, not a word that
// happens to name a command (fs, shell, fetch, browser).
func serviceWorthy(p *Program) bool {
	return p.Kind.Any(Database | Cloud | Cluster | Infra)
}

// CodeLang is the reader of code written in the language a tool's
// argument or name gives ("python3", "JavaScript", "bash", "sql"): one of
// the languages package parse reads (python, js, ruby, php, perl), "shell",
// "sql", "redis", "mongo", or "" when none reads it.
func CodeLang(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "py", "python", "python2", "python3", "ipython", "jupyter", "notebook", "ipynb", "pyodide":
		return "python"
	case "js", "javascript", "node", "nodejs", "ts", "typescript", "deno", "bun":
		return "js"
	case "rb", "ruby":
		return "ruby"
	case "php":
		return "php"
	case "pl", "perl":
		return "perl"
	case "sh", "bash", "shell", "zsh", "dash", "ksh", "terminal", "console", "posix":
		return "shell"
	case "sql", "postgres", "postgresql", "mysql", "sqlite", "tsql", "plpgsql":
		return "sql"
	case "redis":
		return "redis"
	case "mongo", "mongodb", "mongosh":
		return "mongo"
	}
	if p := Lookup(n); p != nil {
		switch {
		case p.Is(Interpreter) && Scanned(p.Lang):
			return p.Lang
		case p.Is(Shell) && p.Lang == "":
			return "shell"
		}
	}
	return ""
}

// CodeShell is the shell text that runs code of lang (a CodeLang) as
// the program reading that language would: python as a notebook cell
// (CellShell: its !lines are shell), js by node -e, sql by psql -c, a
// redis command by redis-cli, shell as itself. ok is false for a language
// no reader reads.
func CodeShell(lang, code string) (string, bool) {
	switch lang {
	case "shell":
		return code, true
	case "python":
		return CellShell(code), true
	case "redis":
		return "redis-cli " + quoteArgv(strings.Fields(code)), true
	}
	if run, ok := codeRunners[lang]; ok {
		return run + " " + shellQuote(code), true
	}
	return "", false
}

// codeRunners run code of a language given inline.
var codeRunners = map[string]string{
	"js": "node -e", "ruby": "ruby -e", "php": "php -r", "perl": "perl -e", "sql": "psql -c", "mongo": "mongosh --eval",
}

// QuoteArgv is the shell text that runs argv as it stands.
func QuoteArgv(argv []string) string { return quoteArgv(argv) }

// CodeShape is the language code is written in by its shape, for code
// whose tool names none and that does not parse as shell: python's
// imports, JavaScript's require and arrow functions, PHP's opening tag,
// Ruby's requires and blocks; "" when nothing says.
func CodeShape(code string) string {
	t := strings.TrimSpace(code)
	switch {
	case strings.HasPrefix(t, "<?php"):
		return "php"
	case strings.Contains(t, "require(") || strings.Contains(t, "=>") || strings.Contains(t, "console.") ||
		strings.Contains(t, "process.") || strings.Contains(t, "import(") || strings.Contains(t, "await "):
		return "js"
	}
	for _, line := range strings.Split(t, "\n") {
		l := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "from ") && strings.Contains(l, " import "),
			strings.HasPrefix(l, "def ") || strings.HasPrefix(l, "print("):
			return "python"
		case strings.HasPrefix(l, "require '") || strings.HasPrefix(l, "require \"") || strings.HasPrefix(l, "puts "):
			return "ruby"
		}
	}
	return ""
}
