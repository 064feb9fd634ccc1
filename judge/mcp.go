package judge

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// MCP tools' arguments typed like any other operand (issue 19): an
// mcp__SERVER__TOOL call is judged as the reads, writes, deletions and
// commands its arguments amount to. Each argument is typed once, here, by
// its key's shape and its value's (mcpArgType): code (a command, a script,
// keys typed into a terminal, input written to a process), SQL, a path, a
// destination, a URL (a file:// URL is a path), a file's content, a bare
// name joined to a directory, an action word, a git ref. What the tool
// does to its paths is read from its verbs (its name's words, and an
// action argument's: str_replace_editor {command: create}): a write, a
// move, a delete or an emptying; a read verb reads them; a tool with no
// verb known both reads and writes them (an unknown verb on a protected
// path stops). Code is judged by the reader of its language (a language
// argument, else the server's or tool's name, else the shell; code that
// is not shell and names no language is judged by what it embeds). A
// server that fronts a program of the model (kubernetes: kubectl, redis:
// redis-cli, terraform, vercel) has its call judged as that program's
// command line; a database server's drop, flush or unbounded delete is
// destructive; a hosting server's ref deletion or forced update is a
// force push.

type mcpArg int

const (
	mcpOther   mcpArg = iota
	mcpCode           // code to run: its reader is the tool's language
	mcpSQL            // a statement for a data store
	mcpLang           // names the language of the code arguments
	mcpPath           // a path the tool acts on
	mcpSource         // what a copy or move takes (read, or moved away)
	mcpDest           // where a move or copy puts its sources
	mcpURL            // a URL (file:// is a path)
	mcpContent        // the text written to the tool's path
	mcpDir            // a directory a bare name is joined to
	mcpName           // a bare name (joined to mcpDir), or a path
	mcpRef            // a git branch or ref
)

// mcpArgType types one argument by its key (lower case). Keys ending in
// path, _file or _dir are paths; the rest are named.
func mcpArgType(k string) mcpArg {
	switch k {
	case "command", "cmd", "cmds", "commands", "script", "scripts", "shell", "commandline", "command_line", "cli_command",
		"shell_command", "input", "code", "source_code", "stdin", "keys", "cell", "snippet", "argv":
		return mcpCode
	case "sql", "statement", "statements", "migration", "ddl":
		return mcpSQL
	case "query":
		return mcpSQL // SQL only on a database server or when it reads as SQL (mcpTool)
	case "language", "lang", "kernel", "runtime", "interpreter":
		return mcpLang
	case "path", "paths", "file", "files", "file_path", "filepath", "filename", "filenames", "notebook_path",
		"root", "cwd", "target", "workdir", "working_directory":
		return mcpPath
	case "source", "src", "from", "old_path", "oldpath", "source_path", "sources":
		return mcpSource
	case "destination", "dest", "dst", "to", "new_path", "newpath", "destination_path", "target_path":
		return mcpDest
	case "url", "uri", "urls", "uris", "endpoint", "href", "link":
		return mcpURL
	case "content", "contents", "text", "body", "data", "file_text", "new_str", "new_string", "new_content", "new_source":
		return mcpContent
	case "dir", "directory", "folder", "parent", "parent_dir", "location":
		return mcpDir
	case "name", "file_name", "basename":
		return mcpName
	case "branch", "ref", "branch_name", "ref_name", "tag":
		return mcpRef
	}
	switch {
	case strings.HasSuffix(k, "path"), strings.HasSuffix(k, "_file"):
		return mcpPath
	case strings.HasSuffix(k, "_dir"), strings.HasSuffix(k, "_directory"):
		return mcpDir
	case strings.HasSuffix(k, "_url") || strings.HasSuffix(k, "_uri"):
		return mcpURL
	case strings.HasSuffix(k, "_command") || strings.HasSuffix(k, "_script") || strings.HasSuffix(k, "_code"):
		return mcpCode
	}
	return mcpOther
}

