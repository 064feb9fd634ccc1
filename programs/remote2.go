package programs

import (
	"strconv"
	"strings"
)

// Remote state changed by verbs that are not "delete": a cloud API action
// classed by what its verb does, a cluster changed at scale, a REST call
// that deletes, a saved plan applied, a registry release withdrawn. One
// place says which action is which class; judge/remote2.go reads it.

// Change classes of remote state.
const (
	ChangeNone       = ""
	ChangeDestroy    = "destroy"       // a resource or its data goes (schedule-key-deletion, state rm, prune, unpublish)
	ChangeAuditOff   = "audit-off"     // the record of what happens stops (stop-logging, disable a detector, flow logs off)
	ChangeGrant      = "grant"         // a principal gets power (attach-*-policy, cluster-admin binding, a privileged pod)
	ChangeExpireMove = "expire-move"   // data leaves its store on a timer or by a move (lifecycle expiry, s3 mv, sync --delete)
	ChangeScaleZero  = "scale-to-zero" // a service stops serving (replicas 0, desired capacity 0, backups 0)
	ChangeAtScale    = "at-scale"      // every object of a cluster changed at once (--all, -A, --prune, replace --force)
	ChangeFleet      = "fleet-shell"   // a command run on every host of an inventory (ansible -m shell, salt cmd.run)
	ChangeUnreviewed = "unreviewed"    // infrastructure changed with no plan shown (apply PLANFILE)
)

// RemoteChange classes what a remote-state program's arguments do: the
// class and a short name of the action. Dry runs change nothing.
func RemoteChange(name string, args []string) (class, action string) {
	if DryRun(args) {
		return ChangeNone, ""
	}
	class, action = remoteChange(name, args)
	if p := Lookup(name); class == ChangeNone && remoteCLI(p) {
		return lexiconChange(p, args, operationPath(p, args))
	}
	return class, action
}

func remoteChange(name string, args []string) (class, action string) {
	switch Canonical(name) {
	case "gh", "glab", "hub":
		if c, a, done := hostChange(name, args); done {
			return c, a
		}
	case "aws":
		return awsChange(args)
	case "gcloud", "gsutil", "az":
		return verbChange(name, args)
	case "kubectl":
		return kubeChange(args)
	case "terraform":
		return terraformChange(args)
	case "curl", "wget", "http":
		return restChange(name, args)
	case "npm", "cargo", "gem":
		return registryChange(name, args)
	case "docker":
		return dockerRemoteChange(args)
	case "etcdctl", "consul", "vault":
		return kvChange(name, args)
	case "ansible", "salt", "salt-ssh":
		return fleetChange(name, args)
	}
	return ChangeNone, ""
}

// Canonical is the model's name for a program known under several names
// (oc -> kubectl, tofu -> terraform, podman -> docker, xh -> http).
func Canonical(name string) string {
	if p := Lookup(name); p != nil {
		return p.Name
	}
	return name
}

// optValue is the value of a long option given as --o=v or --o v.
func optValue(args []string, names ...string) (string, bool) {
	for i, a := range args {
		for _, n := range names {
			if a == n && i+1 < len(args) {
				return args[i+1], true
			}
			if strings.HasPrefix(a, n+"=") {
				return a[len(n)+1:], true
			}
		}
	}
	return "", false
}

// zeroOpt reports an option whose value is 0 (--replicas=0, --desired-count 0).
func zeroOpt(args []string, names ...string) bool {
	v, ok := optValue(args, names...)
	return ok && strings.TrimSpace(v) == "0"
}

var auditServices = map[string]bool{"cloudtrail": true, "guardduty": true, "securityhub": true, "config": true,
	"configservice": true, "macie2": true, "inspector2": true, "accessanalyzer": true, "detective": true}

