package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinel-guard/sentinel/internal/paths"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/protocol"
	"github.com/sentinel-guard/sentinel/register"
)

// protoOpenRegister opens the operator's register; readOnly for commands
// that only read it. A missing register is no_register.
func protoOpenRegister(readOnly bool) (*register.Register, error) {
	p, err := paths.RegisterPath()
	if err != nil {
		return nil, fail(exitError, "%v", err)
	}
	var r *register.Register
	if readOnly {
		r, err = register.OpenReadOnly(p)
	} else {
		r, err = register.Open(p)
	}
	if err != nil {
		return nil, registerError(p, err)
	}
	return r, nil
}

// protoJSON prints v indented, for --json.
func protoJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// gradeNote is the committed input of a grade entry: the note stays local
// (withheld from public bundles like any input) but is covered by the chain.
type gradeNote struct {
	Note string `json:"note"`
}

func newGradeCmd() *cobra.Command {
	var note, from string
	var asJSON bool
	grade := &cobra.Command{
		Use:   "grade [SEQ true|false|unclear | --from FILE]",
		Short: "Grade the sentinel's flags (deny or ask): one, a file of them, or a walk",
		Long: `grade records your judgement of a flag: was the deny or ask right (true),
wrong (false) or unclear? The grade is appended to the register as its own
chained entry, so grades are sealed like decisions; the latest grade of an
entry wins. Only deny and ask decisions can be graded.

Three ways:
  sentinel grade SEQ LABEL      one flag
  sentinel grade --from FILE    many: one "SEQ LABEL [note]" per line (# comments;
                                "-" reads stdin). Every line is checked first; if
                                any is wrong nothing is graded and the line is named.
  sentinel grade                on a terminal: a walk through the ungraded flags,
                                oldest first, one key per grade (t true, f false,
                                u unclear, n add a note first, s skip, q quit)

'sentinel grades --ungraded' lists what is left to grade.

Grades feed self-concordance, true / (true + false) with unclear left out:
it measures how often you agree with the tool you run. It is not precision,
and sentinel never calls it that.

Exit codes: 0 graded, 3 usage or the entry is not a flag, 4 the register
could not be written, 5 no register or no such entry.`,
		Example: `  sentinel grade 412 true --note "would have discarded a day of work"
  sentinel grade 415 false --note "the words were a commit message"
  sentinel grades --ungraded --json | jq -r '.[] | "\(.seq) unclear"' > grades.txt
  sentinel grade --from grades.txt
  sentinel grade                      # the walk, on a terminal`,
		Args: cobra.MaximumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var lines []gradeLine
			switch {
			case from != "" && len(args) > 0:
				return fail(exitUsage, "give SEQ LABEL or --from FILE, not both")
			case from != "":
				var err error
				if lines, err = readGradeFile(from, cmd.InOrStdin()); err != nil {
					return err
				}
			case len(args) == 2:
				l, err := parseGradeLine(args[0], args[1], note)
				if err != nil {
					return err
				}
				lines = []gradeLine{l}
			case len(args) == 1:
				return fail(exitUsage, "grade %s: give the label too (true, false or unclear)", args[0])
			case asJSON || !interactive(cmd):
				return fail(exitUsage, "give SEQ LABEL or --from FILE (the walk through the ungraded flags needs a terminal)")
			}
			// Read-only first: a grade for a register that does not exist
			// must not create one.
			ro, err := protoOpenRegister(true)
			if err != nil {
				return err
			}
			ro.Close()
			r, err := protoOpenRegister(false)
			if err != nil {
				return err
			}
			defer r.Close()
			if lines == nil {
				return gradeWalk(cmd, r)
			}
			gs, err := appendGrades(r, lines)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if asJSON {
				if from == "" {
					return protoJSON(w, entryJSON(gs[0].grade))
				}
				out := make([]logEntry, len(gs))
				for i, g := range gs {
					out[i] = entryJSON(g.grade)
				}
				return protoJSON(w, out)
			}
			for _, g := range gs {
				fmt.Fprintf(w, "entry %d (%s %s) graded %s: grade entry %d\n",
					g.flag.Seq, g.flag.Decision, strings.Join(g.flag.Rules, ","), g.grade.Label, g.grade.Seq)
			}
			return nil
		},
	}
	grade.Flags().StringVar(&note, "note", "", "why (kept in the register, withheld from public bundles)")
	grade.Flags().StringVar(&from, "from", "", `grade every "SEQ LABEL [note]" line of this file ("-": stdin)`)
	grade.Flags().BoolVar(&asJSON, "json", false, "print the grade entries as JSON")
	return grade
}

