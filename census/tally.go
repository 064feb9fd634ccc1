package census

import (
	"encoding/binary"
	"errors"
	"sort"
	"time"

	"github.com/sentinel-guard/sentinel/internal/spill"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/transcript"
)

// day is a UTC date as days since 1970-01-01; noDay is an undated record.
type day int32

const noDay day = -1 << 31

func dayOf(t time.Time) day {
	if t.IsZero() {
		return noDay
	}
	return day(t.UTC().Unix() / 86400)
}

func (d day) time() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// counts are one bucket's transcript counts, keyed by stopper.
type counts struct {
	calls, stops int64
	by           map[string]int64
	flags        int64
}

func (c *counts) add(stopper string, n int64) {
	if c.by == nil {
		c.by = map[string]int64{}
	}
	c.by[stopper] += n
}

// hookStop is a hook's stop in the window, until the register says whose.
type hookStop struct {
	d          day
	session    transcript.Key
	hasSession bool
	marker     bool
	unanswered bool
	confirmed  bool
	codex      bool // from a Codex rollout: an ask is unanswered by construction (codexUnanswered)
}

// hookCodec: the day, the session's key, then the five flags as one byte
// (21 bytes a stop, on disk past spill.DefaultCap stops).
var hookCodec = spill.Codec[hookStop]{
	Enc: func(h hookStop) []byte {
		b := binary.LittleEndian.AppendUint32(make([]byte, 0, 21), uint32(h.d))
		b = append(b, h.session[:]...)
		var f byte
		for i, v := range []bool{h.hasSession, h.marker, h.unanswered, h.confirmed, h.codex} {
			if v {
				f |= 1 << i
			}
		}
		return append(b, f)
	},
	Dec: func(b []byte) hookStop {
		var h hookStop
		if len(b) != 21 {
			return h
		}
		h.d = day(int32(binary.LittleEndian.Uint32(b)))
		copy(h.session[:], b[4:20])
		f := b[20]
		h.hasSession, h.marker, h.unanswered, h.confirmed, h.codex = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0, f&16 != 0
		return h
	},
}

// tally accumulates what the transcripts and the register say.
type tally struct {
	o        *Options
	files    int
	total    counts
	days     map[day]*counts
	byKind   map[string]int64
	byCat    map[string]int64
	byClass  map[string]int64
	approved int64
	hooks    *spill.Map[transcript.Key, hookStop] // hook stops until the register says whose
	nHooks   int64
	answers  *outcome.Answers
	first    day
	last     day
	// per file: where each call is, and the rule stops to classify
	uses      map[transcript.Key]transcript.Call
	ruleStops []ruleStop
	outcomeNM []NotMeasured
	hasReg    bool
	wit       *Witness       // the schedulers' record (witness.go); nil without --witness
	witJoin   *WitnessJoined // where the unattended flags fall against it
	pair      witnessPair    // transcript and register side by side (witness_pair.go)
}

type ruleStop struct {
	key transcript.Key
	d   day
}

func newTally(o *Options) *tally {
	t := &tally{o: o, days: map[day]*counts{}, hooks: spill.New[transcript.Key](hookCodec),
		answers: outcome.NewAnswers(), uses: map[transcript.Key]transcript.Call{}, first: noDay, last: noDay,
		byKind:  zeroCounts(transcript.KindBlocked, transcript.KindUnavailable, transcript.KindParsingError),
		byClass: zeroCounts(CallClasses...)}
	cats := []string{transcript.CatUnspecified, transcript.CatOther}
	for _, k := range transcript.ClassifierCategories {
		cats = append(cats, k)
	}
	t.byCat = zeroCounts(cats...)
	return t
}

func zeroCounts(keys ...string) map[string]int64 {
	m := make(map[string]int64, len(keys))
	for _, k := range keys {
		m[k] = 0
	}
	return m
}

func (t *tally) bucket(d day) *counts {
	if d == noDay {
		return nil
	}
	if t.first == noDay || d < t.first {
		t.first = d
	}
	if t.last == noDay || d > t.last {
		t.last = d
	}
	c := t.days[d]
	if c == nil {
		c = &counts{}
		t.days[d] = c
	}
	return c
}