// awsChange: aws SERVICE OPERATION.
func awsChange(args []string) (string, string) {
	p := Operands(args)
	if len(p) < 2 {
		return ChangeNone, ""
	}
	svc, op := p[0], p[1]
	act := svc + " " + op
	switch {
	case strings.HasPrefix(op, "schedule-") && strings.HasSuffix(op, "-deletion"):
		return ChangeDestroy, act // kms schedule-key-deletion
	case op == "stop-logging" || op == "stop-configuration-recorder" || op == "delete-flow-logs" ||
		auditServices[svc] && (strings.HasPrefix(op, "disable-") || strings.HasPrefix(op, "delete-") || op == "update-detector" && has(args, "--no-enable")):
		return ChangeAuditOff, act
	case svc == "iam" && (strings.HasPrefix(op, "attach-") && strings.HasSuffix(op, "-policy") ||
		strings.HasPrefix(op, "put-") && strings.HasSuffix(op, "-policy") || op == "add-user-to-group" ||
		op == "update-assume-role-policy" || op == "create-login-profile"):
		return ChangeGrant, act
	case svc == "s3api" && (op == "put-bucket-policy" || op == "put-bucket-acl" || op == "put-object-acl" || op == "delete-public-access-block"):
		return ChangeGrant, act
	case svc == "ec2" && strings.HasPrefix(op, "authorize-security-group-") && worldCIDR(args):
		return ChangeGrant, act
	case svc == "s3api" && op == "put-bucket-lifecycle-configuration" || svc == "s3api" && op == "put-bucket-lifecycle":
		if v, _ := optValue(args, "--lifecycle-configuration"); lifecycleExpires(v) {
			return ChangeExpireMove, act
		}
	case svc == "s3api" && op == "put-bucket-versioning":
		if v, _ := optValue(args, "--versioning-configuration"); strings.Contains(v, "Suspended") {
			return ChangeScaleZero, act // old versions no longer kept
		}
	case svc == "s3" && op == "mv" && len(p) > 2 && strings.HasPrefix(p[2], "s3://"):
		return ChangeExpireMove, act // the source bucket loses what moves
	case svc == "route53" && op == "change-resource-record-sets":
		if v, _ := optValue(args, "--change-batch"); changeDeletes().MatchString(v) {
			return ChangeDestroy, act + " (a DELETE in the change batch)"
		}
	case svc == "secretsmanager" && (op == "put-secret-value" || op == "update-secret") ||
		strings.HasPrefix(op, "reset-") && strings.HasSuffix(op, "-password") || passwordOpt(args):
		return ChangeStop, act + " (a credential its users hold is replaced)"
	case zeroOpt(args, "--desired-capacity", "--max-size", "--desired-count", "--backup-retention-period", "--min-capacity", "--max-capacity"):
		return ChangeScaleZero, act
	case has(args, "--no-deletion-protection"):
		return ChangeScaleZero, act
	}
	return ChangeNone, ""
}

var (
	ansibleAbsent = lazy(`(^|[\s,{"'])state\s*[=:]\s*["']?absent\b`)
	changeDeletes = lazy(`(?i)"?Action"?\s*:\s*"?DELETE\b|Action=DELETE\b`)
	worldNet      = lazy(`(^|[^0-9])(0\.0\.0\.0/0|::/0)`)
	expiryDays    = lazy(`(?i)"?(Expiration|NoncurrentVersionExpiration)"?\s*:\s*\{[^}]*"?(Days|NoncurrentDays)"?\s*:\s*(\d+)`)
)

// passwordOpt: an option that sets a password (--master-user-password,
// --new-password); --no-... and --manage-... say how, not what.
func passwordOpt(args []string) bool {
	for _, a := range args {
		n, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "--") && strings.HasSuffix(n, "password") && !strings.HasPrefix(n, "no-") && !strings.HasPrefix(n, "manage-") {
			return true
		}
	}
	return false
}

func worldCIDR(args []string) bool {
	for _, a := range args {
		if worldNet().MatchString(a) {
			return true
		}
	}
	return false
}

// lifecycleExpires: an inline lifecycle whose expiry is within 30 days, or
// one read from a file (file://, not seen here). A lifecycle that only
// transitions to a colder class keeps the data.
func lifecycleExpires(v string) bool {
	if strings.HasPrefix(v, "file://") || strings.HasPrefix(v, "fileb://") {
		return true
	}
	for _, m := range expiryDays().FindAllStringSubmatch(v, -1) {
		if n, err := strconv.Atoi(m[3]); err == nil && n <= 30 {
			return true
		}
	}
	return false
}

