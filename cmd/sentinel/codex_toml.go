package main

// Codex's config.toml, edited the way a person would: install adds and
// removes whole [hooks.state."<key>"] tables and renames their headers, and
// touches no other byte. The file is the user's (model, providers, projects,
// comments), so it is never re-encoded. BurntSushi/toml parses it before
// (a file that does not parse is refused) and after: the edited text must
// decode to exactly the old data with the intended hooks.state changes, or
// nothing is written.

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
)

// tomlHeader is one table header line ([a.b."c"] or [[a.b]]) of a file.
type tomlHeader struct {
	Line  int      // 0-based line index
	Key   []string // decoded key parts
	Array bool     // [[...]]
	// Start, End: byte offsets of the header ([ ... ]) within the line.
	Start, End int
}

// tomlDoc is a config.toml as lines plus its decoded data.
type tomlDoc struct {
	lines   []string // each without its "\n"
	headers []tomlHeader
	data    map[string]any
	// trailingNL: the text ended with a newline.
	trailingNL bool
}

// parseCodexTOML decodes text and finds its table headers.
func parseCodexTOML(text string) (*tomlDoc, error) {
	data := map[string]any{}
	if _, err := toml.Decode(text, &data); err != nil {
		return nil, err
	}
	d := &tomlDoc{data: data, trailingNL: text == "" || strings.HasSuffix(text, "\n")}
	d.lines = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		d.lines = nil
	}
	hs, err := scanTOMLHeaders(d.lines)
	if err != nil {
		return nil, err
	}
	d.headers = hs
	return d, nil
}

// scanTOMLHeaders finds the lines that open a table: a '[' first on a line
// that does not continue a value (a multi-line string or array). Strings,
// comments and brackets inside values are followed so that "[x]" in a
// value is not taken for a header. The decode of the edited text is the
// real check; this only has to find the headers of a file that parses.
func scanTOMLHeaders(lines []string) ([]tomlHeader, error) {
	var hs []tomlHeader
	depth := 0      // open [ and { of a value
	inML := byte(0) // '"' or '\'' inside a multi-line string
	for i, line := range lines {
		j := 0
		if depth == 0 && inML == 0 {
			t := strings.TrimLeft(line, " \t")
			if strings.HasPrefix(t, "[") {
				start := len(line) - len(t)
				h, end, err := parseTOMLHeader(line, start)
				if err != nil {
					return nil, fmt.Errorf("line %d: %v", i+1, err)
				}
				h.Line = i
				hs = append(hs, h)
				j = end
				// Only a comment may follow.
				rest := strings.Trim(line[end:], " \t\r")
				if rest != "" && rest[0] != '#' {
					return nil, fmt.Errorf("line %d: text after the table header", i+1)
				}
				continue
			}
		}
		var err error
		depth, inML, err = scanTOMLValueLine(line[j:], depth, inML)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
	}
	return hs, nil
}

// scanTOMLValueLine follows strings, comments and brackets over one line.
func scanTOMLValueLine(s string, depth int, inML byte) (int, byte, error) {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if inML != 0 {
			q := strings.Repeat(string(inML), 3)
			if inML == '"' && c == '\\' {
				k++
				continue
			}
			if strings.HasPrefix(s[k:], q) {
				// Up to two more quotes may close it (""""" ends with two quotes inside).
				k += 2
				for k+1 < len(s) && s[k+1] == inML {
					k++
				}
				inML = 0
			}
			continue
		}
		switch c {
		case '#':
			return depth, 0, nil
		case '"', '\'':
			if strings.HasPrefix(s[k:], strings.Repeat(string(c), 3)) {
				inML = c
				k += 2
				continue
			}
			end := k + 1
			for ; end < len(s); end++ {
				if c == '"' && s[end] == '\\' {
					end++
					continue
				}
				if s[end] == c {
					break
				}
			}
			if end >= len(s) {
				return 0, 0, errors.New("unterminated string")
			}
			k = end
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		}
	}
	return depth, inML, nil
}

// parseTOMLHeader reads "[key.parts]" or "[[key.parts]]" at line[start].
func parseTOMLHeader(line string, start int) (tomlHeader, int, error) {
	h := tomlHeader{Start: start}
	k := start + 1
	if strings.HasPrefix(line[start:], "[[") {
		h.Array = true
		k++
	}
	for {
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k >= len(line) {
			return h, 0, errors.New("unterminated table header")
		}
		part, next, err := parseTOMLKeyPart(line, k)
		if err != nil {
			return h, 0, err
		}
		h.Key = append(h.Key, part)
		k = next
		for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
			k++
		}
		if k < len(line) && line[k] == '.' {
			k++
			continue
		}
		close := "]"
		if h.Array {
			close = "]]"
		}
		if !strings.HasPrefix(line[k:], close) {
			return h, 0, errors.New("malformed table header")
		}
		h.End = k + len(close)
		return h, h.End, nil
	}
}

