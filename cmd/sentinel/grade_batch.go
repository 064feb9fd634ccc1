package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/sentinel-guard/sentinel/internal/version"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
)

// gradeLine is one grade to append: from the arguments, a --from file or
// a key of the walk.
type gradeLine struct {
	seq   int64
	label string
	note  string
	where string // "line 3" of a --from file, for errors
}

func parseGradeLine(seqS, label, note string) (gradeLine, error) {
	seq, err := strconv.ParseInt(seqS, 10, 64)
	if err != nil || seq < 1 {
		return gradeLine{}, fail(exitUsage, "%q is not a register sequence number", seqS)
	}
	if label != protocol.GradeTrue && label != protocol.GradeFalse && label != protocol.GradeUnclear {
		return gradeLine{}, fail(exitUsage, "grade %q: want true, false or unclear", label)
	}
	return gradeLine{seq: seq, label: label, note: note}, nil
}

// readGradeFile reads "SEQ LABEL [note...]" lines; # starts a comment
// line, blank lines are skipped. Every line is parsed before anything is
// graded.
func readGradeFile(path string, stdin io.Reader) ([]gradeLine, error) {
	in := stdin
	if path != "-" {
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			return nil, fail(exitUsage, "--from %s: no such file", path)
		} else if err != nil {
			return nil, fail(exitError, "--from: %v", err)
		}
		defer f.Close()
		in = f
	}
	var lines []gradeLine
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Fields(text)
		if len(f) < 2 {
			return nil, fail(exitUsage, "%s line %d: want SEQ LABEL [note], got %q", path, n, text)
		}
		note := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(text, f[0])), f[1]))
		l, err := parseGradeLine(f[0], f[1], note)
		if err != nil {
			return nil, fail(exitUsage, "%s line %d: %v", path, n, err)
		}
		l.where = fmt.Sprintf("%s line %d: ", path, n)
		lines = append(lines, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fail(exitError, "--from %s: %v", path, err)
	}
	if len(lines) == 0 {
		return nil, fail(exitUsage, "--from %s: no grades in it", path)
	}
	return lines, nil
}

type appended struct{ flag, grade *register.Entry }

// appendGrades checks every line against the register (the entry exists
// and is a flag), then appends one grade entry per line. Nothing is
// appended if any line is wrong.
func appendGrades(r *register.Register, lines []gradeLine) ([]appended, error) {
	flags := make([]*register.Entry, len(lines))
	for i, l := range lines {
		e, err := r.Get(l.seq)
		if errors.Is(err, register.ErrNoEntry) {
			head, _, _ := r.Head()
			return nil, failCode("no_entry", "%sentry %d does not exist (the register ends at entry %d)", l.where, l.seq, head)
		} else if err != nil {
			return nil, fail(exitError, "%v", err)
		}
		if !protocol.IsFlag(*e) {
			what := fmt.Sprintf("a %s entry", e.Kind)
			if e.Kind == register.KindDecision || e.Kind == register.KindError {
				what = "an " + e.Decision
			}
			return nil, failCode("not_a_flag", "%sentry %d is %s, not a flag: only deny and ask decisions can be graded", l.where, l.seq, what)
		}
		flags[i] = e
	}
	out := make([]appended, 0, len(lines))
	for i, l := range lines {
		input, _ := json.Marshal(gradeNote{Note: l.note})
		g := &register.Entry{Kind: register.KindGrade, Ref: l.seq, Label: l.label, Input: input,
			SessionID: flags[i].SessionID, Tool: flags[i].Tool, Rules: []string{}, Version: version.Version}
		if err := r.Append(g); err != nil {
			return out, fail(exitError, "after %d of %d grades: %v", len(out), len(lines), err)
		}
		out = append(out, appended{flags[i], g})
	}
	return out, nil
}

// ungradedFlag is one line of `grades --ungraded`.
type ungradedFlag struct {
	flagFields
	Reason string `json:"reason"`
	Input  string `json:"input"` // the command or path, shortened; "" when withheld
}

