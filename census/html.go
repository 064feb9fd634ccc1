package census

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strconv"
)

// row is one line of the page's main table and bar chart.
type row struct {
	Key, Label string
	Value      *int64
	Rate       *float64
	Note       string
	Apart      bool // counted apart from stops.total (CI)
}

type kv struct {
	Key   string
	Value int64
}

type bar struct {
	Label, Value string
	Y, W         int
	Null, Apart  bool
}

// gridRow is one class of the register's flags grid.
type gridRow struct {
	Class                    string
	AskA, AskU, DenyA, DenyU int64
}

// column is one bucket of the series plot.
type column struct {
	X, W, H, HS, Y, YS int
	Label              string
	Tip                string
	Null               bool
}

type page struct {
	R        *Report
	Rows     []row
	Bars     []bar
	Height   int
	Cats     []kv
	Class    []kv
	Grid     []gridRow
	Cols     []column
	PlotW    int
	PlotMax  int64
	PlotNull bool
}

func rateOf(r *Report, key string) *float64 { return r.Rates[key].Value }

func (r *Report) rows() []row {
	st := &r.Stops
	rows := []row{
		{"classifier", "Harness classifier (auto mode)", st.Classifier.Total, rateOf(r, "classifier_per_100_tool_calls"), "", false},
		{"permission_rules", "Operator's permission rules", st.PermissionRules.Total, rateOf(r, "permission_rules_per_100_tool_calls"), "", false},
		{"no_human_mode", "Modes with no human to ask", st.NoHumanMode.Total, rateOf(r, "no_human_mode_per_100_tool_calls"), "dontAsk, plan, and approvals nobody could give (headless)", false},
		{"sentinel", "This sentinel", st.Sentinel.Total, rateOf(r, "sentinel_per_100_tool_calls"), sentinelNote(r), false},
		{"unconfirmed_marker", "Sentinel's marker, not in the register", st.UnconfirmedMarker.Total, rateOf(r, "unconfirmed_marker_per_100_tool_calls"), "printed by another hook or machine; counted apart from the sentinel", false},
		{"other_hooks", "Other hooks", st.OtherHooks.Total, rateOf(r, "other_hooks_per_100_tool_calls"), "", false},
		{"user", "The human at the prompt", st.User.Total, rateOf(r, "user_per_100_tool_calls"), "prompt rejections", false},
	}
	ci := row{Key: "ci", Label: "CI gates (after the push)", Note: "no CI file given", Apart: true}
	if st.CI != nil {
		v := st.CI.Failed
		ci.Value = &v
		ci.Note = fmt.Sprintf("failed of %d runs; counted apart", st.CI.Runs)
	}
	rows = append(rows, ci,
		row{Key: "human", Label: "The human in conversation", Note: st.Human.Reason, Apart: true})
	return rows
}

func sentinelNote(r *Report) string {
	sn := r.Stops.Sentinel
	switch {
	case r.Sources.Transcripts != "read":
		return "no transcript read"
	case sn.Total == nil:
		return "no register to confirm the stops: see the marker row"
	case sn.UnansweredAsks != nil && *sn.UnansweredAsks > 0:
		return fmt.Sprintf("confirmed by the register; %d of them asks nobody could answer", *sn.UnansweredAsks)
	}
	return "confirmed by the register"
}

