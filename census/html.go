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

type page struct {
	R      *Report
	Rows   []row
	Bars   []bar
	Height int
	Cats   []kv
	Class  []kv
	Reg    []kv
}

func i64(v int64) *int64 { return &v }

func rateOf(r *Report, key string) *float64 { return r.Rates[key].Value }

func (r *Report) rows() []row {
	st := &r.Stops
	rows := []row{
		{"classifier", "Harness classifier (auto mode)", i64(st.Classifier.Total), rateOf(r, "classifier_per_100_tool_calls"), "", false},
		{"permission_rules", "Operator's permission rules", i64(st.PermissionRules.Total), rateOf(r, "permission_rules_per_100_tool_calls"), "", false},
		{"no_human_mode", "Modes with no human to ask", i64(st.NoHumanMode.Total), rateOf(r, "no_human_mode_per_100_tool_calls"), "", false},
		{"sentinel", "This sentinel", i64(st.Sentinel.Total), rateOf(r, "sentinel_per_100_tool_calls"), sentinelNote(st), false},
		{"other_hooks", "Other hooks", i64(st.OtherHooks.Total), rateOf(r, "other_hooks_per_100_tool_calls"), "", false},
		{"user", "The user at the prompt", i64(st.User.Total), rateOf(r, "user_per_100_tool_calls"), "prompt rejections", false},
	}
	ci := row{Key: "ci", Label: "CI gates (after the push)", Note: "no CI file given", Apart: true}
	if st.CI != nil {
		ci.Value = i64(st.CI.Failed)
		ci.Note = fmt.Sprintf("failed of %d runs; counted apart", st.CI.Runs)
	}
	rows = append(rows, ci,
		row{Key: "human", Label: "The human in conversation", Note: st.Human.Reason, Apart: true})
	return rows
}

func sentinelNote(st *Stops) string {
	if st.Sentinel.RegisterMatched == nil {
		return "no register to cross-check"
	}
	return fmt.Sprintf("%d matched in the register, %d not", *st.Sentinel.RegisterMatched, *st.Sentinel.RegisterUnmatched)
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

// WriteHTML writes one self-contained page: inline CSS, an inline SVG bar
// chart, no JavaScript, no external assets. A null cell shows "—".
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
		p.Reg = []kv{{"decisions", rc.Decisions}, {"allow", rc.Allow},
			{"ask, attended", rc.Ask.Attended}, {"ask, unattended", rc.Ask.Unattended},
			{"deny, attended", rc.Deny.Attended}, {"deny, unattended", rc.Deny.Unattended},
			{"could not be judged", rc.Errors}}
		classes := make([]string, 0, len(rc.ByClass))
		for c := range rc.ByClass {
			classes = append(classes, c)
		}
		sort.Strings(classes)
		for _, c := range classes {
			cf := rc.ByClass[c]
			p.Reg = append(p.Reg,
				kv{"ask, class " + c + ", attended", cf.Ask.Attended}, kv{"ask, class " + c + ", unattended", cf.Ask.Unattended},
				kv{"deny, class " + c + ", attended", cf.Deny.Attended}, kv{"deny, class " + c + ", unattended", cf.Deny.Unattended})
		}
	}
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
	"since": func(v *string) string {
		if v == nil {
			return "the first record"
		}
		return *v
	},
	"until": func(v *string) string {
		if v == nil {
			return "the last"
		}
		return *v
	},
	"pct": func(v *float64) string {
		if v == nil {
			return "—"
		}
		return strconv.FormatFloat(*v*100, 'f', 1, 64) + " %"
	},
}

var pageTmpl = template.Must(template.New("page").Funcs(funcs).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sentinel census: who stopped the agent</title>
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
</style></head><body>
<h1>Who stopped the agent</h1>
<p class="meta">Census generated {{.R.GeneratedAt}} by {{.R.Generator}} · window from {{since .R.Window.Since}} to {{until .R.Window.Until}} · schema {{.R.SchemaVersion}}</p>
<p>{{.R.ToolCalls.Count}} tool calls (an <b>upper bound</b>), {{.R.Stops.Total}} stops recognised:
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

<div class="two"><div>
<h2>Classifier, by category</h2>
<table><tr><th>Category (allow-listed)</th><th>Stops</th></tr>
{{range .Cats}}<tr><td>{{.Key}}</td><td class="n">{{.Value}}</td></tr>
{{end}}</table></div><div>
<h2>Permission rules, by class of call</h2>
<table><tr><th>Class</th><th>Stops</th></tr>
{{range .Class}}<tr><td>{{.Key}}</td><td class="n">{{.Value}}</td></tr>
{{end}}</table></div></div>

<h2>The sentinel's register</h2>
{{if .R.Register}}<table><tr><th>Decisions in the window</th><th>Count</th></tr>
{{range .Reg}}<tr><td>{{.Key}}</td><td class="n">{{.Value}}</td></tr>
{{end}}{{with .R.Register.Grades}}<tr><td>grades: true / false / unclear</td><td class="n">{{.True}} / {{.False}} / {{.Unclear}}</td></tr>{{else}}<tr><td>grades</td><td class="n null">—</td></tr>{{end}}
<tr><td>self-concordance (not precision)</td><td class="n{{if not .R.Register.SelfConcordance.Value}} null{{end}}">{{pct .R.Register.SelfConcordance.Value}}</td></tr>
</table><p class="note">Self-concordance: {{.R.Register.SelfConcordance.Definition}}</p>
{{else}}<p class="null">— No register was read.</p>{{end}}

<h2>After the sentinel's asks and denies</h2>
<table><tr><th>Asks presented</th><th>approved</th><th>declined</th><th>unknown</th><th>Denies held</th><th>breached</th></tr>
<tr>{{with .R.Outcomes.Asks}}<td class="n">{{cell .Presented}}</td><td class="n">{{cell .Approved}}</td><td class="n">{{cell .Declined}}</td><td class="n">{{cell .Unknown}}</td>{{end}}{{with .R.Outcomes.Denies}}<td class="n">{{cell .Held}}</td><td class="n">{{cell .Breached}}</td>{{end}}</tr></table>
<p class="note">{{.R.Outcomes.Note}} Measured of the human's work: prompt rejections (and, with the outcome join, approvals of the sentinel's asks). Not measured: oversight in conversation, which leaves no record.</p>

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