func (t *tally) handler() transcript.Handler {
	return transcript.Handler{
		Call: func(_ string, c *transcript.Call) {
			t.uses[c.Key] = *c
			t.answers.Calls.Add(c)
			if c.Dup || !c.InWindow {
				return
			}
			t.total.calls++
			if b := t.bucket(dayOf(c.Time)); b != nil {
				b.calls++
			}
		},
		Result:   t.result,
		FileDone: t.fileDone,
	}
}

func (t *tally) result(_ string, r *transcript.Result) {
	t.answers.Add(r)
	if !r.InWindow {
		return
	}
	if r.Answer == transcript.AnswerApproved {
		t.approved++
	}
	if r.Stopper == "" {
		return
	}
	d := dayOf(r.Time)
	if r.Stopper == transcript.StopHook {
		// Whose stop it is, the register says (fill).
		h := &hookStop{d: d, marker: r.Marker, unanswered: r.Unanswered && !r.Codex, codex: r.Codex}
		if r.Session != "" {
			h.session, h.hasSession = transcript.KeyOf(r.Session), true
		}
		t.hooks.Put(r.Key, *h)
		t.nHooks++
		t.bucket(d) // the day is in the period even before it is resolved
		return
	}
	t.stop(r.Stopper, d)
	switch r.Stopper {
	case StopClassifier:
		t.byKind[r.Kind]++
		if r.Kind == transcript.KindBlocked {
			t.byCat[r.Category]++
		}
	case StopRules:
		t.ruleStops = append(t.ruleStops, ruleStop{key: r.Key, d: d})
	}
}

func (t *tally) stop(stopper string, d day) {
	t.total.stops++
	t.total.add(stopper, 1)
	if b := t.bucket(d); b != nil {
		b.stops++
		b.add(stopper, 1)
	}
}

// fileDone classifies the calls of this file that a permission rule
// stopped, re-reading each call's own line; only the class is kept.
func (t *tally) fileDone(path string) error {
	defer func() {
		clear(t.uses)
		t.ruleStops = t.ruleStops[:0]
	}()
	if len(t.ruleStops) == 0 {
		return nil
	}
	rr, err := transcript.OpenRereader(path)
	if err != nil {
		// The file went away after it was read: the class is unknown.
		for range t.ruleStops {
			t.byClass[classOther]++
		}
		return nil
	}
	defer rr.Close()
	for _, p := range t.ruleStops {
		class := classOther
		if c, ok := t.uses[p.key]; ok {
			name, input, ok, err := rr.ToolUse(&c)
			if err != nil {
				return err
			}
			if ok {
				class = classOfCall(name, input, t.o.Analyse)
			}
		}
		t.byClass[class]++
	}
	return nil
}

