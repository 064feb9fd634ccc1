package parse

// Word is one argument after quote removal and escape handling.
type Word struct {
	// Value is the word's text. Static parts are resolved; a leading ~ and
	// $HOME/$PWD are expanded from Options when known. Parts that cannot be
	// known statically keep their source form (for example "$X" or "$(cmd)").
	Value string `json:"value"`
	// Static is true when Value is exactly what the shell would pass.
	Static bool `json:"static"`
}

// Origin says where an execution came from.
type Origin struct {
	// Kind is one of the Origin* constants.
	Kind string `json:"kind"`
	// Depth is how many times code was re-parsed to reach this execution
	// (0 at the top level; bash -c adds one, so does eval, ssh, ...).
	Depth int `json:"depth"`
	// Via names the construct that carried it, for explanations, for example
	// "bash -c", "eval", "$(...)", "xargs", "find -exec", "python -c",
	// "function deploy", "alias gr".
	Via string `json:"via,omitempty"`
	// Handed: the code is the value of another program's option or of a
	// variable it reads (go build -toolexec CMD, $PAGER, RUSTC_WRAPPER),
	// run by that program rather than typed.
	Handed bool `json:"handed,omitempty"`
}

// Origin kinds.
const (
	OriginTop         = "top"         // the command line itself
	OriginSubst       = "subst"       // $(...) or backticks
	OriginProcSubst   = "procsubst"   // <(...) or >(...)
	OriginShellString = "shell-c"     // bash/sh/zsh ... -c STRING
	OriginEval        = "eval"        // eval STRING
	OriginShellStdin  = "shell-stdin" // text fed to a shell's stdin (pipe, heredoc, here-string)
	OriginSource      = "source"      // source / . of a process substitution
	OriginRemote      = "remote"      // ssh HOST cmd, docker exec, kubectl exec
	OriginWrapper     = "wrapper"     // xargs, find -exec, parallel, watch ...
	OriginFunction    = "function"    // body of a function defined in the same source
	OriginAlias       = "alias"       // alias defined in the same source
	OriginInterpreter = "interpreter" // found inside python -c, node -e, perl -e, ruby -e, php -r
)

// Redirect is a file effect of an execution.
type Redirect struct {
	// Op is ">", ">>", "<", ">|", "&>", "&>>", "<>" as written.
	Op string `json:"op"`
	// Fd is the file descriptor redirected, or -1 when implied.
	Fd int `json:"fd"`
	// Target is the file (resolved against Dir when relative and static).
	Target Word `json:"target"`
}

// Assign is a variable assignment that applies to one execution
// (FOO=bar cmd, env FOO=bar cmd) or was set earlier in the same source.
type Assign struct {
	Name  string `json:"name"`
	Value Word   `json:"value"`
	// elems are the elements of an indexed array assigned static values
	// (a=(x y)), for "${a[@]}"; nil otherwise. Value is then the source.
	elems *[]string
	// decoded names the decoders a computed value passed through.
	decoded string
	// pattern: Value is a glob pattern (not static) and the variable holds
	// one of its matches: for f in ~/Documents/* binds f so (globvar.go).
	pattern bool
}