// parseTOMLKeyPart reads one bare, basic-quoted or literal key.
func parseTOMLKeyPart(s string, k int) (string, int, error) {
	switch s[k] {
	case '\'':
		end := strings.IndexByte(s[k+1:], '\'')
		if end < 0 {
			return "", 0, errors.New("unterminated key")
		}
		return s[k+1 : k+1+end], k + 2 + end, nil
	case '"':
		var b strings.Builder
		for j := k + 1; j < len(s); j++ {
			c := s[j]
			switch {
			case c == '"':
				return b.String(), j + 1, nil
			case c == '\\' && j+1 < len(s):
				j++
				switch s[j] {
				case 'b':
					b.WriteByte('\b')
				case 't':
					b.WriteByte('\t')
				case 'n':
					b.WriteByte('\n')
				case 'f':
					b.WriteByte('\f')
				case 'r':
					b.WriteByte('\r')
				case 'e':
					b.WriteByte(0x1b)
				case '"', '\\':
					b.WriteByte(s[j])
				case 'u', 'U':
					n := 4
					if s[j] == 'U' {
						n = 8
					}
					if j+n >= len(s) {
						return "", 0, errors.New("bad escape in key")
					}
					r, err := strconv.ParseUint(s[j+1:j+1+n], 16, 32)
					if err != nil {
						return "", 0, errors.New("bad escape in key")
					}
					b.WriteRune(rune(r))
					j += n
				default:
					return "", 0, errors.New("bad escape in key")
				}
			default:
				b.WriteByte(c)
			}
		}
		return "", 0, errors.New("unterminated key")
	default:
		j := k
		for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9' || s[j] == '_' || s[j] == '-') {
			j++
		}
		if j == k {
			return "", 0, errors.New("bad key in table header")
		}
		return s[k:j], j, nil
	}
}

// tomlQuote writes s as a TOML basic string.
func tomlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		case r == utf8.RuneError:
			b.WriteString("\\uFFFD")
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hooksState is the [hooks.state] map of the decoded file (nil if none).
func hooksState(data map[string]any) map[string]any {
	h, _ := data["hooks"].(map[string]any)
	s, _ := h["state"].(map[string]any)
	return s
}

// stateTable finds the header [hooks.state."key"]; -1 if not written so.
func (d *tomlDoc) stateTable(key string) int {
	for i, h := range d.headers {
		if !h.Array && len(h.Key) == 3 && h.Key[0] == "hooks" && h.Key[1] == "state" && h.Key[2] == key {
			return i
		}
	}
	return -1
}

// canAddStateTable: a new [hooks.state."k"] table is valid TOML only if
// hooks and hooks.state were not written inline or as dotted keys (an
// inline table cannot be extended; BurntSushi/toml accepts it anyway, so
// the decode after the edit would not catch it, and Codex may refuse).
func (d *tomlDoc) canAddStateTable() error {
	hooks, ok := d.data["hooks"].(map[string]any)
	if !ok {
		if _, there := d.data["hooks"]; there {
			return errors.New("\"hooks\" is not a table; nothing written")
		}
		return nil
	}
	headed := func(parts ...string) bool {
		for _, h := range d.headers {
			if len(h.Key) >= len(parts) && slices.Equal(h.Key[:len(parts)], parts) {
				return true
			}
		}
		return false
	}
	if len(hooks) > 0 && !headed("hooks") {
		return errors.New("[hooks] is written inline or as dotted keys; sentinel adds its trust entries only as [hooks.state.\"...\"] tables: nothing written")
	}
	state, ok := hooks["state"]
	if !ok {
		return nil
	}
	sm, _ := state.(map[string]any)
	if len(sm) == 0 && !headed("hooks", "state") {
		return errors.New("hooks.state is written inline; nothing written")
	}
	for k := range sm {
		if d.stateTable(k) < 0 {
			return fmt.Errorf("[hooks.state.%s] is %w; sentinel cannot add a table beside it: nothing written", tomlQuote(k), errNotTable)
		}
	}
	return nil
}

// tableEnd is the line after header i's table (the next header, or EOF),
// less the comments and blank lines just before the next header (they
// belong to it).
func (d *tomlDoc) tableEnd(i int) int {
	end := len(d.lines)
	if i+1 < len(d.headers) {
		end = d.headers[i+1].Line
		for end-1 > d.headers[i].Line {
			t := strings.TrimSpace(d.lines[end-1])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			end--
		}
	}
	return end
}

// codexTrustComment precedes each table install writes.
const codexTrustComment = "# sentinel install --codex: trust for sentinel-hook (sentinel uninstall --codex removes it)"

