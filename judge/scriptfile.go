package judge

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Script files on disk run by path (issue 12, class 4): `bash x.sh`,
// `sh < x.sh`, `./deploy.sh`, `source env.sh`, `python3 x.py`, `npm
// install` with a package.json. The file is read bounded (a regular file
// only, through internal/safefile: no FIFO or device; at most
// maxScriptBytes, and maxCallScriptBytes for all files of one call) and its
// text judged as the code it runs (parse.Options.Files). Programs
// installed in system directories and binaries are judged by name, as
// before. A shell script that is there but cannot be read whole is code
// that cannot be read: SCRIPT-UNREADABLE (ask; deny unattended). An
// interpreter's file over the cap is left unjudged as before (bundles of
// several MiB are everyday `node dist/index.js`; docs/rules.md says so).
//
// Code read from a file on disk that this session did not write is the
// project's own: findings that only say "dynamic" (EVAL-DYNAMIC,
// DYNAMIC-COMMAND: `./gradlew` evaluates its arguments) are not raised for
// it; everything concrete (deletions, exfiltration, downloaded or decoded
// code, tampering) is.

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleScriptUnreadable = "SCRIPT-UNREADABLE"
)

var _ = rules(
	Rule{ID: RuleScriptUnreadable, Class: ClassDynamic, Severity: SevMedium, Decision: Ask, Catastrophic: false,
		Reason:      "a script that is run could not be read to judge it (over 256 KiB, not a regular file, or unreadable)",
		Alternative: "run the commands it holds directly, or split the script",
		Matches:     "`bash F`, `sh < F`, `source F`, `./F`, a `package.json` for `npm install` where F is there but is a FIFO, a device, a directory, over 256 KiB, or could not be read (the call's scripts together are bounded at 1 MiB)",
		Fire:        []string{"bash /dev/zero", "sh < /dev/zero"},
		Pass:        []string{"bash /home/user/proj/missing.sh", "sh < /dev/null"}},
)

const (
	// maxScriptBytes bounds one script read from disk (the same bound the
	// parser keeps for text written within one command).
	maxScriptBytes = 256 << 10
	// maxCallScriptBytes bounds all scripts one call reads.
	maxCallScriptBytes = 1 << 20
	// binaryProbe is how much of a file decides that it is a binary.
	binaryProbe = 512
)

var errNoText = errors.New("no text")

// sessionState is one call's state for files and memory, shared with the
// judges of scripts it reads.
type sessionState struct {
	depth int // 0: the call itself; >0: judging a written file's content
	files *fileBudget
	facts Facts
	used  []string // what the decision rested on (memory), for explain
	ran   []string // files the call runs (cleaned), for copies made in the same call
}

type fileBudget struct {
	bytes int
	seen  map[string]bool
}

func (j *judge) sessionState() *sessionState {
	if j.sess == nil {
		j.sess = &sessionState{files: &fileBudget{seen: map[string]bool{}}}
	}
	return j.sess
}

func (j *judge) parseOptions() parse.Options {
	return parse.Options{Cwd: j.cwd, Home: j.home, Files: j.scriptFile}
}

// scriptFile is parse.Options.Files: what the session remembers of the
// file, then what the disk holds.
func (j *judge) scriptFile(p, lang string) parse.File {
	if st := j.sessionState(); st.depth == 0 {
		st.ran = append(st.ran, path.Clean(p))
	}
	j.recall(p)
	if j.env.NoFiles || systemProgram(p) {
		return parse.File{}
	}
	b := j.sessionState().files
	if b.seen[p] {
		return parse.File{State: parse.FileText} // judged already in this call
	}
	b.seen[p] = true
	if p == "/dev/null" {
		return parse.File{State: parse.FileText}
	}
	text, err := readScript(p)
	var tooBig *tooBigError
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, errBinary):
		return parse.File{}
	case errors.As(err, &tooBig) && lang != "" && lang != parse.LangPackageJSON && lang != langMake:
		return parse.File{} // interpreter bundles: see the package comment
	case err != nil:
		return parse.File{State: parse.FileUnreadable, Why: err.Error()}
	}
	if b.bytes+len(text) > maxCallScriptBytes {
		return parse.File{State: parse.FileUnreadable, Why: "the call's scripts are over the 1 MiB limit"}
	}
	b.bytes += len(text)
	return parse.File{State: parse.FileText, Text: text}
}

// systemProgram reports a path among installed programs: judged by name.
func systemProgram(p string) bool {
	for _, d := range []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/nix/store/", "/opt/homebrew/", "/snap/"} {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

var errBinary = errors.New("a binary, not a script")

type tooBigError struct{ size int64 }

func (e *tooBigError) Error() string {
	return "is " + strconv.FormatInt(e.size, 10) + " bytes, over the 256 KiB limit"
}

// readScript reads the file at p: symlinks are followed (the target
// must itself be a regular file), the mode is checked before opening so
// that no device is opened, the open is non-blocking (safefile), and a
// file whose first bytes are a binary's is reported as errBinary (even
// when it is over the cap).
func readScript(p string) (string, error) {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(target)
	if err != nil {
		return "", err
	}
	if why := safefile.NotRegular(fi.Mode()); why != "" {
		return "", errors.New(why)
	}
	f, err := safefile.Open(target)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, binaryProbe)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return "", err
	}
	head = head[:n]
	if bytes.HasPrefix(head, []byte("\x7fELF")) || bytes.IndexByte(head, 0) >= 0 {
		return "", errBinary
	}
	if st, err := f.Stat(); err == nil && st.Size() > maxScriptBytes {
		return "", &tooBigError{st.Size()}
	}
	rest, err := safefile.ReadAll(f, p, maxScriptBytes)
	if errors.Is(err, safefile.ErrRefused) || n+len(rest) > maxScriptBytes {
		return "", &tooBigError{int64(n + len(rest))}
	}
	if err != nil {
		return "", err
	}
	return string(head) + string(rest), nil
}

// fromDisk reports an execution read from a script file on disk that the
// session did not write, however deep inside it (parse.Exec.InFile).
func fromDisk(e *parse.Exec) bool { return e.InFile != "" }

// unreadableScript judges the run of a script that could not be read, and
// interpreter code over the grammar's limits (SENTINEL-UNJUDGED: the call
// is an error decision, registered as such).
func (j *judge) unreadableScript(e *parse.Exec, detail string) bool {
	if e.RunsCode == nil {
		return false
	}
	why := strings.Join(e.RunsCode.Sources, "; ")
	switch e.RunsCode.How {
	case parse.HowUnreadableFile:
		j.add(RuleScriptUnreadable, detail+": "+why)
	case parse.HowUnjudgedCode:
		j.add(RuleSentinelUnjudged, detail+": "+why)
		if j.unjudged == "" {
			j.unjudged = why + ": not judged"
		}
	default:
		return false
	}
	return true
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// textFilters are the decoders that are also everyday text filters: a
// project's own script on disk that evals text through them (./gradlew:
// `eval "set -- $(... | xargs -n1 | sed ... | tr '\n' ' ')"`) is not hiding
// code; base64, xxd, openssl, gzip & co still are. (A kind of its own in
// programs/ is the better home for this; see docs/rules.md.)
var textFilters = map[string]bool{"tr": true, "rev": true, "od": true}

// anyStrongDecoder reports a decoder among src that is not a text filter.
func anyStrongDecoder(src []string) bool {
	for _, s := range src {
		if programs.Is(s, programs.Decoder) && !textFilters[programs.Canon(s)] {
			return true
		}
	}
	return false
}
