package census

import "html/template"

// The page's witness section, a template of its own so that the page's
// layout stays in html.go.
var _ = template.Must(pageTmpl.New("witness").Parse(`<h2>Two witnesses of the sentinel's stops: the transcript and the register</h2>
{{with .Stops.Disagreement}}<table><tr><th>Disagreement</th><th>stops</th></tr>
<tr><td>in the transcript (the sentinel's marker), not in the register</td><td class="n">{{cell .TranscriptOnly}}</td></tr>
<tr><td>in the register (a deny, or an ask nobody could answer), not in the transcript that holds the call</td><td class="n">{{cell .RegisterOnly}}</td></tr>
<tr><td><b>disagreements</b></td><td class="n"><b>{{cell .Total}}</b></td></tr>
<tr class="apart"><td>in the register, call in no transcript read (not compared)</td><td class="n">{{cell .RegisterUnseen}}</td></tr></table>
<p class="note">Each is a stop one witness holds and the other does not: a hook printing the sentinel's marker that is not this sentinel, a register entry whose call the harness did not stop, or a transcript or register that was changed.</p>
{{else}}<p class="null">— Not compared: it takes both the transcripts and the register.</p>{{end}}
<h2>Unattended flags against the schedulers' own record</h2>
{{with .Witness}}<p>Witness: {{range $i, $k := .Kinds}}{{if $i}}, {{end}}{{$k}}{{end}}; {{.Runs}} recorded runs in {{.Records}} records ({{.UnreadableLines}} unreadable lines), from {{date .Covers.Since}} to {{date .Covers.Until}}.</p>
{{with .Unattended}}<table><tr><th>Unattended</th><th>inside a recorded run</th><th>outside any recorded run</th><th>could not be checked</th><th>register seq of those outside</th></tr>
<tr><td>denies</td><td class="n">{{.Deny.Inside}}</td><td class="n">{{.Deny.Outside}}</td><td class="n">{{.Deny.Unchecked}}</td><td>{{range $i, $s := .Deny.OutsideSeqs}}{{if $i}}, {{end}}{{$s}}{{else}}none{{end}}</td></tr>
<tr><td>asks</td><td class="n">{{.Ask.Inside}}</td><td class="n">{{.Ask.Outside}}</td><td class="n">{{.Ask.Unchecked}}</td><td>{{range $i, $s := .Ask.OutsideSeqs}}{{if $i}}, {{end}}{{$s}}{{else}}none{{end}}</td></tr></table>
{{else}}<p class="null">— No register was read: nothing to place against the witness.</p>{{end}}
<p class="note">{{.Note}}</p>
{{else}}<p class="null">— No witness was given (--witness): the unattended flags are not checked against a scheduler's record.</p>{{end}}
`))
