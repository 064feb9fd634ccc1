package census

import "html/template"

// The page's fleet section: a row per source, named by its opaque id and
// its key's fingerprint.
var _ = template.Must(pageTmpl.New("fleet").Parse(`{{with .Fleet}}<h2>Sources: one census over {{len .Sources}} registers, sealed by {{.Keys}} operator keys</h2>
<table><tr><th>Source</th><th>Operator key (fingerprint)</th><th>entries (sealed)</th><th>decisions</th><th>asks att.+unatt.</th><th>denies att.+unatt.</th><th>denies held</th><th>breached</th></tr>
{{range .Sources}}<tr><td><code>{{.Source}}</code></td><td><code>{{.KeyFingerprint}}</code> ({{.KeyFrom}})</td><td class="n">{{.Entries}} ({{.Sealed}})</td>{{with .Register}}<td class="n">{{.Decisions}}</td><td class="n">{{.Ask.Attended}}+{{.Ask.Unattended}}</td><td class="n">{{.Deny.Attended}}+{{.Deny.Unattended}}</td>{{end}}<td class="n">{{cell .Outcomes.Denies.Held}}</td><td class="n">{{cell .Outcomes.Denies.Breached}}</td></tr>
{{end}}</table>
<p class="note">{{.Note}}</p>{{end}}
`))