func newGradesCmd() *cobra.Command {
	var gJSON, ungraded bool
	var n int
	var transcripts string
	grades := &cobra.Command{
		Use:   "grades",
		Short: "List the grades of the sentinel's flags, with the decisions",
		Long: `grades lists every graded flag once, with its latest grade (earlier grades
are superseded but stay in the register), the decision, the rules that
fired, whether a human could answer, what happened to the call, and your
note. It ends with self-concordance: your agreement with the tool, not
its precision.

--ungraded lists instead the flags not graded yet, oldest first, with
their input: what 'sentinel grade' (the walk) or 'sentinel grade --from'
would take.`,
		Example: `  sentinel grades
  sentinel grades --json | jq '.grades[] | select(.grade == "false")'
  sentinel grades --ungraded
  sentinel grades --ungraded --json | jq '.count'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			r, err := protoOpenRegister(true)
			if err != nil {
				return err
			}
			defer r.Close()
			defer registerProgress(cmd, r, "reading the register", gJSON, false)()
			if ungraded {
				c, err := newRowCap(cmd, n, gJSON, false)
				if err != nil {
					return err
				}
				if err := printUngraded(cmd.OutOrStdout(), r, gJSON, c); err != nil {
					return fail(exitError, "%v", err)
				}
				return nil
			}
			answers, _, err := readAnswersFor(transcripts, false)
			if err != nil {
				return err
			}
			defer answers.Close()
			c, err := newRowCap(cmd, n, gJSON, true)
			if err != nil {
				return err
			}
			if err := streamGrades(cmd.OutOrStdout(), r, answers, gJSON, c); err != nil {
				return fail(exitError, "%v", err)
			}
			if err := answers.Err(); err != nil {
				return fail(exitError, "%v", err)
			}
			return nil
		},
	}
	grades.Flags().BoolVar(&gJSON, "json", false, "print as JSON")
	grades.Flags().BoolVar(&ungraded, "ungraded", false, "list the flags not graded yet")
	grades.Flags().IntVarP(&n, "n", "n", -1, "at most N rows: the newest graded flags, the oldest ungraded (0: all; default all, or 100 on a terminal)")
	grades.Flags().StringVar(&transcripts, "transcripts", "", "transcript directory, for asks declined at the prompt (default $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects)")
	return grades
}

// flagFields are what every listing of flags shows of the decision.
type flagFields struct {
	Seq      int64     `json:"seq"`
	Time     time.Time `json:"time"`
	Tool     string    `json:"tool"`
	Decision string    `json:"decision"`
	Attended bool      `json:"attended"`
	Rules    []string  `json:"rules"`
}

// gradedFlag is one line of `sentinel grades`.
type gradedFlag struct {
	flagFields
	Outcome  string    `json:"outcome"`
	Grade    string    `json:"grade"`
	GradeSeq int64     `json:"grade_seq"`
	GradedAt time.Time `json:"graded_at"`
	Note     string    `json:"note"`
	Regraded int       `json:"earlier_grades"`
}

type gradesReport struct {
	Grades          []gradedFlag `json:"grades"`
	True            int          `json:"true"`
	False           int          `json:"false"`
	Unclear         int          `json:"unclear"`
	SelfConcordance *float64     `json:"self_concordance"` // null: nothing graded true or false
	Definition      string       `json:"definition"`
}

const selfConcordanceDef = "true / (true + false) over the latest grade of each flag, unclear excluded: the operator agreeing with the tool, not precision"

// eachGradedFlag calls fn with each graded flag and its latest grade, in
// sequence order of the flag, streamed (register.EachLatestGrade: SQLite
// orders the grades), and returns the tally. Memory holds one flag at a
// time, never every graded flag. What happened to the call is
// outcome.Of, as everywhere: an ask the transcripts show declined is
// declined here too.
func eachGradedFlag(r *register.Register, answers *outcome.Answers, fn func(*gradedFlag) error) (*gradesReport, error) {
	ran, done, err := r.RanLookup()
	if err != nil {
		return nil, err
	}
	defer done()
	rep := &gradesReport{Definition: selfConcordanceDef}
	var in interner
	err = r.EachLatestGrade(func(ref, seq int64, earlier int) error {
		f, err := r.Get(ref)
		if errors.Is(err, register.ErrNoEntry) {
			return nil
		} else if err != nil {
			return err
		}
		if !protocol.IsFlag(*f) {
			return nil // a grade of a non-flag cannot be appended by sentinel; ignore
		}
		e, err := r.Get(seq)
		if err != nil {
			return err
		}
		var n gradeNote
		_ = json.Unmarshal(e.Input, &n) // commitment-only grades have no note
		g := &gradedFlag{flagFields: flagFields{Seq: f.Seq, Time: f.Time, Tool: in.get(f.Tool), Decision: in.get(f.Decision),
			Attended: f.Attended, Rules: in.list(f.Rules)}, Grade: in.get(e.Label), GradeSeq: e.Seq, GradedAt: e.Time, Note: n.Note,
			Regraded: earlier}
		didRun := false
		if f.ToolUseID != "" {
			if didRun, err = ran(f.ToolUseID); err != nil {
				return err
			}
		}
		g.Outcome, _ = outcome.Of(g.Decision, f.ToolUseID, didRun, answers)
		switch g.Grade {
		case protocol.GradeTrue:
			rep.True++
		case protocol.GradeFalse:
			rep.False++
		default:
			rep.Unclear++
		}
		return fn(g)
	})
	if err != nil {
		return nil, err
	}
	if rep.True+rep.False > 0 {
		v := float64(rep.True) / float64(rep.True+rep.False)
		rep.SelfConcordance = &v
	}
	return rep, nil
}

// collectGrades is eachGradedFlag with every flag kept (the tests compare
// it with the form it replaced).
func collectGrades(r *register.Register, answers *outcome.Answers) (*gradesReport, error) {
	var gs []gradedFlag
	rep, err := eachGradedFlag(r, answers, func(g *gradedFlag) error {
		gs = append(gs, *g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Grades = append([]gradedFlag{}, gs...)
	return rep, nil
}

// streamGrades prints the graded flags as they come: the table aligned per
// block of rows, the JSON "grades" array element by element, the tally
// after it. c caps the rows shown (the last ones: the newest flags); the
// tally counts every grade.
func streamGrades(w io.Writer, r *register.Register, answers *outcome.Answers, asJSON bool, c *rowCap) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	arr := jsonArray{w: bw, indent: "  "}
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	if asJSON {
		bw.WriteString("{\n  \"grades\": ")
	} else {
		fmt.Fprintln(tw, "SEQ\tDECISION\tMODE\tRULES\tOUTCOME\tGRADE\tNOTE")
	}
	rep, err := eachGradedFlag(r, answers, func(g *gradedFlag) error {
		var line string
		if asJSON {
			b, err := json.MarshalIndent(g, "    ", "  ")
			if err != nil {
				return err
			}
			line = string(b)
		} else {
			line = fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%s\n", g.Seq, g.Decision, modeWord(g.Attended),
				strings.Join(g.Rules, ","), g.Outcome, g.Grade, g.Note)
		}
		if !c.add(line) {
			return nil
		}
		if asJSON {
			return arr.addRaw(line)
		}
		tw.Write([]byte(line))
		if c.seen%logBlock == 0 {
			return tw.Flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if asJSON {
		for _, l := range c.keptLines() {
			arr.addRaw(l)
		}
		arr.end()
		tally := map[string]any{"true": rep.True, "false": rep.False, "unclear": rep.Unclear,
			"self_concordance": rep.SelfConcordance, "definition": rep.Definition}
		if l := c.left(); l > 0 {
			tally["not_shown"] = l
		}
		for _, k := range []string{"true", "false", "unclear", "self_concordance", "definition", "not_shown"} {
			v, ok := tally[k]
			if !ok {
				continue
			}
			b, _ := json.Marshal(v)
			fmt.Fprintf(bw, ",\n  %q: %s", k, b)
		}
		bw.WriteString("\n}\n")
		return bw.Flush()
	}
	if c.seen == 0 {
		bw.Reset(w)
		fmt.Fprintln(w, "no flags graded yet: sentinel grade SEQ true|false|unclear")
		return nil
	}
	c.kept(tw)
	tw.Flush()
	bw.WriteString(c.note("graded flags"))
	fmt.Fprintf(bw, "\n%d true, %d false, %d unclear; self-concordance %s\n(%s)\n",
		rep.True, rep.False, rep.Unclear, protoRatio(rep.SelfConcordance, "not measured: nothing graded true or false"), rep.Definition)
	return bw.Flush()
}

// protoRatio prints a ratio, or why there is none (never 0 for null).
func protoRatio(v *float64, none string) string {
	if v == nil {
		return none
	}
	return fmt.Sprintf("%.2f", *v)
}

// interner keeps one copy of each of the few strings that recur in every
// entry (tool, decision, rule ids), copied out of the row they came in.
type interner map[string]string

func (in *interner) get(s string) string {
	if *in == nil {
		*in = interner{}
	}
	if v, ok := (*in)[s]; ok {
		return v
	}
	v := strings.Clone(s)
	(*in)[v] = v
	return v
}

func (in *interner) list(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = in.get(s)
	}
	return out
}