// mcpVerbs sort a tool's words: writes, deletes, emptyings, reads, runs.
var (
	mcpWriteVerbs  = []string{"write", "edit", "create", "move", "rename", "copy", "put", "upload", "save", "append", "patch", "update", "set", "mkdir", "overwrite", "replace", "insert", "modify", "store", "touch", "truncate", "empty", "clear", "new", "make"}
	mcpDeleteVerbs = []string{"delete", "remove", "rm", "rmdir", "unlink", "trash", "purge", "del", "erase", "destroy", "wipe", "shred", "drop"}
	mcpEmptyVerbs  = []string{"truncate", "empty", "clear", "wipe", "blank", "zero"}
	mcpReadVerbs   = []string{"read", "get", "list", "ls", "view", "show", "search", "find", "cat", "open", "stat", "info", "describe", "fetch", "download", "head", "tail", "tree", "grep", "glob", "inspect", "diff", "count", "exists", "check", "query", "load", "navigate", "browse", "preview", "watch", "print", "lookup", "explain", "status", "summarize"}
	mcpRunVerbs    = []string{"run", "exec", "execute", "shell", "terminal", "command", "bash", "spawn", "cli", "eval", "evaluate", "interact", "send", "start", "process", "repl"}
	// a tool of these names deletes a whole tree (rm -rf), not one file
	mcpTreeWords = []string{"directory", "dir", "folder", "rmdir", "tree", "recursive"}
	// words of a tool's name that join its verbs, not objects
	mcpFiller = []string{"in", "to", "from", "of", "for", "by", "the", "a", "an", "on", "or", "and", "with", "mcp", "tool", "api"}
)

// mcpCall is one call as typed.
type mcpCall struct {
	tool  string
	words []string // the verbs and objects: the tool name's and an action argument's
	prog  *programs.Program
	lang  string // the reader of its code: a programs.CodeLang, or ""
	// browser: its code runs in a web page, whose cookies and storage are
	// the user's sessions
	browser bool
}

func (c *mcpCall) has(vs []string) bool {
	for _, w := range c.words {
		if contains(vs, w) {
			return true
		}
	}
	return false
}