// stateEdit is one change to [hooks.state]: Remove a key's table, Rename a
// table's header From -> To, or Set To's table to trusted_hash Hash.
type stateEdit struct {
	Op       string // "remove", "rename", "set"
	From, To string
	Hash     string
}

// errNotTable: a hooks.state entry is not written as its own table.
var errNotTable = errors.New("not written as its own [hooks.state.\"...\"] table")

// applyStateEdits edits the text and checks the result by decoding it.
func applyStateEdits(text string, edits []stateEdit) (string, error) {
	if len(edits) == 0 {
		return text, nil
	}
	d, err := parseCodexTOML(text)
	if err != nil {
		return "", err
	}
	want := deepCopyTOML(d.data).(map[string]any)
	wstate := hooksState(want)
	moved := map[string]any{}
	for _, e := range edits {
		switch e.Op {
		case "remove", "rename":
			if wstate != nil {
				if v, ok := wstate[e.From]; ok {
					if e.Op == "rename" {
						moved[e.To] = v
					}
					delete(wstate, e.From)
				}
			}
		}
	}
	for k, v := range moved {
		wstate[k] = v
	}
	drop := map[int]bool{}      // line indexes removed
	retitle := map[int]string{} // header line -> new key
	var add []string
	for _, e := range edits {
		switch e.Op {
		case "remove", "rename":
			i := d.stateTable(e.From)
			if i < 0 {
				if _, ok := hooksState(d.data)[e.From]; ok {
					return "", fmt.Errorf("[hooks.state.%s] is %w; change it by hand", tomlQuote(e.From), errNotTable)
				}
				continue
			}
			if e.Op == "rename" {
				retitle[d.headers[i].Line] = e.To
				continue
			}
			first := d.headers[i].Line
			if first > 0 && strings.TrimSpace(d.lines[first-1]) == codexTrustComment {
				first--
				// and the blank line install put before it
				if first > 0 && strings.TrimSpace(d.lines[first-1]) == "" {
					first--
				}
			}
			for l := first; l < d.tableEnd(i); l++ {
				drop[l] = true
			}
		case "set":
			if err := d.canAddStateTable(); err != nil {
				return "", err
			}
			if wstate == nil {
				hk, ok := want["hooks"].(map[string]any)
				if !ok {
					hk = map[string]any{}
					want["hooks"] = hk
				}
				wstate = map[string]any{}
				hk["state"] = wstate
			}
			wstate[e.To] = map[string]any{"trusted_hash": e.Hash}
			add = append(add, "", codexTrustComment, "[hooks.state."+tomlQuote(e.To)+"]", "trusted_hash = "+tomlQuote(e.Hash))
		}
	}
	var out []string
	for l, line := range d.lines {
		if drop[l] {
			continue
		}
		if k, ok := retitle[l]; ok {
			for _, h := range d.headers {
				if h.Line == l {
					line = line[:h.Start] + "[hooks.state." + tomlQuote(k) + "]" + line[h.End:]
				}
			}
		}
		out = append(out, line)
	}
	// Blank lines left at the end by a removal go too.
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 && len(add) > 0 {
		add = add[1:]
	}
	out = append(out, add...)
	res := ""
	if len(out) > 0 {
		res = strings.Join(out, "\n") + "\n"
	}
	got := map[string]any{}
	if _, err := toml.Decode(res, &got); err != nil {
		return "", fmt.Errorf("the edited file would not parse (%v); nothing written", err)
	}
	pruneEmptyState(want)
	pruneEmptyState(got)
	if !reflect.DeepEqual(got, want) {
		return "", errors.New("the edit would change more than [hooks.state] (its layout is one sentinel does not edit); nothing written")
	}
	return res, nil
}

// pruneEmptyState drops an empty hooks.state (and hooks) left by removals:
// a header [hooks.state."k"] removed takes the implicit tables with it.
func pruneEmptyState(m map[string]any) {
	h, ok := m["hooks"].(map[string]any)
	if !ok {
		return
	}
	if s, ok := h["state"].(map[string]any); ok && len(s) == 0 {
		delete(h, "state")
	}
	if len(h) == 0 {
		delete(m, "hooks")
	}
}

func deepCopyTOML(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopyTOML(e)
		}
		return m
	case []map[string]any:
		a := make([]map[string]any, len(x))
		for i, e := range x {
			a[i] = deepCopyTOML(e).(map[string]any)
		}
		return a
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopyTOML(e)
		}
		return a
	default:
		return v
	}
}

// tomlErrText gives a decode error with the line and column to look at.
func tomlErrText(err error) string {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Sprintf("line %d, column %d: %s", pe.Position.Line, pe.Position.Col, pe.Message)
	}
	return err.Error()
}