// countRegister streams the register: decisions in the window by verdict,
// attendance and rule class; grades of the flags in the window (latest
// grade wins); and which hook stops seen in the transcripts the register
// answered ask or deny (same tool_use_id, same session where both say).
// Memory grows with the flags in the window, never with every entry.
func (t *tally) countRegister() (*RegisterCounts, error) {
	t.hasReg = true
	o := t.o
	rc := &RegisterCounts{ByClass: map[string]*ClassFlags{}}
	// Without an open register (a stream only) the grades are joined in
	// memory: a sequence number per flag in the window. With one, SQLite
	// orders the grades by the flag they grade (register.EachLatestGrade)
	// and each graded flag is read by its sequence number: nothing grows
	// with the register.
	stream := o.Open == nil
	flags := map[int64]bool{}    // seq of asks and denies in the window (stream only)
	grades := map[int64]string{} // latest grade per flag (stream only)
	anyGrade := false
	err := o.Register(func(e register.Entry) error {
		switch e.Kind {
		case register.KindGrade:
			anyGrade = true
			if stream && flags[e.Ref] {
				grades[e.Ref] = e.Label
			}
			return nil
		case register.KindDecision, register.KindError:
		default:
			return nil
		}
		stop := e.Decision == "ask" || e.Decision == "deny"
		if stop && e.ToolUseID != "" && t.nHooks > 0 {
			k := transcript.KeyOf(e.ToolUseID)
			if h, ok := t.hooks.Get(k); ok && !h.confirmed &&
				(!h.hasSession || e.SessionID == "" || transcript.KeyOf(e.SessionID) == h.session) {
				h.confirmed = true
				// Codex shows a hook's ask to nobody: the sentinel answers it
				// as a deny that says how to approve, and the register keeps
				// it as the ask it was.
				h.unanswered = h.unanswered || h.codex && e.Decision == "ask"
				t.hooks.Put(k, h)
			}
		}
		if !timeIn(e.Time, o.Since, o.Until) {
			return nil
		}
		rc.Decisions++
		if e.Kind == register.KindError {
			rc.Errors++
		}
		var att *Attendance
		switch e.Decision {
		case "allow":
			rc.Allow++
		case "ask":
			att = &rc.Ask
		case "deny":
			att = &rc.Deny
		}
		if att == nil {
			return nil
		}
		if stream {
			flags[e.Seq] = true
		}
		if t.files > 0 {
			t.pair.register(&e, t.hooks, t.answers.Calls)
		}
		if b := t.bucket(dayOf(e.Time)); b != nil {
			b.flags++
		}
		att.add(e.Attended)
		if t.witJoin != nil {
			t.wit.join(t.witJoin, &e)
		}
		for _, c := range ruleClasses(e.Rules, o.RuleClass) {
			cf := rc.ByClass[c]
			if cf == nil {
				cf = &ClassFlags{}
				rc.ByClass[c] = cf
			}
			if e.Decision == "ask" {
				cf.Ask.add(e.Attended)
			} else {
				cf.Deny.add(e.Attended)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rc.SelfConcordance.Definition = defSelfConcordance
	if anyGrade {
		g := &Grades{}
		count := func(label string) {
			switch label {
			case "true":
				g.True++
			case "false":
				g.False++
			case "unclear":
				g.Unclear++
			}
		}
		for _, label := range grades {
			count(label)
		}
		if !stream {
			err := o.Open.EachLatestGrade(func(ref, seq int64, _ int) error {
				f, err := o.Open.Get(ref)
				if errors.Is(err, register.ErrNoEntry) {
					return nil
				} else if err != nil {
					return err
				}
				if (f.Kind != register.KindDecision && f.Kind != register.KindError) ||
					(f.Decision != "ask" && f.Decision != "deny") || !timeIn(f.Time, o.Since, o.Until) {
					return nil
				}
				e, err := o.Open.Get(seq)
				if err != nil {
					return err
				}
				count(e.Label)
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		rc.Grades = g
		if n := g.True + g.False; n > 0 {
			v := float64(g.True) / float64(n)
			rc.SelfConcordance.Value = &v
		}
	}
	return rc, nil
}

// ruleClasses maps the rule ids of one entry to their distinct classes;
// an entry with no rule (a call that could not be judged) is "unjudged".
func ruleClasses(rules []string, classOf func(string) string) []string {
	if len(rules) == 0 {
		return []string{"unjudged"}
	}
	var out []string
	for _, id := range rules {
		c := "unknown"
		if classOf != nil {
			if k := classOf(id); k != "" {
				c = k
			}
		}
		dup := false
		for _, x := range out {
			dup = dup || x == c
		}
		if !dup {
			out = append(out, c)
		}
	}
	return out
}

// err is the first error of the temporary files; close releases them.
func (t *tally) err() error { return errors.Join(t.hooks.Err(), t.answers.Err()) }

func (t *tally) close() { t.hooks.Close(); t.answers.Close() }

// fill resolves the hook stops and writes the counts into the report:
// null where nothing was read.
func (t *tally) fill(r *Report) {
	var matched, unanswered, unconfirmed int64
	t.hooks.Each(func(_ transcript.Key, h hookStop) error {
		who := StopOtherHooks
		switch {
		case h.confirmed:
			who = StopSentinel
			matched++
			if h.unanswered {
				unanswered++
			}
		case h.marker:
			who = StopUnconfirmedMarker
			unconfirmed++
		}
		t.stop(who, h.d)
		return nil
	})
	st := &r.Stops
	if t.files > 0 {
		st.Total = i64(t.total.stops)
		r.ToolCalls.Count = i64(t.total.calls)
		by := t.total.by
		st.Classifier = ClassifierStops{Total: i64(by[StopClassifier]), ByKind: t.byKind, ByCategory: t.byCat}
		st.PermissionRules = RuleStops{Total: i64(by[StopRules]), ByClass: t.byClass}
		st.NoHumanMode.Total = i64(by[StopNoHuman])
		st.UnconfirmedMarker.Total = i64(by[StopUnconfirmedMarker])
		st.OtherHooks.Total = i64(by[StopOtherHooks])
		st.User.Total = i64(by[StopUser])
		r.HumanAtPrompt.Declined = i64(by[StopUser])
		if r.Sources.StructuredResults > 0 {
			r.HumanAtPrompt.Approved = i64(t.approved)
		}
		if t.hasReg {
			st.Sentinel = SentinelStops{Total: i64(matched), UnansweredAsks: i64(unanswered),
				RegisterMatched: i64(matched), RegisterUnmatched: i64(unconfirmed)}
		}
		if r.Sources.CodexFiles == t.files {
			// Codex rollouts record hook stops only (transcript/codex.go):
			// the harness's own columns are not measured there.
			st.Classifier = ClassifierStops{}
			st.PermissionRules = RuleStops{}
			st.NoHumanMode.Total, st.User.Total = nil, nil
			r.HumanAtPrompt.Declined, r.HumanAtPrompt.Approved = nil, nil
		}
	}
	r.HumanAtPrompt.Note = noteHumanAtPrompt
	r.Series = t.series()
	r.Period = t.period()
}

// SeriesDailyMax is the longest period shown per day; longer is per week.
const SeriesDailyMax = 92

func (t *tally) period() Period {
	o := t.o
	if !o.Since.IsZero() || !o.Until.IsZero() {
		p := Period{Basis: "window"}
		if !o.Since.IsZero() {
			p.From = strp(o.Since.UTC().Format(time.DateOnly))
		}
		if !o.Until.IsZero() {
			// Until is exclusive: the last day covered is the one before.
			p.To = strp(o.Until.UTC().Add(-time.Nanosecond).Format(time.DateOnly))
		}
		if p.From == nil && t.first != noDay {
			p.From = strp(t.first.time().Format(time.DateOnly))
		}
		if p.To == nil && t.last != noDay {
			p.To = strp(t.last.time().Format(time.DateOnly))
		}
		return p
	}
	p := Period{Basis: "records"}
	if t.first != noDay {
		p.From = strp(t.first.time().Format(time.DateOnly))
		p.To = strp(t.last.time().Format(time.DateOnly))
	}
	return p
}

func strp(s string) *string { return &s }

// series folds the days into points: every day (or week) from the first to
// the last, empty ones included, so that a plot's gaps are real zeros.
func (t *tally) series() *Series {
	if t.files == 0 && !t.hasReg {
		return nil
	}
	s := &Series{Bucket: "day", Points: []Point{}}
	if t.first == noDay {
		return s
	}
	span := int(t.last - t.first + 1)
	step, start := day(1), t.first
	if span > SeriesDailyMax {
		s.Bucket, step = "week", 7
		// ISO weeks start on Monday; 1970-01-01 was a Thursday.
		start = t.first - (t.first+3)%7
	}
	var points []Point
	for d := start; d <= t.last; d += step {
		var c counts
		for i := day(0); i < step; i++ {
			if x := t.days[d+i]; x != nil {
				c.calls += x.calls
				c.stops += x.stops
				c.flags += x.flags
				for k, v := range x.by {
					c.add(k, v)
				}
			}
		}
		points = append(points, t.point(d, &c))
	}
	sort.Slice(points, func(i, j int) bool { return points[i].Start < points[j].Start })
	s.Points = points
	return s
}

func (t *tally) point(d day, c *counts) Point {
	p := Point{Start: d.time().Format(time.DateOnly)}
	if t.files > 0 {
		p.ToolCalls, p.Stops = i64(c.calls), i64(c.stops)
		p.Classifier, p.PermissionRules = i64(c.by[StopClassifier]), i64(c.by[StopRules])
		p.NoHumanMode, p.UnconfirmedMarker = i64(c.by[StopNoHuman]), i64(c.by[StopUnconfirmedMarker])
		p.OtherHooks, p.User = i64(c.by[StopOtherHooks]), i64(c.by[StopUser])
		if t.hasReg {
			p.Sentinel = i64(c.by[StopSentinel])
		}
	}
	if t.hasReg {
		p.Flags = i64(c.flags)
	}
	return p
}