// ungradedFlags lists the flags not graded yet, oldest first (the walk
// needs them all).
func ungradedFlags(r *register.Register) ([]ungradedFlag, error) {
	flags := []ungradedFlag{}
	err := eachUngraded(r, func(f *ungradedFlag) error {
		flags = append(flags, *f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return flags, nil
}

// eachUngraded reads which entries are graded (by the kind index), then
// streams the register once and hands fn each flag not graded, oldest
// first, in a short form.
func eachUngraded(r *register.Register, fn func(*ungradedFlag) error) error {
	refs, err := r.GradeRefs()
	if err != nil {
		return err
	}
	graded := make(map[int64]bool, len(refs))
	for _, p := range refs {
		graded[p[1]] = true
	}
	var str interner
	return r.Each(1, func(e *register.Entry) error {
		if !protocol.IsFlag(*e) || graded[e.Seq] {
			return nil
		}
		in := ""
		if len(e.Input) > 0 {
			in = shortInput(e.Input, 200)
		}
		return fn(&ungradedFlag{flagFields: flagFields{Seq: e.Seq, Time: e.Time, Tool: str.get(e.Tool),
			Decision: str.get(e.Decision), Attended: e.Attended, Rules: str.list(e.Rules)}, Reason: str.get(e.Reason), Input: strings.Clone(in)})
	})
}

// printUngraded streams the ungraded flags: the table aligned per block of
// rows, or the JSON list element by element with its count after it.
func printUngraded(w io.Writer, r *register.Register, asJSON bool, c *rowCap) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	n := 0
	var tw *tabwriter.Writer
	arr := jsonArray{w: bw, indent: "  "}
	if asJSON {
		bw.WriteString("{\n  \"ungraded\": ")
	}
	err := eachUngraded(r, func(f *ungradedFlag) error {
		n++
		if !c.add("") {
			return nil
		}
		if asJSON {
			return arr.add(f)
		}
		if tw == nil {
			tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "SEQ\tTIME (UTC)\tDECISION\tMODE\tTOOL\tRULES\tINPUT")
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", f.Seq, f.Time.UTC().Format("2006-01-02 15:04"), f.Decision,
			modeWord(f.Attended), f.Tool, strings.Join(f.Rules, ","), shortInput([]byte(f.Input), 60))
		if n%logBlock == 0 {
			return tw.Flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	switch {
	case asJSON:
		arr.end()
		fmt.Fprintf(bw, ",\n  \"count\": %d", n)
		if l := c.left(); l > 0 {
			fmt.Fprintf(bw, ",\n  \"not_shown\": %d", l)
		}
		bw.WriteString("\n}\n")
	case n == 0:
		// Nothing ungraded and nothing graded: there is no flag at all, and
		// "every flag is graded" would claim grades the user never gave.
		refs, err := r.GradeRefs()
		if err != nil {
			return err
		}
		if len(refs) == 0 {
			fmt.Fprintln(bw, "no flag to grade: the register holds no ask or deny")
		} else {
			fmt.Fprintln(bw, "every flag is graded")
		}
	default:
		tw.Flush()
		bw.WriteString(c.note("ungraded flags"))
		fmt.Fprintf(bw, "\n%d ungraded: sentinel grade (the walk), or sentinel grade --from FILE\n", n)
	}
	return bw.Flush()
}

func modeWord(attended bool) string {
	if attended {
		return "attended"
	}
	return "unattended"
}

// interactive reports whether the walk can run: stdin and stdout are the
// operator's terminal.
func interactive(cmd *cobra.Command) bool {
	in, ok1 := cmd.InOrStdin().(*os.File)
	out, ok2 := cmd.OutOrStdout().(*os.File)
	if !ok2 {
		if cw, ok := cmd.OutOrStdout().(*countingWriter); ok {
			out, ok2 = cw.w.(*os.File)
		}
	}
	return ok1 && ok2 && term.IsTerminal(int(in.Fd())) && term.IsTerminal(int(out.Fd()))
}

// gradeWalk shows the ungraded flags one by one and grades each with one
// key. The terminal is in raw mode only while a key is awaited.
func gradeWalk(cmd *cobra.Command, r *register.Register) error {
	fs, err := ungradedFlags(r)
	if err != nil {
		return fail(exitError, "%v", err)
	}
	in := cmd.InOrStdin().(*os.File)
	keys := func() (byte, error) {
		old, err := term.MakeRaw(int(in.Fd()))
		if err != nil {
			return 0, err
		}
		defer term.Restore(int(in.Fd()), old)
		var b [1]byte
		_, err = in.Read(b[:])
		return b[0], err
	}
	return walkFlags(cmd.OutOrStdout(), fs, keys, func(l gradeLine) (*register.Entry, error) {
		gs, err := appendGrades(r, []gradeLine{l})
		if err != nil {
			return nil, err
		}
		return gs[0].grade, nil
	})
}

// walkFlags is the walk's loop, apart from the terminal so that it can be
// tested with any key source.
func walkFlags(w io.Writer, fs []ungradedFlag, key func() (byte, error), grade func(gradeLine) (*register.Entry, error)) error {
	if len(fs) == 0 {
		fmt.Fprintln(w, "every flag is graded")
		return nil
	}
	done := 0
	fmt.Fprintf(w, "%d ungraded flags, oldest first. Keys: t true (right to stop it), f false (wrong), u unclear, n note, s skip, q quit\n", len(fs))
	for i, f := range fs {
		fmt.Fprintf(w, "\n[%d/%d] entry %d  %s  %s %s (%s)  %s\n", i+1, len(fs), f.Seq,
			f.Time.UTC().Format("2006-01-02 15:04"), f.Decision, strings.Join(f.Rules, ","), modeWord(f.Attended), f.Tool)
		if f.Input != "" {
			fmt.Fprintf(w, "  %s\n", f.Input)
		}
		if f.Reason != "" {
			fmt.Fprintf(w, "  reason: %s\n", f.Reason)
		}
		note := ""
	ask:
		for {
			fmt.Fprint(w, "grade [t/f/u/n/s/q]? ")
			k, err := key()
			if err != nil {
				fmt.Fprintln(w)
				return fail(exitError, "reading the key: %v", err)
			}
			fmt.Fprintf(w, "%c\n", k)
			label := ""
			switch k {
			case 't', 'T':
				label = protocol.GradeTrue
			case 'f', 'F':
				label = protocol.GradeFalse
			case 'u', 'U':
				label = protocol.GradeUnclear
			case 'n', 'N':
				fmt.Fprint(w, "note: ")
				if note, err = readNote(w, key); err != nil {
					return fail(exitError, "reading the note: %v", err)
				}
				continue
			case 's', 'S':
				break ask
			case 'q', 'Q', 3, 4: // q, Ctrl-C, Ctrl-D (raw mode delivers them as bytes)
				fmt.Fprintf(w, "graded %d, %d left\n", done, len(fs)-i)
				return nil
			default:
				continue
			}
			g, err := grade(gradeLine{seq: f.Seq, label: label, note: note})
			if err != nil {
				return err
			}
			done++
			fmt.Fprintf(w, "  graded %s: grade entry %d\n", label, g.Seq)
			break ask
		}
	}
	fmt.Fprintf(w, "\ngraded %d of %d\n", done, len(fs))
	return nil
}

// readNote reads a line key by key (the terminal stays raw, so keys typed
// ahead are not lost between modes), echoing it, with backspace.
func readNote(w io.Writer, key func() (byte, error)) (string, error) {
	var b []byte
	for {
		k, err := key()
		if err != nil {
			return "", err
		}
		switch {
		case k == '\r' || k == '\n':
			fmt.Fprint(w, "\r\n")
			return strings.TrimSpace(string(b)), nil
		case k == 127 || k == 8:
			if len(b) > 0 {
				b = b[:len(b)-1]
				fmt.Fprint(w, "\b \b")
			}
		case k == 3 || k == 4:
			fmt.Fprint(w, "\r\n")
			return "", nil
		case k >= ' ' || k >= 0x80:
			b = append(b, k)
			w.Write([]byte{k})
		}
	}
}

// deniesGradedTrue lists, streaming the register once, the denies whose
// latest grade is true, as sequence numbers in order.
func deniesGradedTrue(r *register.Register) ([]string, error) {
	denies := map[int64]bool{}
	latest := map[int64]string{}
	err := r.Each(1, func(e *register.Entry) error {
		switch {
		case protocol.IsFlag(*e) && e.Decision == "deny":
			denies[e.Seq] = true
		case e.Kind == register.KindGrade && denies[e.Ref]:
			latest[e.Ref] = e.Label
		}
		return nil
	})
	var seqs []int64
	for s, l := range latest {
		if l == protocol.GradeTrue {
			seqs = append(seqs, s)
		}
	}
	slices.Sort(seqs)
	out := make([]string, len(seqs))
	for i, s := range seqs {
		out[i] = strconv.FormatInt(s, 10)
	}
	return out, err
}