// verbChange: gcloud/gsutil/az grant, audit and scale verbs.
func verbChange(name string, args []string) (string, string) {
	p := Operands(args)
	act := strings.Join(p[:min(len(p), 4)], " ")
	for i, v := range p {
		switch {
		case v == "add-iam-policy-binding" || v == "set-iam-policy":
			return ChangeGrant, act
		case name == "az" && v == "assignment" && i+1 < len(p) && p[i+1] == "create" && i > 0 && p[i-1] == "role":
			return ChangeGrant, act
		case name == "gsutil" && (v == "mv" && anyPrefix(p[i+1:i+min(2, len(p)-i)], "gs://") ||
			v == "lifecycle" && i+1 < len(p) && p[i+1] == "set" || v == "iam" && i+1 < len(p) && p[i+1] != "get"):
			if v == "iam" {
				return ChangeGrant, act
			}
			return ChangeExpireMove, act
		case name == "gcloud" && v == "storage" && i+2 < len(p) && p[i+1] == "mv" && strings.HasPrefix(p[i+2], "gs://"):
			return ChangeExpireMove, act
		case v == "sinks" && i+1 < len(p) && p[i+1] == "delete", v == "diagnostic-settings" && i+1 < len(p) && p[i+1] == "delete":
			return ChangeAuditOff, act
		}
	}
	if zeroOpt(args, "--num-nodes", "--new-capacity", "--min-instances", "--max-instances", "--replicas", "--size") {
		return ChangeScaleZero, act
	}
	return ChangeNone, ""
}

// kubeChange: kubectl verbs that change a cluster at scale or grant it away.
func kubeChange(args []string) (string, string) {
	o := Parse(args, kubectlSpec)
	p := o.Pos
	if len(p) == 0 {
		return ChangeNone, ""
	}
	verb := p[0]
	act := "kubectl " + verb
	all := o.Has('A', "all", "all-namespaces")
	switch verb {
	case "get", "describe", "logs", "explain", "diff", "top", "version", "api-resources", "config", "auth", "events", "wait", "port-forward", "cp", "exec", "attach":
		return ChangeNone, ""
	}
	switch {
	case verb == "scale" && zeroOpt(args, "--replicas"):
		return ChangeScaleZero, act + " --replicas=0"
	case verb == "patch" && replicasZero().MatchString(strings.Join(args, " ")):
		return ChangeScaleZero, act + " replicas 0"
	case (verb == "apply" || verb == "replace") && (o.LongPrefix("prune") || verb == "replace" && has(args, "--force")):
		return ChangeAtScale, act + " (deletes what the files do not list, or deletes and recreates)"
	case verb == "create" && len(p) > 1 && (p[1] == "clusterrolebinding" || p[1] == "rolebinding"):
		if r, _ := optValue(args, "--clusterrole"); r == "cluster-admin" || r == "admin" || p[1] == "clusterrolebinding" && r != "view" {
			return ChangeGrant, act + " " + p[1] + " " + r
		}
	case (verb == "run" || verb == "create" || verb == "debug") && privilegedOverride(args):
		return ChangeGrant, act + " with a privileged or host-namespace pod"
	case all && verb != "delete" && verb != "drain": // delete --all is INFRA-KUBE-DELETE-ALL
		return ChangeAtScale, act + " --all"
	}
	return ChangeNone, ""
}

var (
	replicasZero = lazy(`"?replicas"?\s*:\s*0\b`)
	privileged   = lazy(`"?(privileged|hostPID|hostNetwork|hostIPC)"?\s*:\s*true|"?hostPath"?\s*:`)
)

func privilegedOverride(args []string) bool {
	v, ok := optValue(args, "--overrides")
	return ok && privileged().MatchString(v) || has(args, "--privileged")
}

