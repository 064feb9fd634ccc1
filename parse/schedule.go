package parse

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Schedulers run commands later, outside the session: what they will run
// is judged now, as the command it is (echo 'rm -rf ~' | at now is rm -rf ~
// in a minute; the install itself is PERSISTENCE-INSTALL's).
//   - at and batch read a shell script on stdin, or from -f FILE;
//   - crontab reads crontab lines from stdin (crontab -, or no operand) or
//     from FILE: each line's command is what follows the schedule.
func (w *walker) schedule(c *cmd, name string) {
	src, ok := programs.ScheduleSource(name, words(c.argv[1:]))
	if !ok {
		w.emit(c)
		return
	}
	crontab := name == "crontab"
	if isStdinPath(src) {
		src = "-"
	}
	var text string
	switch {
	case src == "-" && (c.stdin == nil || c.stdin.file):
		if c.stdin == nil {
			w.emit(c) // a terminal: whoever types it
			return
		}
		t, ok := w.scheduledFile(c, c.stdin.path)
		if !ok {
			return
		}
		text = t
	case src == "-":
		in := c.stdin
		if !in.static {
			c.runs = &DynamicCode{How: "shell-stdin", Sources: in.srcs}
			w.emit(c)
			return
		}
		if in.dataIdx >= 0 {
			w.dropData[in.dataIdx] = true // it was code after all
		}
		text = in.text
	default:
		t, ok := w.scheduledFile(c, arg{Word: Word{Value: src, Static: true}})
		if !ok {
			return
		}
		text = t
	}
	if crontab {
		text = CronCommands(text, false)
	}
	w.emit(c)
	inner := *c
	inner.stdin = nil
	w.reparse(&inner, text, Origin{Kind: OriginShellStdin, Depth: c.origin.Depth + 1, Via: name}, nil, false)
}

// scheduledFile is the text of a file a scheduler reads: written earlier in
// the command, or on disk. A file that is there but cannot be read (a FIFO,
// a device, over the cap) is code that cannot be read, as for a script run
// by path; an absent one installs nothing. ok is false when c was emitted.
func (w *walker) scheduledFile(c *cmd, a arg) (string, bool) {
	if t, _, ok := w.writtenText(c, a); ok {
		return t, true
	}
	f, p := w.diskText(c, a, "")
	switch f.State {
	case FileText:
		return f.Text, true
	case FileUnreadable:
		c.runs = &DynamicCode{How: HowUnreadableFile, Sources: []string{p + ": " + f.Why}}
	}
	w.emit(c)
	return "", false
}

// CronCommands is the commands of crontab lines, one a line: the five
// schedule fields (or an @keyword) removed, and with system the user field
// after them (/etc/crontab, /etc/cron.d). Comments and environment settings
// (NAME=value) are dropped.
func CronCommands(text string, system bool) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		f := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		skip := 5
		if strings.HasPrefix(f[0], "@") {
			skip = 1
		} else if strings.Contains(f[0], "=") {
			continue
		}
		if system {
			skip++
		}
		if len(f) <= skip {
			continue
		}
		// keep the command's own spacing: cut after the skipped fields
		rest := strings.TrimLeft(line, " \t")
		for i := 0; i < skip; i++ {
			rest = strings.TrimLeft(rest[len(f[i]):], " \t")
		}
		b.WriteString(cronCut(rest))
		b.WriteByte('\n')
	}
	return b.String()
}

func words(as []arg) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Value
	}
	return out
}

// cronCut is a crontab command up to its first unescaped %: the rest is
// handed to the command on stdin.
func cronCut(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '%':
			return s[:i]
		}
	}
	return s
}