// Exec is one simple command that would run.
type Exec struct {
	// InFile is the script on disk (Options.Files) whose text this
	// execution comes from, however deep inside it ("" for the source's
	// own code and for text written by the source itself).
	InFile string `json:"in_file,omitempty"`
	// Argv is the command after unwrapping: Argv[0] is the command that
	// actually runs (sudo, env, nice, xargs, ... removed and listed in
	// Wrappers), with a leading backslash or directory removed in Name.
	Argv []Word `json:"argv"`
	// Name is the base name of Argv[0] ("rm" for /bin/rm or \rm), or ""
	// when Dynamic.
	Name string `json:"name"`
	// Dynamic is true when the command name cannot be known statically
	// ($CMD, $(echo rm), "${X}").
	Dynamic bool `json:"dynamic,omitempty"`
	// ExtraArgs is true when the command runs with further arguments that
	// cannot be known (xargs, find -exec ... +, parallel).
	ExtraArgs bool `json:"extra_args,omitempty"`
	// Feed are the paths the further arguments of a fan-out (ExtraArgs)
	// stand for, when known: find's and fd's starting points, a listing
	// piped into xargs (ls, find, fd, git ls-files, echo of a glob), as
	// programs.Listing writes them (DIR/* everything in DIR, DIR/*_ a
	// filtered part). FeedDeep: they reach every depth below (find, fd,
	// git ls-files), not only the entries.
	Feed     []Word `json:"feed,omitempty"`
	FeedDeep bool   `json:"feed_deep,omitempty"`
	// Wrappers lists the wrappers removed, outermost first ("sudo", "env",
	// "timeout", "xargs", "find -exec", ...).
	Wrappers []string `json:"wrappers,omitempty"`
	// Assigns are the assignments in effect for this execution
	// (prefix assignments, env NAME=VALUE, and earlier plain assignments).
	// The slice may be shared with other Execs: read it, do not change it.
	Assigns []Assign `json:"assigns,omitempty"`
	// Dir is the working directory the command runs in, resolved from
	// Options.Cwd and any cd before it; "" when it cannot be known.
	Dir string `json:"dir,omitempty"`
	// Redirects are the file effects of this execution.
	Redirects []Redirect `json:"redirects,omitempty"`
	// Origin is where the execution came from.
	Origin Origin `json:"origin"`
	// Pipeline identifies the pipeline this execution is a stage of
	// (executions with the same non-zero Pipeline run connected by pipes);
	// Stage is its position in it, from 0.
	Pipeline int `json:"pipeline,omitempty"`
	Stage    int `json:"stage,omitempty"`
	// RunsCode is set when this execution runs code that is not static
	// and so could not be re-parsed: eval "$X", bash -c "$(curl ...)",
	// curl ... | sh, source <(curl ...), python -c "$(...)".
	RunsCode *DynamicCode `json:"runs_code,omitempty"`
	// Synthetic is true for executions inferred from interpreter code
	// (shutil.rmtree("/x") is reported as rm -rf /x with Origin
	// OriginInterpreter).
	Synthetic bool `json:"synthetic,omitempty"`
	// HelpOnly is true when the command only prints its help (a static
	// --help argument, GNU style, before any "--"): it looks itself up and
	// has none of its usual effects.
	HelpOnly bool `json:"help_only,omitempty"`
	// Remote is true when the execution runs on another machine or in a
	// container (ssh, docker exec/run, kubectl exec), directly or in code
	// re-parsed from there; its Dir is then always "" (unknown).
	Remote bool `json:"remote,omitempty"`
	// Stdin is true when the command gives the execution its standard
	// input: a pipe from an earlier stage, a < redirect, a heredoc or
	// here-string (its own or that of the code it runs in). False: it reads
	// whatever the harness gave the command, a terminal under Codex.
	Stdin bool `json:"stdin,omitempty"`
	// StdinText is the text the command feeds the execution on stdin when
	// it is spelled there (a heredoc, a here-string, an earlier stage's
	// echo), parts known only at run time in their source form ("$TOKEN");
	// nil for a file, a terminal or output that cannot be told.
	StdinText *Word `json:"stdin_text,omitempty"`
}

// DynamicCode describes code that would run but cannot be read statically.
type DynamicCode struct {
	// Sources are the names of the commands whose output becomes the code
	// (for example ["curl"] or ["base64"]); empty when it comes from a
	// variable or an unknown place.
	Sources []string `json:"sources,omitempty"`
	// How is "eval", "shell-c", "shell-stdin", "source", "interpreter".
	How string `json:"how"`
}

// Data is a span of the source that was recognised as data, not command,
// kept for explanations ("argument of echo", "commit message",
// "grep pattern", "quoted heredoc", "comment", "lookup").
type Data struct {
	Text string `json:"text"`
	Why  string `json:"why"`
}

// Result is what Parse found.
type Result struct {
	Execs []Exec `json:"execs"`
	Data  []Data `json:"data,omitempty"`
	// Recursive names the functions defined in the source that call
	// themselves when run, directly or through others (a fork bomb is one:
	// :(){ :|:& };:).
	Recursive []string `json:"recursive,omitempty"`
	// Written are the files the source wrote with known text (for the
	// session's memory: what a later call that runs them would run).
	Written []Written `json:"written,omitempty"`
}

// Options bound and inform the analysis.
type Options struct {
	// Cwd is the directory the command starts in (absolute), Home the
	// user's home directory. Both may be empty (unknown).
	Cwd  string
	Home string
	// Limits; zero means the default.
	MaxBytes int // default 1 MiB of source
	MaxDepth int // default 64: nesting of syntax and re-parsed code
	MaxExecs int // default 10,000 executions
	// Files, when set, is asked what a file that is run holds when no
	// earlier command of the source wrote it (files.go). nil: such files
	// are not read.
	Files func(path, lang string) File
}

// Default limits.
const (
	DefaultMaxBytes = 1 << 20
	DefaultMaxDepth = 64
	DefaultMaxExecs = 10000
)

// LimitError reports an input over one of the limits. Callers must treat it
// as "could not judge", never as "nothing found".
type LimitError struct {
	Limit string // "bytes", "depth", "execs", "vars" (over 1024 variables, or assignment work)
	Max   int
}

func (e *LimitError) Error() string {
	return "input over the " + e.Limit + " limit"
}

// SyntaxError reports source that does not parse as Bash.
type SyntaxError struct {
	Msg string // mvdan.cc/sh's message, with line and column
}

func (e *SyntaxError) Error() string { return "shell syntax: " + e.Msg }