// mcpWords splits a tool's or server's name into its lower-case words
// (snake, kebab, dotted and camel case).
func mcpWords(name string) []string {
	var b strings.Builder
	for i, r := range name {
		if r >= 'A' && r <= 'Z' && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.FieldsFunc(strings.ToLower(b.String()), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
}

func (j *judge) mcpTool(tool string, obj map[string]any) error {
	rest := strings.TrimPrefix(tool, "mcp__")
	server, name, _ := strings.Cut(rest, "__")
	if name == "" {
		name = server
	}
	c := &mcpCall{tool: tool, words: mcpWords(name), prog: programs.Service(server)}
	if c.prog == nil {
		c.prog = programs.Service(name)
	}
	keys := make([]string, 0, len(obj))
	typed := map[string]mcpArg{}
	for k := range obj {
		keys = append(keys, k)
		typed[k] = mcpArgType(strings.ToLower(k))
	}
	sort.Strings(keys) // deterministic hits
	// an action argument's one word is a verb of the call (command: create)
	for _, k := range keys {
		if s, ok := obj[k].(string); ok && (typed[k] == mcpCode || strings.EqualFold(k, "action") || strings.EqualFold(k, "operation") || strings.EqualFold(k, "mode")) {
			if w := mcpWords(s); len(w) > 0 && len(w) <= 2 && !strings.ContainsAny(s, " /") && programs.Lookup(s) == nil && mcpVerb(w) {
				c.words = append(w, c.words...)
				typed[k] = mcpOther
			}
		}
	}
	// the language of its code: an argument, else the server's or tool's name
	for _, k := range keys {
		if s, ok := obj[k].(string); ok && typed[k] == mcpLang {
			c.lang = programs.CodeLang(s)
			if c.lang == "" {
				c.lang = "unknown:" + s
			}
		}
	}
	if c.lang == "" {
		for _, w := range append(mcpWords(server), c.words...) {
			if l := programs.CodeLang(w); l != "" && l != "shell" {
				c.lang = l
				break
			}
		}
	}
	if c.lang == "" && mcpBrowser(server) {
		c.lang = "js" // a browser's evaluate runs the page's JavaScript
		c.browser = true
	}
	if c.lang == "" && c.prog != nil {
		switch programs.Canon(c.prog.Name) {
		case "redis-cli":
			c.lang = "redis"
		case "mongosh":
			c.lang = "mongo"
		}
	}
	// code a run tool is given under a name that is not only code's
	// (execute_cell {source}, eval {expression}, evaluate {function})
	for _, k := range keys {
		if v, ok := obj[k].(string); ok && (typed[k] == mcpSource || typed[k] == mcpOther) && mcpRunCodeKey(c, strings.ToLower(k)) && (!pathShaped(v) || strings.ContainsAny(v, "()'\"\n;")) {
			typed[k] = mcpCode
		}
	}
	if err := j.mcpCode(c, obj, keys, typed); err != nil {
		return err
	}
	j.mcpFiles(c, obj, keys, typed)
	j.mcpCredSend(c, obj, keys)
	j.mcpService(c, obj, keys, typed)
	return nil
}

// mcpVerb reports words that are a verb of some class.
func mcpVerb(w []string) bool {
	for _, x := range w {
		for _, vs := range [][]string{mcpWriteVerbs, mcpDeleteVerbs, mcpReadVerbs, {"str", "undo"}} {
			if contains(vs, x) {
				return true
			}
		}
	}
	return false
}

// mcpCode judges the code and SQL arguments by their reader, and the
// code inside nested arguments ({opts: {shell: {command: ...}}}).
func (j *judge) mcpCode(c *mcpCall, obj map[string]any, keys []string, typed map[string]mcpArg) error {
	db := c.prog.Is(programs.Database)
	for _, k := range keys {
		switch typed[k] {
		case mcpCode:
			if err := j.mcpCodeArg(c, obj, k, c.lang); err != nil {
				return err
			}
		case mcpSQL:
			for _, v := range mcpStrings(obj[k]) {
				if strings.EqualFold(k, "query") && !db && c.lang != "sql" && !sqlShaped(v) {
					continue // a search query, not a statement
				}
				lang := "sql"
				if c.lang == "mongo" || c.lang == "redis" {
					lang = c.lang
				}
				src, _ := programs.CodeShell(lang, v)
				if err := j.bash(src); err != nil {
					return err
				}
			}
		default:
			if l := mcpLangKey(strings.ToLower(k)); l != "" {
				if err := j.mcpCodeArg(c, obj, k, l); err != nil { // {bash: "..."}, {python: "..."}
					return err
				}
				continue
			}
			if err := j.mcpNested(c, obj[k], 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// mcpCodeArg judges the code argument obj[k] in lang: a string as
// written, a command's name with its args list beside it ({command: rm,
// args: [-rf, x]}) as that argv, a list as an argv, a list under a plural
// key ({commands: [...]}) as one command a line, an object by its own
// keys.
func (j *judge) mcpCodeArg(c *mcpCall, obj map[string]any, k, lang string) error {
	var text string
	switch v := obj[k].(type) {
	case map[string]any, []any:
		if m, ok := v.(map[string]any); ok {
			return j.mcpNested(c, m, 1)
		}
		if mcpPluralCode(strings.ToLower(k)) {
			text = strings.Join(mcpStrings(v), "\n")
		} else {
			text = mcpCodeText(v)
		}
	case string:
		text = v
		if args := mcpArgsOf(obj); args != nil && v != "" && !strings.ContainsAny(v, " \t\n;|&") {
			text = programs.QuoteArgv(append([]string{v}, args...))
		}
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	cc := *c
	cc.lang = lang
	return j.mcpRun(&cc, text)
}

// mcpArgsOf is the argument list beside a command's name, nil when none.
func mcpArgsOf(obj map[string]any) []string {
	for _, k := range []string{"args", "arguments", "argv", "params"} {
		if l, ok := obj[k].([]any); ok {
			if a := mcpStrings(l); len(a) == len(l) {
				return a
			}
		}
	}
	return nil
}

// mcpNested judges the code keys of an object nested in the arguments
// (and of the objects a list holds), a few levels deep.
func (j *judge) mcpNested(c *mcpCall, v any, depth int) error {
	if depth > 4 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			if i >= 64 {
				break
			}
			if _, ok := e.(string); ok {
				continue
			}
			if err := j.mcpNested(c, e, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			lk := strings.ToLower(k)
			lang, code := c.lang, mcpArgType(lk) == mcpCode
			if l := mcpLangKey(lk); l != "" {
				lang, code = l, true
			}
			if code {
				if err := j.mcpCodeArg(c, x, k, lang); err != nil {
					return err
				}
			} else if err := j.mcpNested(c, x[k], depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// mcpLangKey is the language a key names when its value is code of it
// ({bash: "..."}, {python: "..."}); "" for other keys (a node's name is
// not JavaScript).
func mcpLangKey(k string) string {
	switch k {
	case "bash", "sh", "zsh", "python", "python3", "javascript", "js", "ruby", "perl", "php":
		return programs.CodeLang(k)
	}
	return ""
}

// mcpPluralCode: a key whose list holds commands, not one argv.
func mcpPluralCode(k string) bool {
	switch k {
	case "commands", "cmds", "scripts", "statements", "lines", "steps":
		return true
	}
	return false
}

// mcpRunCodeKey: a key that holds code when the tool runs code.
func mcpRunCodeKey(c *mcpCall, k string) bool {
	switch k {
	case "source", "expression", "expr", "function", "program", "cell_source", "javascript", "js":
		return c.has(mcpRunVerbs) || c.lang != ""
	}
	return false
}

// mcpBrowser: a server that drives a web browser.
func mcpBrowser(server string) bool {
	for _, w := range mcpWords(server) {
		switch w {
		case "puppeteer", "playwright", "browser", "chrome", "chromium", "selenium", "webdriver", "devtools", "cdp", "browserbase":
			return true
		}
	}
	return false
}

// mcpRun judges code by its reader. Code of no language named that does
// not parse as shell (input written to a running python) is judged by the
// shell commands it embeds; code a shell tool runs must parse.
func (j *judge) mcpRun(c *mcpCall, text string) error {
	lang := c.lang
	if strings.HasPrefix(lang, "unknown:") {
		return j.mcpEmbedded(text)
	}
	if lang == "" {
		lang = "shell"
	}
	if c.browser && lang == "js" {
		return j.browserCode(text)
	}
	src, _ := programs.CodeShell(lang, text)
	err := j.bash(src)
	var se *parse.SyntaxError
	if err != nil && lang == "shell" && c.lang == "" && !c.has([]string{"shell", "bash", "sh", "terminal", "cli", "command"}) && errors.As(err, &se) {
		// code of a language the call does not name: by its shape
		// (executeCode {code: "import shutil; ..."}), else what it embeds
		if l := programs.CodeShape(text); l != "" {
			src, _ := programs.CodeShell(l, text)
			return j.bash(src)
		}
		return j.mcpEmbedded(text)
	}
	return err
}

// browserCode judges code run in a web page: as JavaScript, and a send of
// the page's cookies or storage (the user's sessions there) to a host is
// the secret sent.
func (j *judge) browserCode(text string) error {
	src, _ := programs.CodeShell("js", text)
	before := j.networkSend
	err := j.bash(src)
	if err == nil && j.networkSend != "" && j.networkSend != before {
		for _, s := range []string{"document.cookie", "localStorage", "sessionStorage", "indexedDB", "cookieStore"} {
			if strings.Contains(text, s) {
				j.secretReadHit("the page's " + s)
				j.add(RuleExfilSecretNetwork, "the page's "+s+" + "+j.networkSend)
				break
			}
		}
	}
	return err
}

// mcpEmbedded judges the shell commands embedded in code no reader reads
// (parse.EmbeddedShell: its string literals, backtick spans and lines that
// name a program).
func (j *judge) mcpEmbedded(text string) error {
	if src := parse.EmbeddedShell(text); src != "" {
		return j.bash(src)
	}
	return nil
}

// mcpCodeText is a code argument as shell text: a string as written, a
// list as the argv it is.
func mcpCodeText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		argv := mcpStrings(x)
		if len(argv) == len(x) {
			return programs.QuoteArgv(argv)
		}
		return strings.Join(argv, "\n")
	}
	return ""
}

// sqlShaped: text that opens with a SQL statement's verb.
func sqlShaped(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	switch strings.ToUpper(f[0]) {
	case "SELECT", "INSERT", "UPDATE", "DELETE", "DROP", "TRUNCATE", "ALTER", "CREATE", "GRANT", "REVOKE", "WITH", "MERGE", "REPLACE":
		return true
	}
	return false
}

// mcpFiles judges the paths and URLs by the tool's verbs.
func (j *judge) mcpFiles(c *mcpCall, obj map[string]any, keys []string, typed map[string]mcpArg) {
	del := c.has(mcpDeleteVerbs)
	write := c.has(mcpWriteVerbs) || del
	read := c.has(mcpReadVerbs)
	unknown := !write && !read && !c.has(mcpRunVerbs)
	kind := kindEdit
	content, hasContent := "", false
	for _, k := range keys {
		if typed[k] == mcpContent {
			if s, ok := obj[k].(string); ok {
				content, hasContent = s, true
			}
		}
	}
	switch {
	case del:
		kind = kindDelete
	case c.has(mcpEmptyVerbs) || hasContent && write && strings.TrimSpace(content) == "" && !c.has([]string{"append"}):
		kind = kindEmpty // truncate_file, overwrite {content: ""}
	}
	// purge, wipe, nuke, destroy: what is under the path goes too
	tree := c.has(mcpTreeWords) || c.has([]string{"purge", "wipe", "nuke", "destroy"}) || obj["recursive"] == true
	move := c.has([]string{"move", "rename", "mv"})
	detail := c.tool
	synth := &parse.Exec{Name: "rm", Dir: j.cwd}
	var dirs, names, paths, srcs, dests []string
	for _, k := range keys {
		for _, v := range mcpStrings(obj[k]) {
			switch typed[k] {
			case mcpPath:
				if strings.EqualFold(k, "target") && !pathShaped(v) {
					continue
				}
				paths = append(paths, v)
			case mcpSource:
				if pathShaped(v) {
					srcs = append(srcs, v)
				}
			case mcpDest:
				if pathShaped(v) {
					dests = append(dests, v)
				}
			case mcpDir:
				dirs = append(dirs, v)
			case mcpName:
				names = append(names, v)
			case mcpURL:
				if p, ok := strings.CutPrefix(v, "file://"); ok {
					paths = append(paths, p)
				} else if h := programs.HostOf(v); metadataHost(h) {
					j.secretReadHit(detail + " " + v)
				}
			}
		}
	}
	// directory + name: the file is the name in the directory
	for _, d := range dirs {
		joined := false
		for _, n := range names {
			if n != "" && !strings.Contains(n, "/") && strings.ContainsAny(n, ".") {
				paths = append(paths, strings.TrimSuffix(d, "/")+"/"+n)
				joined = true
			}
		}
		if !joined {
			paths = append(paths, d)
		}
	}
	for _, n := range names {
		if strings.Contains(n, "/") && pathShaped(n) {
			paths = append(paths, n)
		}
	}
	switch {
	case move && len(dests) > 0:
		j.moveAway(&parse.Exec{Name: "mv", Dir: j.cwd}, append(srcs, paths...), dests[len(dests)-1], detail)
		for _, v := range srcs {
			j.writePath(v, kindDelete, detail+" "+v) // gone from where it was
		}
	case del:
		paths = append(paths, srcs...)
	default:
		for _, v := range srcs {
			j.readPath(v, detail+" "+v) // copy_file {source: ~/.ssh/id_rsa}
		}
	}
	for _, v := range paths {
		switch {
		case del:
			if p, ok := j.resolve(v, j.cwd); ok {
				j.rmAbs(synth, p, tree, tree, detail+" "+v)
			}
		case write:
			k := kind
			if hasContent && kind == kindEdit && !c.has([]string{"append", "edit", "patch", "insert", "replace", "str"}) && mcpMode(obj) != "append" {
				k = kindRewrite // the whole file written, as Write
			}
			j.writePath(v, k, detail+" "+v)
			if hasContent {
				if p, ok := j.resolve(v, j.cwd); ok {
					j.noteWritten(p, content)
					j.untrustedManifest(p, content, detail+" "+v)
				}
			}
		case unknown:
			j.readPath(v, detail+" "+v)
			j.writePath(v, kindEdit, detail+" "+v) // a verb not known: what it may do to a protected path stops
		default:
			j.readPath(v, detail+" "+v)
		}
	}
	for _, v := range dests {
		if !move || write {
			j.writePath(v, kindEdit, detail+" "+v)
		}
	}
}

// mcpMode is a write's mode argument ("append", "rewrite").
func mcpMode(obj map[string]any) string {
	s, _ := obj["mode"].(string)
	return strings.ToLower(s)
}

// pathShaped: a value that reads as a path, not a word or an address.
func pathShaped(v string) bool {
	return strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || strings.HasPrefix(v, "./") ||
		strings.HasPrefix(v, "../") || strings.HasPrefix(v, "file://") ||
		strings.Contains(v, "/") && !strings.Contains(v, "://") && !strings.ContainsAny(v, " @")
}

// mcpService judges a call to a server that fronts a program: a
// database's drop, flush or unbounded delete; a hosting service's ref
// deletion or forced ref update; another service's call as its program's
// command line (kubectl delete namespace prod).
func (j *judge) mcpService(c *mcpCall, obj map[string]any, keys []string, typed map[string]mcpArg) {
	detail := c.tool
	for _, k := range keys {
		if typed[k] != mcpRef {
			continue
		}
		ref, ok := obj[k].(string)
		if !ok || ref == "" {
			continue
		}
		switch {
		case c.has(mcpDeleteVerbs) && c.has([]string{"branch", "ref", "tag", "branches", "refs"}):
			_ = j.bash("git push origin --delete " + programs.QuoteArgv([]string{ref})) // delete_branch {branch: main}
		case obj["force"] == true:
			sha, _ := obj["sha"].(string)
			_ = j.bash("git push --force origin " + programs.QuoteArgv([]string{sha + ":" + ref})) // update_ref {force: true}
		}
	}
	p := c.prog
	if p == nil {
		return
	}
	if p.Is(programs.Database) {
		if c.has([]string{"drop", "truncate", "flush", "flushall", "flushdb", "dropdatabase", "purge", "wipe"}) ||
			c.has([]string{"delete", "remove", "update", "replace"}) && mcpUnbounded(obj, keys) {
			j.add(RuleDataSqlDestructive, detail) // drop-collection, flushdb, delete-many {filter: {}}
		}
		return
	}
	if !p.Kind.Any(programs.Cloud|programs.Cluster|programs.Infra) || p.Destroys == nil && !p.Is(programs.Infra) && !p.Is(programs.Cluster) {
		return
	}
	// the command line: the tool's words (not the program's own name),
	// the kind and name operands, the rest as --options
	argv := []string{p.Name}
	own := append([]string{strings.ToLower(p.Name)}, p.Names...)
	for _, w := range c.words {
		if !contains(own, w) && !contains(mcpFiller, w) {
			argv = append(argv, w)
		}
	}
	var kinds, ids, opts []string
	for _, k := range keys {
		if typed[k] != mcpOther && typed[k] != mcpName {
			continue // judged by its type
		}
		lk := strings.ToLower(strings.ReplaceAll(k, "_", ""))
		switch v := obj[k].(type) {
		case string:
			switch {
			case lk == "resourcetype" || lk == "type" || lk == "kind" || lk == "resource":
				kinds = append(kinds, v)
			case lk == "name" || lk == "names" || lk == "id" || strings.HasSuffix(lk, "id") || strings.HasSuffix(lk, "name"):
				ids = append(ids, v)
			default:
				opts = append(opts, "--"+mcpFlag(k)+"="+v)
			}
		case bool:
			if v {
				opts = append(opts, "--"+mcpFlag(k))
			}
		case float64:
			opts = append(opts, fmt.Sprintf("--%s=%v", mcpFlag(k), v))
		}
	}
	argv = append(append(append(argv, kinds...), ids...), opts...)
	if len(argv) > 1 {
		_ = j.bash(programs.QuoteArgv(argv)) // what it cannot judge is no call's error
	}
}

// mcpFlag is a key as a command-line option: auto_approve is auto-approve.
func mcpFlag(k string) string {
	return strings.ToLower(strings.Join(mcpWords(k), "-"))
}

// mcpUnbounded: a data store's delete or update whose filter is absent or
// empty matches every record.
func mcpUnbounded(obj map[string]any, keys []string) bool {
	for _, k := range keys {
		switch strings.ToLower(k) {
		case "filter", "where", "query", "selector", "match", "condition", "conditions", "keys", "key", "id", "ids", "pattern":
			switch v := obj[k].(type) {
			case map[string]any:
				if len(v) > 0 {
					return false
				}
			case string:
				if t := strings.TrimSpace(v); t != "" && t != "{}" && t != "*" {
					return false
				}
			case []any:
				if len(v) > 0 {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// mcpStrings are the strings a value holds: itself, or an array's.
func mcpStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
			if len(out) >= 64 {
				break
			}
		}
		return out
	}
	return nil
}
