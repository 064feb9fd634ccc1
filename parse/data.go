package parse

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// Data positions: words that a command reads as text, never as commands.
// Nothing here yields an execution; the spans are kept for explanations.

// noteData records data positions of a plain command.
func (w *walker) noteData(c *cmd, name string) {
	args := c.argv[1:]
	p := programs.Lookup(name)
	switch {
	case name == "git":
		w.gitData(c, args)
	case p != nil && len(p.TextOpts) > 0: // gh --body, --title
		w.flagData(args, "message", p.TextOpts...)
	case p.Is(programs.Pattern): // grep, rg, sed, jq, ...
		w.patternData(args, "pattern")
	case p != nil && p.Lang == "awk" || name == "busybox awk": // gawk, mawk, ...
		if prog, ok := firstOperand(args, "fvF"); ok {
			w.addData(prog.Value, "awk program")
			if prog.Static {
				// awk's system("...") hands its string to a shell: that is code.
				o := Origin{Kind: OriginInterpreter, Depth: c.origin.Depth + 1, Via: name}
				inner := *c
				inner.stdin = nil
				w.scanCode(&inner, prog.Value, "awk", o)
			}
		}
	case p.Is(programs.Manual): // man, which, type, tldr, ...
		if len(args) > 0 {
			w.addData(joinArgs(args), "lookup")
		}
	}
	if c.stdin != nil && c.stdin.static && c.stdin.text != "" && c.stdin.dataIdx < 0 {
		w.addData(c.stdin.text, "stdin text of "+name)
	}
}

// gitData marks commit, tag and note messages.
func (w *walker) gitData(c *cmd, args []arg) {
	// Skip git's global options to the subcommand (their grammar is the
	// model's).
	git := programs.Lookup("git")
	i := 0
	for i < len(args) && args[i].Static && strings.HasPrefix(args[i].Value, "-") {
		if v := args[i].Value; len(v) == 2 && strings.Contains(git.Opts.Short, v[1:]) ||
			strings.HasPrefix(v, "--") && !strings.Contains(v, "=") && git.Opts.TakesLong(v[2:]) {
			i++
		}
		i++
	}
	if i < len(args) && programs.GitMessage(args[i].Value) {
		w.flagData(args[i+1:], "commit message", programs.GitMessageOpts...)
	}
}

// flagData records the values of the given flags (-m MSG, -mMSG,
// --message=MSG) as data.
func (w *walker) flagData(args []arg, why string, flags ...string) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		for _, f := range flags {
			switch {
			case v == f && i+1 < len(args):
				w.addData(args[i+1].Value, why)
				i++
			case strings.HasPrefix(f, "--") && strings.HasPrefix(v, f+"="):
				w.addData(v[len(f)+1:], why)
			case !strings.HasPrefix(f, "--") && len(f) == 2 && strings.HasPrefix(v, f) && len(v) > 2 && !strings.HasPrefix(v, "--"):
				w.addData(v[2:], why)
			default:
				continue
			}
			break
		}
	}
}

// patternData records the pattern of a search or edit tool: -e PATTERN
// values, or else the first operand.
func (w *walker) patternData(args []arg, why string) {
	found := false
	for i := 0; i < len(args); i++ {
		if args[i].Value == "-e" || args[i].Value == "--regexp" || args[i].Value == "--expression" {
			if i+1 < len(args) {
				w.addData(args[i+1].Value, why)
				found = true
				i++
			}
		}
	}
	if !found {
		if p, ok := firstOperand(args, "fABCmd"); ok {
			w.addData(p.Value, why)
		}
	}
}

// firstOperand returns the first word that is not an option; withArg
// lists short options that take a value.
func firstOperand(args []arg, withArg string) (arg, bool) {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if v == "--" {
			if i+1 < len(args) {
				return args[i+1], true
			}
			return arg{}, false
		}
		if len(v) > 1 && v[0] == '-' && args[i].Static {
			if len(v) == 2 && strings.Contains(withArg, v[1:]) {
				i++
			}
			continue
		}
		return args[i], true
	}
	return arg{}, false
}

// echoText is what echo or printf with static arguments prints. For
// printf, %s/%b/%d/%q consume arguments in order and the format is reused
// while arguments remain; other conversions make the text unknown.
func echoText(name string, args []arg) (string, bool) {
	if !allStatic(args) {
		return "", false
	}
	if name == "echo" {
		newline, escapes := true, false
		for len(args) > 0 && isEchoFlag(args[0].Value) {
			newline = newline && !strings.Contains(args[0].Value, "n")
			escapes = escapes || strings.Contains(args[0].Value, "e")
			args = args[1:]
		}
		text := joinArgs(args)
		if escapes {
			text = ansiC(text)
		}
		if newline {
			text += "\n"
		}
		return text, true
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	if len(args) == 0 || strings.HasPrefix(args[0].Value, "-") {
		return "", false
	}
	format, rest := ansiC(args[0].Value), args[1:]
	var b strings.Builder
	for n := 0; n < 1000; n++ {
		consumed := false
		for i := 0; i < len(format); i++ {
			if format[i] != '%' || i+1 >= len(format) {
				b.WriteByte(format[i])
				continue
			}
			i++
			switch format[i] {
			case '%':
				b.WriteByte('%')
			case 's', 'b', 'd', 'q', 'o', 'x', 'X', 'c', 'i', 'u':
				if len(rest) > 0 {
					v := rest[0].Value
					switch format[i] {
					case 'b':
						v = ansiC(v)
					case 'o', 'x', 'X', 'i', 'u':
						var ok bool
						if v, ok = printfInt(format[i], v); !ok {
							return "", false
						}
					case 'c':
						v = v[:min(1, len(v))]
					}
					b.WriteString(v)
					rest = rest[1:]
					consumed = true
				}
			default:
				return "", false
			}
		}
		if len(rest) == 0 || !consumed {
			break
		}
	}
	return b.String(), true
}

func isEchoFlag(v string) bool {
	if len(v) < 2 || v[0] != '-' {
		return false
	}
	return strings.Trim(v[1:], "neE") == ""
}
