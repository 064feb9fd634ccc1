package toolcall

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// pathFields are the tool_input strings that name what a tool acts on; a
// character there that the kernel or the tool reads differently from the
// judge makes the call unjudged, as in a shell command.
var pathFields = []string{"file_path", "notebook_path", "path", "url", "pattern", "glob"}

// Unfaithful says why the judge cannot see the input as what would run
// sees it ("" when it can). The judge would be deciding about another
// command than the one that runs, so the call is not judged:
//   - NUL: the kernel ends every argument and path at a NUL, the parser
//     keeps going (git reset --hard<NUL>origin/main runs git reset --hard);
//   - U+FFFD: the payload's decoder put it where the input held a byte or
//     a lone surrogate it could not decode, so what the shell gets is not
//     known;
//   - CR in a shell command: bash reads it as part of a word, the parser
//     as a blank (rm -rf x<CR> removes "x\r" in bash; the parser sees "x"),
//     lone or before LF alike.
func Unfaithful(tool string, input json.RawMessage) string {
	obj, err := objectKeys(input, "tool_input")
	if err != nil {
		return "" // the judge reports a malformed tool_input itself
	}
	return unfaithful(tool, obj)
}

// replacement is U+FFFD in UTF-8.
const replacement = "\uFFFD"

// unfaithful checks the members of tool_input that name what runs.
func unfaithful(tool string, obj map[string]json.RawMessage) string {
	check := func(field string, shell bool) string {
		raw, ok := obj[field]
		if !ok || len(raw) < 2 || raw[0] != '"' {
			return "" // absent or not a string: the judge says so itself
		}
		var s string
		if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
			// No escape, valid UTF-8: valid JSON holds no raw control
			// character (no NUL, no CR), so only a literal U+FFFD can be there.
			if !bytes.Contains(raw, []byte(replacement)) {
				return ""
			}
			s = string(raw[1 : len(raw)-1])
		} else if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		if !strings.ContainsRune(s, 0) && !strings.Contains(s, replacement) && !(shell && strings.ContainsRune(s, '\r')) {
			return ""
		}
		for i, r := range s {
			what := ""
			switch {
			case r == 0:
				what = "a NUL byte (the kernel stops reading there; the judge would not)"
			case r == '\uFFFD':
				what = "U+FFFD, the replacement for a byte or code unit that could not be decoded"
			case r == '\r' && shell:
				what = "a carriage return (bash keeps it in the word; the parser reads a blank)"
			}
			if what != "" {
				return fmt.Sprintf("tool_input.%s holds %s at byte %d; what would run is not what would be judged", field, what, i)
			}
		}
		return ""
	}
	if tool == "Bash" {
		if why := check("command", true); why != "" {
			return why
		}
	}
	for _, f := range pathFields {
		if why := check(f, false); why != "" {
			return why
		}
	}
	return ""
}