func sortedKV(m map[string]int64) []kv {
	out := make([]kv, 0, len(m))
	for k, v := range m {
		out = append(out, kv{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Value != out[j].Value {
			return out[i].Value > out[j].Value
		}
		return out[i].Key < out[j].Key
	})
	return out
}

const plotH = 160

// plot lays out the series as columns: all stops, with the sentinel's
// part drawn over them.
func (p *page) plot() {
	s := p.R.Series
	if s == nil || len(s.Points) == 0 {
		p.PlotNull = true
		return
	}
	var top int64 = 1
	for _, pt := range s.Points {
		if pt.Stops != nil && *pt.Stops > top {
			top = *pt.Stops
		}
	}
	p.PlotMax = top
	w := max(4, min(40, 840/len(s.Points)))
	p.PlotW = 40 + w*len(s.Points) + 20
	for i, pt := range s.Points {
		c := column{X: 40 + i*w, W: max(1, w-2), Label: pt.Start}
		if pt.Stops == nil {
			c.Null, c.Tip = true, pt.Start+": not measured"
		} else {
			c.H = int(float64(*pt.Stops) / float64(top) * plotH)
			c.Tip = fmt.Sprintf("%s: %d stops", pt.Start, *pt.Stops)
			if pt.Sentinel != nil {
				c.HS = int(float64(*pt.Sentinel) / float64(top) * plotH)
				c.Tip += fmt.Sprintf(", %d by this sentinel", *pt.Sentinel)
			}
		}
		c.Y, c.YS = 10+plotH-c.H, 10+plotH-c.HS
		p.Cols = append(p.Cols, c)
	}
}

// WriteHTML writes one self-contained page: inline CSS, inline SVG charts,
// no JavaScript, no external assets. A null cell shows "—".
func (r *Report) WriteHTML(w io.Writer) error {
	p := page{R: r, Rows: r.rows(), Cats: sortedKV(r.Stops.Classifier.ByCategory), Class: sortedKV(r.Stops.PermissionRules.ByClass)}
	var max int64 = 1
	for _, x := range p.Rows {
		if x.Value != nil && *x.Value > max {
			max = *x.Value
		}
	}
	for i, x := range p.Rows {
		b := bar{Label: x.Label, Y: 10 + i*34, Null: x.Value == nil, Apart: x.Apart, Value: "—"}
		if x.Value != nil {
			b.Value = strconv.FormatInt(*x.Value, 10)
			b.W = int(float64(*x.Value) / float64(max) * 520)
		}
		p.Bars = append(p.Bars, b)
	}
	p.Height = 20 + len(p.Rows)*34
	if rc := r.Register; rc != nil {
		classes := make([]string, 0, len(rc.ByClass))
		for c := range rc.ByClass {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			cf := rc.ByClass[c]
			p.Grid = append(p.Grid, gridRow{c, cf.Ask.Attended, cf.Ask.Unattended, cf.Deny.Attended, cf.Deny.Unattended})
		}
	}
	p.plot()
	return pageTmpl.Execute(w, p)
}

var funcs = template.FuncMap{
	"cell": func(v *int64) string {
		if v == nil {
			return "—"
		}
		return strconv.FormatInt(*v, 10)
	},
	"rate": func(v *float64) string {
		if v == nil {
			return "—"
		}
		return strconv.FormatFloat(*v, 'f', 2, 64)
	},
	"date": func(v *string) string {
		if v == nil {
			return "—"
		}
		return *v
	},
	"pct": func(v *float64) string {
		if v == nil {
			return "—"
		}
		return strconv.FormatFloat(*v*100, 'f', 1, 64) + " %"
	},
	"add": func(a, b int) int { return a + b },
}

var pageTmpl = template.Must(template.New("page").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.R.Title}}</title>
<style>
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#fff;max-width:64rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;margin:0 0 .2rem}h2{font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}
.meta{color:#57606a;font-size:.9rem}
table{border-collapse:collapse;width:100%;margin:.4rem 0}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #eaeef2;vertical-align:top}
th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.apart td{color:#57606a}.null{color:#8c959f}
.note{font-size:.9rem;color:#57606a}
.two{display:grid;grid-template-columns:1fr 1fr;gap:1.5rem}
svg text{font:13px system-ui,sans-serif;fill:#1b1f24}
code{font-size:.85rem}
</style></head><body>
<h1>{{.R.Title}}</h1>
<p class="meta">Period {{date .R.Period.From}} to {{date .R.Period.To}} ({{.R.Period.Basis}}) · generated {{.R.GeneratedAt}} by {{.R.Generator}} · schema {{.R.SchemaVersion}}</p>
<p>{{cell .R.ToolCalls.Count}} tool calls (an <b>upper bound</b>), {{cell .R.Stops.Total}} stops recognised:
<b>{{rate (index .R.Rates "stops_per_100_tool_calls").Value}}</b> stops per 100 tool calls, a <b>lower bound</b>.
Read from {{.R.Sources.TranscriptFiles}} transcript files ({{.R.Sources.SubagentFiles}} of subagents), {{.R.Sources.Records}} records, {{.R.Sources.UnreadableLines}} unreadable lines skipped; register {{.R.Sources.Register}}.</p>

<h2>Stops by who stopped</h2>
<svg xmlns="http://www.w3.org/2000/svg" width="900" height="{{.Height}}" viewBox="0 0 900 {{.Height}}" role="img" aria-label="Stops by stopper">
{{range .Bars}}<text x="0" y="{{.Y}}" dy="17">{{.Label}}</text>
{{if .Null}}<rect x="300" y="{{.Y}}" width="520" height="24" fill="none" stroke="#8c959f" stroke-dasharray="4 3"/><text x="310" y="{{.Y}}" dy="17" fill="#57606a">— not measured</text>
{{else}}<rect x="300" y="{{.Y}}" width="{{.W}}" height="24" fill="{{if .Apart}}#8c959f{{else}}#0969da{{end}}"/><text x="{{.W}}" dx="306" y="{{.Y}}" dy="17">{{.Value}}</text>
{{end}}{{end}}</svg>

<table>
<tr><th>Stopper</th><th>Stops</th><th>per 100 tool calls (lower bound)</th><th>Note</th></tr>
{{range .Rows}}<tr{{if .Apart}} class="apart"{{end}}><td>{{.Label}}</td><td class="n{{if not .Value}} null{{end}}">{{cell .Value}}</td><td class="n">{{if .Apart}}—{{else}}{{rate .Rate}}{{end}}</td><td class="note">{{.Note}}</td></tr>
{{end}}</table>
<p class="note">The human at the prompt: declined {{cell .R.HumanAtPrompt.Declined}}, approved {{cell .R.HumanAtPrompt.Approved}}. {{.R.HumanAtPrompt.Note}}</p>

<h2>Stops over time (per {{if .R.Series}}{{.R.Series.Bucket}}{{else}}day{{end}})</h2>
{{if .PlotNull}}<p class="null">— No dated record: nothing to plot.</p>{{else}}
<svg xmlns="http://www.w3.org/2000/svg" width="{{.PlotW}}" height="210" viewBox="0 0 {{.PlotW}} 210" role="img" aria-label="Stops over time">
<line x1="38" y1="170" x2="{{.PlotW}}" y2="170" stroke="#8c959f"/><text x="0" y="20">{{.PlotMax}}</text><text x="0" y="170">0</text>
{{range .Cols}}{{if .Null}}<rect x="{{.X}}" y="10" width="{{.W}}" height="160" fill="none" stroke="#8c959f" stroke-dasharray="3 3"><title>{{.Tip}}</title></rect>
{{else}}<rect x="{{.X}}" y="{{.Y}}" width="{{.W}}" height="{{.H}}" fill="#8cb4e6"><title>{{.Tip}}</title></rect><rect x="{{.X}}" y="{{.YS}}" width="{{.W}}" height="{{.HS}}" fill="#0969da"/>
{{end}}{{end}}{{with index .Cols 0}}<text x="{{.X}}" y="190">{{.Label}}</text>{{end}}{{with .Cols}}{{$last := index . (add (len .) -1)}}<text x="{{$last.X}}" y="205" text-anchor="end" dx="{{$last.W}}">{{$last.Label}}</text>{{end}}
</svg>
<p class="note">Light: all stops; dark: this sentinel's (confirmed by the register). {{with .R.Series}}{{.Undated}} undated calls and stops are in no {{.Bucket}}.{{end}}</p>{{end}}

<div class="two"><div>
<h2>Classifier, by category</h2>
<table><tr><th>Category (allow-listed)</th><th>Stops</th></tr>
{{range .Cats}}<tr><td>{{.Key}}</td><td class="n">{{.Value}}</td></tr>
{{else}}<tr><td class="null" colspan="2">— not measured</td></tr>
{{end}}</table></div><div>
<h2>Permission rules, by class of call</h2>
<table><tr><th>Class</th><th>Stops</th></tr>
{{range .Class}}<tr><td>{{.Key}}</td><td class="n">{{.Value}}</td></tr>
{{else}}<tr><td class="null" colspan="2">— not measured</td></tr>
{{end}}</table></div></div>

<h2>The sentinel's register: its flags</h2>
{{with .R.Register}}<p>{{.Decisions}} decisions in the period: {{.Allow}} allowed, {{.Ask.Attended}}+{{.Ask.Unattended}} asks and {{.Deny.Attended}}+{{.Deny.Unattended}} denies (attended+unattended), {{.Errors}} could not be judged.</p>
<table><tr><th rowspan="2">Class of rule</th><th colspan="2">ask</th><th colspan="2">deny</th></tr>
<tr><th>attended</th><th>unattended</th><th>attended</th><th>unattended</th></tr>
{{range $.Grid}}<tr><td>{{.Class}}</td><td class="n">{{.AskA}}</td><td class="n">{{.AskU}}</td><td class="n">{{.DenyA}}</td><td class="n">{{.DenyU}}</td></tr>
{{else}}<tr><td class="note" colspan="5">no flag in the period</td></tr>
{{end}}</table>
<p class="note">A flag is counted once in each class its rules belong to, so the rows can add up to more than the flags.</p>
<table>{{with .Grades}}<tr><td>grades: true / false / unclear</td><td class="n">{{.True}} / {{.False}} / {{.Unclear}}</td></tr>{{else}}<tr><td>grades</td><td class="n null">—</td></tr>{{end}}
<tr><td>self-concordance (not precision)</td><td class="n{{if not .SelfConcordance.Value}} null{{end}}">{{pct .SelfConcordance.Value}}</td></tr>
</table><p class="note">Self-concordance: {{.SelfConcordance.Definition}}</p>
{{else}}<p class="null">— No register was read.</p>{{end}}

<h2>After the sentinel's asks and denies</h2>
<table><tr><th>Asks</th><th>presented</th><th>approved</th><th>declined</th><th>nobody to answer</th><th>unknown</th><th>Denies held</th><th>breached</th></tr>
<tr>{{with .R.Outcomes.Asks}}<td class="n">{{cell .Total}}</td><td class="n">{{cell .Presented}}</td><td class="n">{{cell .Approved}}</td><td class="n">{{cell .Declined}}</td><td class="n">{{cell .Unanswered}}</td><td class="n">{{cell .Unknown}}</td>{{end}}{{with .R.Outcomes.Denies}}<td class="n">{{cell .Held}}</td><td class="n">{{cell .Breached}}</td>{{end}}</tr></table>
<p class="note">{{.R.Outcomes.Note}} Not measured: oversight in conversation, which leaves no record.</p>

{{template "witness" .R}}
{{template "fleet" .R}}
<h2>How to verify</h2>
<ul>
<li>Operator key fingerprint: {{with .R.Verify.KeyFingerprint}}<code>{{.}}</code>{{else}}<span class="null">— not given</span>{{end}}</li>
<li>The register's latest seal: {{with .R.Verify.RegisterSeal}}Rekor entry <code>{{.UUID}}</code> in <code>{{.RekorURL}}</code>, covering entries up to {{.Seq}}, sealed {{.SealedAt}}{{else}}<span class="null">— not sealed</span>{{end}}</li>
{{with .R.Check}}<li>This page shows <code>{{.StopsFile}}</code>, sha256 <code>{{.StopsSHA256}}</code></li>
<li>Its census seal: {{with .CensusSeal}}Rekor log index <code>{{.LogIndex}}</code>, entry <code>{{.UUID}}</code> in <code>{{.RekorURL}}</code>, integrated {{.Integrated}}; the signed statement:<pre>{{.Statement}}</pre>{{else}}<span class="null">— not sealed: nothing ties these numbers to the operator's key</span>{{end}}</li>
<li>The register, verified before it was read: {{.Register}}</li>{{end}}
</ul>
{{with .R.Check}}{{if .Commands}}<p>To check, with the fingerprint the operator published:</p>
<pre class="commands">{{range .Commands}}{{.}}
{{end}}</pre>{{end}}{{end}}
<p class="note">{{.R.Verify.How}}</p>

<h2>Not measured</h2>
<ul>{{range .R.NotMeasured}}<li><code>{{.Key}}</code>: {{.Reason}}</li>
{{end}}</ul>

<h2>What these numbers cannot show</h2>
<table><tr><th>English</th><th lang="de">Deutsch</th></tr>
{{range .R.AssuranceLimits}}<tr><td>{{.EN}}</td><td lang="de">{{.DE}}</td></tr>
{{end}}</table>
<p class="note">Count-only: no command, path or message is in this page or in stops.json.</p>
</body></html>
`))
