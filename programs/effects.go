package programs

import (
	"strconv"
	"strings"
)

// What a remote-state CLI's operation does, read from its verb: one
// lexicon for every cloud, cluster and infrastructure CLI (aws, gcloud,
// az, kubectl, helm, heroku, fly, wrangler, nomad, ...), so that an
// operation never seen before (aws ecr batch-delete-image, az vm
// deallocate, firebase hosting:disable) is typed by what its verb means,
// and values that switch something off (replicas 0, concurrency 0, an
// activation policy of NEVER, a retention of a day, public access
// unblocked) count as the verbs that do. Destroys (the delete family) is
// INFRA-CLOUD-DELETE's; the other effects are RemoteChange's.

// ChangeStop is the class of an operation after which a service, a key, a
// protection or an access stops working (stop, disable, revoke, detach,
// drain, rollback, reset).
const ChangeStop = "stop"

// verbEffects maps an operation's verb to its effect on what it names.
var verbEffects = map[string]string{
	// the resource or its data goes
	"delete": ChangeDestroy, "terminate": ChangeDestroy, "destroy": ChangeDestroy, "deregister": ChangeDestroy,
	"purge": ChangeDestroy, "remove": ChangeDestroy, "rm": ChangeDestroy, "rb": ChangeDestroy, "drop": ChangeDestroy,
	"truncate": ChangeDestroy, "wipe": ChangeDestroy, "flush": ChangeDestroy, "flushall": ChangeDestroy,
	"erase": ChangeDestroy, "abandon": ChangeDestroy, "unregister": ChangeDestroy, "expunge": ChangeDestroy,
	"decommission": ChangeDestroy, "nuke": ChangeDestroy, "taint": ChangeDestroy, "undefine": ChangeDestroy,
	// it stops serving, or its access or protection goes
	"stop": ChangeStop, "disable": ChangeStop, "shutdown": ChangeStop, "suspend": ChangeStop, "deallocate": ChangeStop,
	"hibernate": ChangeStop, "halt": ChangeStop, "poweroff": ChangeStop, "down": ChangeStop, "drain": ChangeStop,
	"cordon": ChangeStop, "evict": ChangeStop, "deactivate": ChangeStop, "leave": ChangeStop, "reset": ChangeStop,
	"rollback": ChangeStop, "undo": ChangeStop, "revoke": ChangeStop, "detach": ChangeStop, "disassociate": ChangeStop,
	"cancel": ChangeStop, "uninstall": ChangeStop, "seek": ChangeStop, "kill": ChangeStop,
}

// readVerbs only show what they name.
var readVerbs = map[string]bool{"describe": true, "get": true, "list": true, "ls": true, "show": true, "status": true,
	"view": true, "info": true, "inspect": true, "lookup": true,
	"validate": true, "version": true, "help": true, "whoami": true, "top": true, "diff": true, "plan": true, "preview": true}

// verbPrefixes qualify the verb after them (batch-delete-image,
// force-delete, bulk-remove).
var verbPrefixes = map[string]bool{"batch": true, "bulk": true, "force": true, "mass": true, "hard": true}

// operationVerbs are the verbs an operation word says: each part of
// "sites:delete" or "hosting:channel:delete" (noun:verb), the head of each
// part of "stop-instances", "purge_queue" (verb-noun), past a qualifier.
func operationVerbs(word string) []string {
	var out []string
	for _, part := range strings.Split(strings.ToLower(word), ":") {
		toks := strings.FieldsFunc(part, func(r rune) bool { return r == '-' || r == '_' })
		for len(toks) > 1 && verbPrefixes[toks[0]] {
			toks = toks[1:]
		}
		if len(toks) > 0 {
			out = append(out, toks[0])
		}
	}
	return out
}

// commandPath is how many leading operands name the operation (aws
// SERVICE OPERATION; gcloud GROUP... VERB): what follows are resources.
const commandPath = 5

// runVerbs hand what follows to a command on the far side (kubectl exec
// POD -- rm x, heroku run CMD, fly ssh console): that command is judged
// as one, its words are no operation of the CLI's.
var runVerbs = map[string]bool{"exec": true, "ssh": true, "attach": true, "debug": true, "shell": true,
	"console": true, "cp": true, "run": true, "execute": true, "query": true, "eval": true}

// localGroups are command groups that change only this machine's CLI:
// its extensions, aliases, configuration, login, plugins (gh extension
// remove, az extension remove, kubectl config delete-context, gcloud
// components remove, helm plugin uninstall).
var localGroups = map[string]bool{"extension": true, "extensions": true, "ext": true, "alias": true, "aliases": true,
	"config": true, "configure": true, "completion": true, "auth": true, "login": true, "logout": true,
	"components": true, "plugin": true, "plugins": true}

// cloudRunGroups follow gcloud's "run" (Cloud Run), which is no command.
var cloudRunGroups = map[string]bool{"services": true, "jobs": true, "deploy": true, "revisions": true,
	"domain-mappings": true, "executions": true, "regions": true, "multi-region-services": true}