// terraformChange: a saved plan applied (it runs with no prompt; its
// -auto-approve twin is INFRA-APPLY-UNREVIEWED), state forgotten.
func terraformChange(args []string) (string, string) {
	var p []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch strings.TrimLeft(a, "-") {
		case "var", "var-file", "target", "replace", "state", "state-out", "backup", "lock-timeout", "parallelism":
			if strings.HasPrefix(a, "-") {
				i++ // its value
				continue
			}
		}
		if !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			p = append(p, a)
		}
	}
	if len(p) > 0 && (p[0] == "run-all" || p[0] == "run") {
		p = p[1:]
	}
	if len(p) == 0 {
		return ChangeNone, ""
	}
	auto := anyFlag(args, "auto-approve")
	switch {
	case p[0] == "apply" && len(p) > 1 && !auto:
		return ChangeUnreviewed, "terraform apply PLANFILE (a saved plan applies with no prompt)"
	case p[0] == "state" && len(p) > 1 && (p[1] == "rm" || p[1] == "replace-provider"):
		return ChangeDestroy, "terraform state " + p[1] + " (resources forgotten: the next apply recreates or orphans them)"
	case p[0] == "workspace" && len(p) > 1 && p[1] == "delete":
		return ChangeDestroy, "terraform workspace delete"
	}
	return ChangeNone, ""
}

// restChange: an HTTP DELETE to a host other than loopback, a DELETE of
// everything (Elasticsearch _all, *) anywhere, a POST to a delete-by-query
// endpoint. PUT, PATCH and POST are everyday API work and pass.
func restChange(name string, args []string) (string, string) {
	method, url := "", ""
	switch Canonical(name) {
	case "curl":
		o := Parse(args, curlSpec)
		method = o.Value('X', "request")
		for _, a := range o.Pos {
			if looksURL(a) {
				url = a
				break
			}
		}
	case "wget":
		method, _ = optValue(args, "--method")
		for _, a := range Operands(args) {
			if looksURL(a) {
				url = a
				break
			}
		}
	case "http":
		ops := Operands(args)
		for i, a := range ops {
			if i == 0 && isHTTPMethod(a) {
				method = a
				continue
			}
			if url == "" && (looksURL(a) || strings.HasPrefix(a, ":") || strings.Contains(a, ".") && !strings.ContainsAny(a, "=@")) {
				url = a
			}
		}
	}
	method = strings.ToUpper(method)
	host, path := splitURL(url)
	switch {
	case method == "DELETE" && (deletesAll(path) || PublicAddr(host)):
		return ChangeDestroy, "HTTP DELETE " + url
	case method == "POST" && strings.Contains(path, "_delete_by_query"):
		return ChangeDestroy, "HTTP POST " + url
	}
	return ChangeNone, ""
}

