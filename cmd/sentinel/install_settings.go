package main

// Claude Code settings files, read and written without losing anything:
// keys keep their order, numbers keep their text, unknown keys stay.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/sentinel-guard/sentinel/internal/outfile"
	"github.com/sentinel-guard/sentinel/internal/safefile"
)

// jobject is a JSON object that remembers its key order. Values are
// *jobject, []any, string, json.Number, bool or nil.
type jobject struct {
	keys []string
	vals map[string]any
}

func newObject() *jobject { return &jobject{vals: map[string]any{}} }

func (o *jobject) get(k string) (any, bool) { v, ok := o.vals[k]; return v, ok }

func (o *jobject) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *jobject) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, kk := range o.keys {
		if kk == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// parseSettings reads a settings file's bytes. Whitespace only is an empty
// object; anything else must be one JSON object. Errors give line:column.
func parseSettings(data []byte) (*jobject, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return newObject(), nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	if err != nil {
		off := dec.InputOffset()
		var se *json.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset
		}
		line, col := settingsLineCol(data, off)
		return nil, fmt.Errorf("line %d, column %d: %v", line, col, err)
	}
	o, ok := v.(*jobject)
	if !ok {
		return nil, errors.New("the top level is not a JSON object")
	}
	return o, nil
}

func settingsLineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, ok := kt.(string)
				if !ok {
					return nil, fmt.Errorf("object key is not a string")
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return o, nil
		case '[':
			a := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return a, nil
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return t, nil
	}
}

// encodeSettings writes v with two-space indentation and a final newline,
// the way Claude Code writes its settings.
func encodeSettings(v any) []byte {
	var b bytes.Buffer
	writeValue(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent string) {
	switch x := v.(type) {
	case *jobject:
		if len(x.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range x.keys {
			b.WriteString(indent + "  ")
			writeString(b, k)
			b.WriteString(": ")
			writeValue(b, x.vals[k], indent+"  ")
			if i < len(x.keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			b.WriteString(indent + "  ")
			writeValue(b, e, indent+"  ")
			if i < len(x)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case string:
		writeString(b, x)
	case json.Number:
		b.WriteString(x.String())
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	case int:
		fmt.Fprintf(b, "%d", x)
	default:
		panic(fmt.Sprintf("settings: cannot encode %T", v))
	}
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.Truncate(b.Len() - 1) // Encode adds a newline
}

// settingsFile is one Claude Code settings file.
type settingsFile struct {
	Scope string // user, project, local, managed
	Path  string
}

// userSettingsPath is ~/.claude/settings.json ($CLAUDE_CONFIG_DIR when set).
func userSettingsPath() (string, error) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "settings.json"), nil
	}
	h := os.Getenv("HOME")
	if h == "" {
		var err error
		if h, err = os.UserHomeDir(); err != nil {
			return "", errors.New("cannot find the home directory: set HOME")
		}
	}
	return filepath.Join(h, ".claude", "settings.json"), nil
}

// claudeProjectDir is $CLAUDE_PROJECT_DIR, else the current directory.
func claudeProjectDir() (string, error) {
	if d := os.Getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return filepath.Abs(d)
	}
	return os.Getwd()
}

// readSettings loads a settings file; a missing file is an empty object
// (exists false).
func readSettings(path string) (o *jobject, exists bool, err error) {
	data, err := readSettingsFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return newObject(), false, nil
	}
	if err != nil {
		return nil, false, err
	}
	o, err = parseSettings(data)
	if err != nil {
		return nil, true, fmt.Errorf("%s is not valid JSON (%v); not touching it", path, err)
	}
	return o, true, nil
}

// maxSettings bounds a settings file read by install, uninstall and doctor.
const maxSettings = 16 << 20

// readSettingsFile reads a settings file that the agent may have replaced:
// opened non-blocking (a FIFO never blocks install or doctor), refused
// unless it is a regular file, and read to maxSettings at most. A symlink is
// followed (a dotfiles manager's settings.json is one), unlike
// safefile.ReadFile, because writeSettings writes through it too.
func readSettingsFile(path string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil {
		if why := safefile.NotRegular(fi.Mode()); why != "" { // a device is never opened
			return nil, fmt.Errorf("%s %s; not touching it", path, why)
		}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if why := safefile.NotRegular(fi.Mode()); why != "" {
		return nil, fmt.Errorf("%s %s; not touching it", path, why)
	}
	return safefile.ReadAll(f, path, maxSettings)
}

// writeSettings backs up the current file (if any) and replaces it
// atomically, keeping its mode. It returns the backup's path.
func writeSettings(path string, o *jobject, exists bool) (backup string, err error) {
	mode := os.FileMode(0o600)
	if exists {
		st, err := os.Stat(path)
		if err != nil {
			return "", err
		}
		mode = st.Mode().Perm()
		old, err := readSettingsFile(path)
		if err != nil {
			return "", err
		}
		backup = path + ".bak." + time.Now().UTC().Format("20060102T150405.000000000Z")
		if err := os.WriteFile(backup, old, mode); err != nil {
			return "", fmt.Errorf("writing the backup: %v", err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	// Written as cp would: a settings.json that is a symlink (a dotfiles
	// manager's) is written through and stays a link.
	return backup, outfile.WriteFile(path, nil, encodeSettings(o), mode)
}

// hookGroup is one matcher group of an event, as found in a file.
type hookGroup struct {
	Event   string
	Matcher string // "" when absent
	Index   int    // position in the event's array
	Group   *jobject
}

// commandHook is one {"type":"command",...} hook inside a group.
type commandHook struct {
	Group   hookGroup
	Command string
	Timeout string // as written, "" when absent
}

// commandHooks lists the command hooks of an event in a settings object.
func commandHooks(o *jobject, event string) []commandHook {
	var out []commandHook
	hv, _ := o.get("hooks")
	hooks, ok := hv.(*jobject)
	if !ok {
		return nil
	}
	ev, _ := hooks.get(event)
	groups, _ := ev.([]any)
	for i, g := range groups {
		gobj, ok := g.(*jobject)
		if !ok {
			continue
		}
		m, _ := gobj.get("matcher")
		ms, _ := m.(string)
		hg := hookGroup{Event: event, Matcher: ms, Index: i, Group: gobj}
		hl, _ := gobj.get("hooks")
		list, _ := hl.([]any)
		for _, h := range list {
			hobj, ok := h.(*jobject)
			if !ok {
				continue
			}
			if t, _ := hobj.get("type"); t != "command" {
				continue
			}
			c, _ := hobj.get("command")
			cs, _ := c.(string)
			to := ""
			if t, ok := hobj.get("timeout"); ok {
				to = fmt.Sprint(t)
			}
			out = append(out, commandHook{Group: hg, Command: cs, Timeout: to})
		}
	}
	return out
}

// matchesEveryTool reports whether a matcher covers every tool.
func matchesEveryTool(m string) bool {
	m = strings.TrimSpace(m)
	return m == "" || m == "*" || m == ".*"
}

// commandWords splits a hook command into words, honouring simple quotes.
// It is only used to recognise sentinel's own hooks.
func commandWords(c string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	quote := byte(0)
	for i := 0; i < len(c); i++ {
		ch := c[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, inWord = ch, true
		case ch == ' ' || ch == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// shellQuote quotes a path for a hook command when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ':' || r == '@' ||
			r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