// VerbEffect is the effect of the first operation verb among the first
// operands of a remote-state CLI's arguments, and the verb; a read verb
// first ends the search (aws ec2 describe-instances, kubectl get: verb
// "read"), as do a verb that runs a command and "--".
func VerbEffect(args []string) (effect, verb string) {
	var ops []string
	for _, a := range args {
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	for i, w := range ops {
		if i == commandPath {
			break
		}
		for _, v := range operationVerbs(w) {
			if readVerbs[v] || localGroups[v] && i == 0 {
				return ChangeNone, "read"
			}
			if runVerbs[v] && !(v == "run" && i+1 < len(ops) && cloudRunGroups[ops[i+1]]) {
				return ChangeNone, ""
			}
			if e := verbEffects[v]; e != "" {
				return e, w
			}
		}
	}
	return ChangeNone, ""
}

// verbDestroys: the lexicon's delete family among the operation words;
// bare "rm" and "remove" only where the CLI says so (gcloud components
// remove is a local add-on).
func verbDestroys(args []string, rm, remove bool) bool {
	e, v := VerbEffect(args)
	if e != ChangeDestroy || DryRun(args) {
		return false
	}
	return v != "rm" && v != "remove" || v == "rm" && rm || v == "remove" && remove
}

// switchOff is what the values of a remote-state CLI's arguments switch
// off, or "": a count of replicas, instances, nodes or concurrency of 0
// (--replicas 0, --set replicaCount=0, scale web=0, scale count 0), an
// activation policy of NEVER, backups or deletion protection off, a
// retention of a week or less, public access unblocked (BlockPublicAcls=false).
func switchOff(args []string) (class, what string) {
	scale := false
	for _, w := range Operands(args) {
		for _, v := range operationVerbs(w) {
			scale = scale || v == "scale"
		}
	}
	for i, a := range args {
		name, val, eq := strings.Cut(a, "=")
		if strings.HasPrefix(a, "-") {
			if !eq && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				val = args[i+1]
			}
			n := strings.ToLower(strings.TrimLeft(name, "-"))
			switch {
			case n == "set" || n == "set-string":
				for _, kv := range strings.Split(val, ",") {
					k, v, _ := strings.Cut(kv, "=")
					if countWord(k) && strings.TrimSpace(v) == "0" {
						return ChangeScaleZero, a + " " + kv
					}
				}
			case countWord(n) && strings.TrimSpace(val) == "0":
				return ChangeScaleZero, name + " 0"
			case n == "activation-policy" && strings.EqualFold(val, "never"):
				return ChangeStop, name + " NEVER"
			case strings.HasPrefix(n, "no-") && (strings.Contains(n, "backup") || strings.Contains(n, "deletion-protection") || strings.Contains(n, "point-in-time")):
				return ChangeStop, name
			case strings.Contains(n, "retention") && shortDays(val):
				return ChangeExpireMove, name + " " + val
			case strings.Contains(n, "public-access-block"):
				if strings.Contains(strings.ToLower(val), "=false") || strings.Contains(strings.ToLower(val), "\":false") || strings.Contains(strings.ToLower(val), "\": false") {
					return ChangeGrant, name + " (public access unblocked)"
				}
			}
			continue
		}
		// scale web=0 worker=0, scale count 0, service scale prod_web=0
		if scale && (eq && strings.TrimSpace(val) == "0" || a == "0") {
			return ChangeScaleZero, "scale " + a
		}
	}
	return ChangeNone, ""
}

// countWord names how many of something serve: replicas, instances,
// nodes, concurrency, capacity, a desired or minimum count.
func countWord(n string) bool {
	n = strings.ToLower(n)
	if k := strings.LastIndexByte(n, '.'); k >= 0 {
		n = n[k+1:] // web.replicaCount
	}
	if strings.HasPrefix(n, "min") || strings.Contains(n, "account") {
		return false // a minimum of 0 scales to zero when idle; an account is no count
	}
	for _, w := range []string{"replica", "concurren", "capacity", "instances", "num-nodes", "node-count", "desired", "count"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// shortDays: a retention of 7 or fewer (days, as the option says).
func shortDays(v string) bool {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	return err == nil && n >= 0 && n <= 7
}

// lexiconChange is the effect of a remote-state CLI's operation that its
// Destroys does not already say: a disruptive verb, or a value that
// switches something off (on any verb but a read).
func lexiconChange(p *Program, args, path []string) (string, string) {
	if p != nil && p.Destroys != nil && p.Destroys(args) {
		return ChangeNone, "" // INFRA-CLOUD-DELETE, INFRA-KUBE-DELETE, ...
	}
	if p != nil && p.PrintsCredentials != nil && p.PrintsCredentials(args) {
		return ChangeNone, "" // az ad sp credential reset prints the new secret: SECRET-READ's
	}
	if ops := Operands(path); p != nil && p.Name == "helm" && len(ops) > 0 && ops[0] == "repo" {
		return ChangeNone, "" // helm repo remove: this machine's list of chart repositories
	}
	e, v := VerbEffect(path)
	if (v == "rm" || v == "remove") && p != nil && p.Destroys != nil {
		return ChangeNone, "" // where bare rm deletes is the CLI's own grammar (cloudVerbs)
	}
	if e != ChangeNone || v == "read" {
		return e, v
	}
	return switchOff(args)
}

// operationPath are the words that name a CLI's operation: aws's
// OPERATION (aws SERVICE OPERATION), else the arguments themselves
// (VerbEffect reads their first operands).
func operationPath(p *Program, args []string) []string {
	if p != nil && p.Name == "aws" {
		if ops := Operands(args); len(ops) >= 2 {
			return ops[1:2]
		}
		return nil
	}
	return args
}

// remoteCLI reports a program whose operations change remote state, read
// by the lexicon: a cloud, cluster or infrastructure CLI.
func remoteCLI(p *Program) bool {
	return p.Is(Cloud) || p.Is(Cluster) || p.Is(Infra)
}

// LocalOnly reports a cloud CLI told to act on its local emulation (wrangler d1
// execute --local, supabase --local), not the service.
func LocalOnly(args []string) bool {
	return has(args, "--local", "--local=true")
}

// SQLOption names an option whose value is SQL for the service to run
// (--command, --sql, --query, --execute, -e, -q, --querytext).
func SQLOption(opt string) bool {
	switch strings.TrimLeft(opt, "-") {
	case "command", "sql", "query", "execute", "e", "q", "c", "querytext", "query-text", "statement":
		return true
	}
	return false
}