func isHTTPMethod(s string) bool {
	switch strings.ToUpper(s) {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

func looksURL(s string) bool {
	return strings.Contains(s, "://") || strings.HasPrefix(s, "localhost") || strings.HasPrefix(s, "127.")
}

// splitURL is the host and path of a URL (scheme optional; httpie's
// ":9200/x" is localhost).
func splitURL(u string) (host, path string) {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if strings.HasPrefix(u, ":") {
		u = "localhost" + u
	}
	hp, path, _ := strings.Cut(u, "/")
	if at := strings.LastIndex(hp, "@"); at >= 0 {
		hp = hp[at+1:]
	}
	host = hp
	if strings.HasPrefix(hp, "[") {
		if k := strings.Index(hp, "]"); k > 0 {
			host = hp[1:k]
		}
	} else if k := strings.LastIndex(hp, ":"); k >= 0 {
		host = hp[:k]
	}
	return host, "/" + path
}

func deletesAll(path string) bool {
	path, _, _ = strings.Cut(path, "?")
	path = strings.TrimSuffix(path, "/")
	return path == "" || path == "/_all" || path == "/*" || strings.HasSuffix(path, "/_all") || strings.HasSuffix(path, "/*")
}

// registryChange: a published release withdrawn for everyone who depends
// on it (npm unpublish, npm deprecate, cargo yank, gem yank).
func registryChange(name string, args []string) (string, string) {
	p := Operands(args)
	if len(p) == 0 {
		return ChangeNone, ""
	}
	switch {
	case name == "npm" && (p[0] == "unpublish" || p[0] == "deprecate" && len(p) > 2 && p[len(p)-1] != ""),
		Canonical(name) == "cargo" && p[0] == "yank" && !has(args, "--undo"),
		name == "gem" && p[0] == "yank":
		return ChangeDestroy, name + " " + p[0]
	}
	return ChangeNone, ""
}

// dockerRemoteChange: prune or rm against a daemon on another machine
// (-H ssh://HOST, -H tcp://HOST, --context NAME other than default).
func dockerRemoteChange(args []string) (string, string) {
	remote := ""
	if h, ok := optValue(args, "-H", "--host"); ok {
		host, _ := splitURL(h)
		if !strings.HasPrefix(h, "unix://") && PublicAddr(host) {
			remote = h
		}
	}
	if c, ok := optValue(args, "-c", "--context"); ok && c != "default" && c != "desktop-linux" && c != "colima" && c != "rootless" {
		remote = "context " + c
	}
	p := Operands(args)
	if len(p) > 0 && swarmObjects[p[0]] {
		// a swarm's stacks, services and nodes are a cluster's, wherever
		// the daemon is (docker stack rm, service scale web=0, swarm leave)
		if c, a := lexiconChange(nil, args, args); c != ChangeNone {
			return c, "docker " + p[0] + " " + a
		}
	}
	if remote == "" {
		return ChangeNone, ""
	}
	for i, v := range p {
		if v == "prune" || v == "rm" || v == "rmi" || v == "kill" || v == "stop" && i == 1 {
			return ChangeDestroy, "docker " + v + " on " + remote
		}
	}
	return ChangeNone, ""
}

var swarmObjects = map[string]bool{"stack": true, "service": true, "swarm": true, "node": true, "secret": true, "config": true}

// kvChange: a key-value or secret store emptied by prefix or by metadata.
func kvChange(name string, args []string) (string, string) {
	p := Operands(args)
	switch {
	case name == "etcdctl" && len(p) > 0 && (p[0] == "del" || p[0] == "delete") && anyPrefix(args, "--prefix", "--from-key"):
		return ChangeDestroy, "etcdctl del --prefix"
	case name == "consul" && sub(p, "kv", "delete") && (has(args, "-recurse") || has(args, "--recurse")):
		return ChangeDestroy, "consul kv delete -recurse"
	case name == "vault" && (sub(p, "kv", "metadata", "delete") || sub(p, "kv", "destroy") || sub(p, "secrets", "disable") || sub(p, "audit", "disable")):
		if sub(p, "audit", "disable") {
			return ChangeAuditOff, "vault audit disable"
		}
		return ChangeDestroy, "vault " + strings.Join(p[:min(3, len(p))], " ")
	}
	return ChangeNone, ""
}

// fleetChange: a shell command sent to every host of an inventory (ansible
// -m shell/command/raw/script, or -a with the default command module; salt
// cmd.run/cmd.script). Code run on a fleet asks whatever it is: this
// judge cannot see those hosts. Facts and pings pass.
func fleetChange(name string, args []string) (string, string) {
	if name == "ansible" {
		mod, _ := optValue(args, "-m", "--module-name")
		_, code := optValue(args, "-a", "--args")
		switch {
		case mod == "shell" || mod == "command" || mod == "raw" || mod == "script" ||
			strings.HasSuffix(mod, ".shell") || strings.HasSuffix(mod, ".command") || strings.HasSuffix(mod, ".raw"):
			return ChangeFleet, "ansible -m " + mod
		case mod == "" && code:
			return ChangeFleet, "ansible -a (the command module)"
		}
		// a module told to make something absent (file, user, package,
		// service state=absent): it deletes on every host
		if a, _ := optValue(args, "-a", "--args"); ansibleAbsent().MatchString(a) {
			return ChangeDestroy, "ansible -m " + mod + " state=absent"
		}
		return ChangeNone, ""
	}
	for _, a := range Operands(args) {
		if a == "cmd.run" || a == "cmd.script" || a == "cmd.shell" || a == "cmd.exec_code" {
			return ChangeFleet, name + " " + a
		}
	}
	return ChangeNone, ""
}
