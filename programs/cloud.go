package programs

import "strings"

// Cloud, cluster and infrastructure CLIs: what they upload, what credentials
// they print, and which of them delete resources (judged in judge).

var kubectlSpec = S("nlfcosL", "namespace", "context", "kubeconfig", "selector", "filename", "output",
	"cluster", "user", "template", "jsonpath")

var _ = register(
	&Program{Name: "gh", Kind: NetSender | Uploader | CredPrinter | EnvSetup | Cloud, Opts: S("RXHfFpq", "repo", "method", "header", "field", "raw-field", "jq"),
		TextOpts: []string{"--body", "-b", "--title", "-t", "--notes", "-n"},
		Destroys: ghDestroys, Publishes: ghPublishes,
		Uploads: func(a []string) bool {
			return sub(a, "gist", "create") || sub(a, "gist", "edit") || sub(a, "release", "upload") ||
				sub(a, "release", "create") || sub(a, "secret", "set") || sub(a, "api")
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "auth", "token") || (sub(a, "auth", "status") && (has(a, "--show-token", "-t")))
		}},
	&Program{Name: "glab", Kind: CredPrinter | Cloud, Destroys: glabDestroys, Publishes: glabPublishes,
		PrintsCredentials: func(a []string) bool { return sub(a, "auth", "status") && has(a, "--show-token", "-t") }},
	&Program{Name: "aws", Kind: NetSender | Uploader | CredPrinter | Cloud, Opts: S("", "profile", "region", "output", "endpoint-url", "query"),
		Destroys: awsDestroys,
		Uploads: func(a []string) bool {
			return (sub(a, "s3", "cp") || sub(a, "s3", "sync") || sub(a, "s3", "mv")) && anyPrefix(a, "s3://")
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "configure", "export-credentials") || (sub(a, "configure", "get") && len(a) > 2 && strings.Contains(strings.ToLower(a[2]), "secret")) ||
				sub(a, "sts", "get-session-token") || sub(a, "ecr", "get-login-password") || sub(a, "secretsmanager", "get-secret-value") ||
				sub(a, "ssm", "get-parameter") && has(a, "--with-decryption") || sub(a, "codeartifact", "get-authorization-token") ||
				sub(a, "iam", "create-access-key")
		}},
	&Program{Name: "gcloud", Kind: NetSender | Uploader | CredPrinter | Cloud, Destroys: cloudVerbs(false, false),
		Uploads: func(a []string) bool { return sub(a, "storage") && anyPrefix(a, "gs://") },
		PrintsCredentials: func(a []string) bool {
			return sub(a, "auth", "print-access-token") || sub(a, "auth", "print-identity-token") ||
				sub(a, "auth", "application-default", "print-access-token") || sub(a, "secrets", "versions", "access") ||
				sub(a, "config", "config-helper")
		}},
	&Program{Name: "gsutil", Kind: NetSender | Uploader | Cloud, Destroys: cloudVerbs(true, false), Uploads: func(a []string) bool { return anyPrefix(a, "gs://") }},
	&Program{Name: "s3cmd", Kind: NetSender | Uploader, Uploads: func(a []string) bool { return sub(a, "put") || sub(a, "sync") }},
	&Program{Name: "rclone", Kind: NetSender | Uploader | Copier | Archiver, MountsOn: rcloneMountOn, Uploads: func(a []string) bool {
		return sub(a, "copy") || sub(a, "sync") || sub(a, "move") || sub(a, "copyto") || sub(a, "rcat")
	}},
	&Program{Name: "az", Kind: NetSender | Uploader | CredPrinter | Cloud, Destroys: cloudVerbs(false, false),
		Uploads: func(a []string) bool {
			return sub(a, "storage", "blob", "upload") || sub(a, "storage", "blob", "upload-batch")
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "account", "get-access-token") || sub(a, "keyvault", "secret", "show") ||
				sub(a, "storage", "account", "keys", "list") || sub(a, "acr", "login") && has(a, "--expose-token") ||
				// a new service principal's or app's password is printed once, on creation or reset
				sub(a, "ad", "sp", "credential", "reset") || sub(a, "ad", "app", "credential", "reset") || sub(a, "ad", "sp", "create-for-rbac")
		}},
	&Program{Name: "azcopy", Kind: NetSender | Uploader, Uploads: func([]string) bool { return true }},
	&Program{Name: "kubectl", Names: []string{"oc", "kubecolor"}, Kind: CredPrinter | Runner | EnvSetup | Cluster, Opts: kubectlSpec,
		Destroys: func(a []string) bool {
			p := Parse(a, kubectlSpec).Pos
			return len(p) > 0 && (p[0] == "delete" || p[0] == "drain") && !DryRun(a)
		},
		PrintsCredentials: func(a []string) bool {
			o := Parse(a, kubectlSpec)
			p := o.Pos
			out := o.Value('o', "output")
			switch {
			case len(p) >= 2 && p[0] == "get" && (strings.HasPrefix(p[1], "secret") || p[1] == "secrets"):
				return out != "" && out != "name" && out != "wide"
			case len(p) >= 2 && p[0] == "describe" && strings.HasPrefix(p[1], "secret"):
				return false // describe shows sizes, not values
			case len(p) >= 2 && p[0] == "config" && p[1] == "view":
				return o.Has(0, "raw") || has(a, "--flatten")
			case len(p) >= 2 && p[0] == "create" && p[1] == "token":
				return true
			case len(p) >= 2 && p[0] == "set" && p[1] == "env":
				// --list --resolve shows the values its secrets and config
				// maps give the workload
				return o.Has(0, "list") && o.Has(0, "resolve")
			}
			return false
		}},
	&Program{Name: "helm", Kind: EnvSetup | Cluster | CredPrinter, Destroys: func(a []string) bool {
		p := Operands(a)
		return len(p) > 0 && has(p[:1], "uninstall", "delete", "del", "un")
	},
		// a release's values are where its passwords are given (helm get
		// values prod-db --all); its manifest and status are not
		PrintsCredentials: func(a []string) bool {
			p := Operands(a)
			return len(p) >= 2 && p[0] == "get" && (p[1] == "values" || p[1] == "all")
		}},
	&Program{Name: "vault", Kind: CredPrinter | Cloud, PrintsCredentials: func(a []string) bool {
		return sub(a, "read") || sub(a, "kv", "get") || sub(a, "print", "token") || sub(a, "token", "create") || sub(a, "login")
	}},
	&Program{Name: "op", Kind: CredPrinter | Runner, Launch: launchAfterSub("run", 0, S("", "env-file", "account")), PrintsCredentials: func(a []string) bool {
		return sub(a, "read") || sub(a, "item", "get") || sub(a, "inject")
	}},
	&Program{Name: "bw", Names: []string{"lpass", "pass", "gopass"}, Kind: CredPrinter, PrintsCredentials: func(a []string) bool {
		return len(a) > 0 && (a[0] == "get" || a[0] == "show" || a[0] == "export" || a[0] == "unlock" ||
			!strings.HasPrefix(a[0], "-") && a[0] != "ls" && a[0] != "list" && a[0] != "init" && a[0] != "generate" && a[0] != "insert" && a[0] != "edit" && a[0] != "status" && a[0] != "sync" && a[0] != "login" && a[0] != "logout" && a[0] != "find" && a[0] != "search" && a[0] != "git")
	}},
	// keychain readers: macOS security, libsecret, kwallet
	&Program{Name: "security", Kind: CredPrinter, PrintsCredentials: func(a []string) bool {
		return len(a) > 0 && (strings.HasPrefix(a[0], "find-") && (strings.Contains(a[0], "password") && (has(a, "-w", "-g") || HasShortFlag(a, 'w') || HasShortFlag(a, 'g')) || !strings.Contains(a[0], "password")) ||
			a[0] == "dump-keychain" || a[0] == "export")
	}},
	&Program{Name: "secret-tool", Kind: CredPrinter, PrintsCredentials: func(a []string) bool { return sub(a, "lookup") || sub(a, "search") }},
	&Program{Name: "kwallet-query", Kind: CredPrinter, PrintsCredentials: func(a []string) bool { return has(a, "-r", "--read-password") }},
	&Program{Name: "docker", Names: []string{"podman", "nerdctl"}, Kind: Runner | CredPrinter, PrintsCredentials: dockerPrintsEnv},
	&Program{Name: "heroku", Kind: CredPrinter | Cloud, Destroys: herokuDestroys, PrintsCredentials: func(a []string) bool {
		// heroku config and config:get print the app's config vars' values
		return sub(a, "auth:token") || sub(a, "config") || sub(a, "config:get")
	}},
	&Program{Name: "fly", Names: []string{"flyctl"}, Kind: CredPrinter | Cloud, Destroys: cloudVerbs(false, false),
		PrintsCredentials: func(a []string) bool { return sub(a, "auth", "token") || sub(a, "tokens", "create") }},
	&Program{Name: "netlify", Kind: CredPrinter | Cloud, Destroys: cloudVerbs(false, false), PrintsCredentials: func(a []string) bool {
		return sub(a, "env:get") || sub(a, "env:list") && has(a, "--plain", "--json")
	}},
	&Program{Name: "infisical", Kind: CredPrinter, PrintsCredentials: secretsCLIPrints},
	&Program{Name: "keyring", Kind: CredPrinter, PrintsCredentials: func(a []string) bool { return has(a, "get") }},
	// docker-credential-HELPER get and git-credential-HELPER get print the
	// stored secret for the server named on stdin (Lookup: by prefix).
	&Program{Name: "docker-credential", Kind: CredPrinter, PrintsCredentials: func(a []string) bool { return sub(a, "get") }},
	&Program{Name: "git-credential", Kind: CredPrinter, PrintsCredentials: func(a []string) bool { return sub(a, "get") }},
	&Program{Name: "doctl", Names: []string{"linode-cli", "hcloud", "ibmcloud", "oci", "scw", "exo", "vultr-cli", "render", "firebase",
		"sam", "eb", "wrangler", "turso", "neonctl", "neon", "openstack", "upsun", "koyeb", "northflank"},
		Kind: Cloud, Destroys: cloudVerbs(false, false)},
	// railway variables prints the service's variables with their values
	&Program{Name: "railway", Kind: Cloud | CredPrinter, Destroys: cloudVerbs(false, false), PrintsCredentials: func(a []string) bool {
		return (sub(a, "variables") || sub(a, "vars") || sub(a, "variable", "list")) && !has(a, "--set", "-s")
	}},
	// CLIs of managed data and cluster services: their operations are
	// typed by the lexicon (effects.go); rm is a deletion there (databricks
	// fs rm, pulumi stack rm).
	&Program{Name: "databricks", Names: []string{"snow", "ccloud", "confluent", "atlas-cli", "planetscale", "pscale", "upstash"},
		Kind: Cloud, Destroys: cloudVerbs(true, true)},
	&Program{Name: "rabbitmqctl", Names: []string{"rabbitmqadmin", "rabbitmq-plugins"}, Kind: Cloud, Destroys: cloudVerbs(true, false)},
	&Program{Name: "nomad", Names: []string{"kubeadm", "microk8s", "k3s", "eksctl", "rke", "talosctl"},
		Kind: Cluster, Destroys: cloudVerbs(false, false)},
	// GitOps controllers, release and VM managers: the lexicon types their
	// verbs too (argocd app delete, flux suspend, helmfile destroy, vagrant
	// destroy, virsh undefine --remove-all-storage).
	&Program{Name: "argocd", Names: []string{"flux", "helmfile", "vagrant", "virsh", "multipass", "incus"},
		Kind: Cluster, Destroys: cloudVerbs(false, false)},
	// hdfs dfs -rm -r, -expunge; kafka-topics --delete: the operation is an option
	&Program{Name: "hdfs", Names: []string{"hadoop"}, Kind: Cloud, Destroys: func(a []string) bool {
		return has(a, "-rm", "-rmr", "-rmdir", "-expunge", "-truncate", "-deleteSnapshot")
	}},
	&Program{Name: "kafka-topics", Names: []string{"kafka-topics.sh", "kafka-consumer-groups", "kafka-consumer-groups.sh", "kafka-configs", "kafka-configs.sh", "kafka-delete-records", "kafka-delete-records.sh", "kafka-acls", "kafka-acls.sh"},
		Kind: Cloud, Destroys: func(a []string) bool {
			return has(a, "--delete", "--remove", "--offset-json-file") || has(a, "--reset-offsets", "--delete-offsets") && has(a, "--execute")
		}},
	&Program{Name: "vercel", Kind: Cloud, Destroys: cloudVerbs(true, true)},
	// supabase status -o env|json prints the project's API and service-role keys as data
	&Program{Name: "supabase", Kind: Cloud | TaskRunner | CredPrinter, Destroys: cloudVerbs(false, false), PrintsCredentials: func(a []string) bool {
		return sub(a, "status") && anyPrefix(a, "-o", "--output") || sub(a, "secrets", "list") && has(a, "--output", "-o")
	}},
	// keepassxc-cli show -s / -a Password prints an entry's protected
	// fields; export prints the whole vault (ls, search print names only)
	// the vault it opens is used, not shown: what it prints is what
	// PrintsCredentials says
	&Program{Name: "keepassxc-cli", Kind: CredPrinter | NonReader, PrintsCredentials: func(a []string) bool {
		if sub(a, "export") {
			return true
		}
		if !sub(a, "show") {
			return false
		}
		for i, x := range a {
			if x == "-s" || x == "--show-protected" || (x == "-a" || x == "--attributes") && i+1 < len(a) && strings.EqualFold(a[i+1], "password") ||
				strings.EqualFold(x, "--attributes=password") {
				return true
			}
		}
		return false
	}},
	&Program{Name: "terraform", Names: []string{"tofu", "terragrunt"}, Kind: Infra | CredPrinter, Destroys: terraformDestroys,
		PrintsCredentials: terraformPrintsSecrets},
	&Program{Name: "pulumi", Names: []string{"cdk", "cdktf", "serverless", "sls"}, Kind: Infra,
		Destroys: func(a []string) bool {
			o := Operands(a)
			return has(o, "destroy") || has(o, "remove") || sub(o, "stack", "rm")
		}},
)

// DryRun reports --dry-run (not --dry-run=none) or --dryrun: the command
// only says what it would do.
func DryRun(args []string) bool {
	for _, a := range args {
		if a == "--dry-run" || strings.HasPrefix(a, "--dry-run=") && !strings.HasSuffix(a, "=none") || a == "--dryrun" {
			return true
		}
	}
	return false
}

// cloudVerbs is the usual grammar of deletion: an operation word whose
// verb is of the delete family of the lexicon (effects.go: gcloud compute
// instances delete NAME, az vm delete, doctl compute droplet delete,
// sites:delete, batch-delete-x). "rm" and "remove" alone are deletions
// only where rm and remove say so (gsutil rm, vercel remove).
func cloudVerbs(rm, remove bool) func([]string) bool {
	return func(args []string) bool { return verbDestroys(args, rm, remove) }
}

// awsDestroys: aws SERVICE OPERATION with an operation of the delete
// family (delete-, terminate-, batch-delete-, purge-, ...); aws s3 rb / s3 rm.
func awsDestroys(args []string) bool {
	p := Operands(args)
	if DryRun(args) || len(p) < 2 {
		return false
	}
	if p[0] == "s3" && (p[1] == "rb" || p[1] == "rm") {
		return true
	}
	e, _ := VerbEffect(p[1:2])
	return e == ChangeDestroy
}

// ghDestroys: gh api -X DELETE, gh repo/release/secret/variable/gist/run/cache delete.
func ghDestroys(args []string) bool {
	p := Operands(args)
	if DryRun(args) {
		return false
	}
	if len(p) > 0 && p[0] == "api" {
		for k, a := range args {
			if (a == "-X" || a == "--method") && k+1 < len(args) && strings.EqualFold(args[k+1], "DELETE") ||
				strings.EqualFold(a, "-XDELETE") || strings.EqualFold(a, "--method=DELETE") {
				return true
			}
		}
		return ghRepoDestroys(args) // archived=true, transfer (hosting.go)
	}
	return len(p) >= 2 && p[1] == "delete" && has(p[:1], "repo", "release", "secret", "variable", "gist", "run", "cache") ||
		ghRepoDestroys(args)
}

// herokuDestroys: heroku apps:destroy, pg:reset, destroy.
func herokuDestroys(args []string) bool {
	p := Operands(args)
	return !DryRun(args) && len(p) > 0 && (p[0] == "apps:destroy" || p[0] == "pg:reset" || p[0] == "destroy")
}

// secretsCLIPrints: doppler secrets [get|download], infisical secrets
// [get], export: the values of the project's secrets.
func secretsCLIPrints(a []string) bool {
	return sub(a, "secrets") && !sub(a, "secrets", "set") && !sub(a, "secrets", "delete") || sub(a, "export")
}

// terraformPrintsSecrets: output -json/-raw print sensitive outputs in
// plain text (plain output masks them), show -json and state pull print
// the whole state, secrets included.
func terraformPrintsSecrets(args []string) bool {
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:] // -chdir=DIR
	}
	switch {
	case sub(args, "output"):
		for _, a := range args[1:] {
			if a == "-json" || a == "--json" || a == "-raw" || a == "--raw" || strings.HasPrefix(a, "-raw=") {
				return true
			}
		}
	case sub(args, "show"):
		return has(args, "-json", "--json")
	case sub(args, "state", "pull"):
		return true
	}
	return false
}

// terraformDestroys: destroy, apply -destroy, and the same under
// terragrunt's run-all / run.
func terraformDestroys(args []string) bool {
	var p []string
	destroyFlag := false
	for _, a := range args {
		if a == "-destroy" || a == "--destroy" {
			destroyFlag = true
		}
		if !strings.HasPrefix(a, "-") {
			p = append(p, a)
		}
	}
	if len(p) == 0 {
		return false
	}
	sub := p[0]
	if (sub == "run-all" || sub == "run") && len(p) > 1 {
		sub = p[1]
	}
	return sub == "destroy" || (sub == "apply" && destroyFlag)
}

// dockerPrintsEnv: docker inspect or docker compose config told to print a
// container's environment (-f '{{json .Config.Env}}', --format ...Env):
// where the service's passwords and tokens are.
func dockerPrintsEnv(a []string) bool {
	if len(Operands(a)) == 0 {
		return false
	}
	sub := Operands(a)[0]
	if sub == "container" || sub == "image" {
		if ops := Operands(a); len(ops) > 1 {
			sub = ops[1]
		}
	}
	if sub != "inspect" {
		return false
	}
	for i, x := range a {
		v := ""
		switch {
		case (x == "-f" || x == "--format") && i+1 < len(a):
			v = a[i+1]
		case strings.HasPrefix(x, "--format="), strings.HasPrefix(x, "-f") && len(x) > 2:
			_, v, _ = strings.Cut(x, "=")
			if v == "" {
				v = x[2:]
			}
		}
		if strings.Contains(v, "Env") {
			return true
		}
	}
	return false
}

// credentialServices are the hosts (and their subdomains) a credential
// printer's token is for: gh's token is GitHub's, aws's tokens AWS's. A
// token sent to its own service is used, not leaked.
var credentialServices = map[string][]string{
	"gh":     {"github.com", "ghcr.io", "githubusercontent.com"},
	"aws":    {"amazonaws.com", "aws.amazon.com"},
	"gcloud": {"googleapis.com", "gcr.io", "pkg.dev", "google.com"},
	"az":     {"azure.com", "azurecr.io", "azure.net", "windows.net", "microsoft.com", "microsoftonline.com"},
	"doctl":  {"digitalocean.com"},
	"heroku": {"heroku.com"},
	"fly":    {"fly.io"},
	"glab":   {"gitlab.com"},
}

// CredentialHosts are the hosts the credential a printer prints is for
// (gh auth token --hostname H: H too); nil when not known.
func CredentialHosts(name string, args []string) []string {
	hosts := credentialServices[Canon(name)]
	if Canon(name) == "gh" {
		for i, a := range args {
			if (a == "--hostname" || a == "-h") && i+1 < len(args) {
				hosts = append(hosts[:len(hosts):len(hosts)], args[i+1])
			} else if v, ok := strings.CutPrefix(a, "--hostname="); ok {
				hosts = append(hosts[:len(hosts):len(hosts)], v)
			}
		}
	}
	return hosts
}

// ServiceHost reports host h as one of hosts or below one of them.
func ServiceHost(h string, hosts []string) bool {
	h = strings.ToLower(strings.TrimSuffix(h, "."))
	for _, s := range hosts {
		if h == s || strings.HasSuffix(h, "."+s) {
			return true
		}
	}
	return false
}

// LoginFromStdin reports a program that reads a credential on its
// standard input and keeps it for a registry or service, printing none of
// it (docker/podman/helm/oras/skopeo/crane login --password-stdin, gh auth
// login --with-token), and the hosts it logs in to.
func LoginFromStdin(name string, args []string) (hosts []string, ok bool) {
	o := Parse(args, S("upah", "username", "password", "authfile", "hostname", "registry-config", "cert-dir")).Pos
	login := func(k int) ([]string, bool) {
		if !has(args, "--password-stdin") {
			return nil, false
		}
		for _, a := range o[k:] {
			hosts = append(hosts, HostOf(a))
		}
		return hosts, true
	}
	switch base(name) {
	case "docker", "podman", "nerdctl", "buildah", "skopeo", "oras":
		if len(o) > 0 && o[0] == "login" {
			return login(1)
		}
	case "helm":
		if len(o) > 1 && o[0] == "registry" && o[1] == "login" {
			return login(2)
		}
	case "crane":
		if len(o) > 1 && o[0] == "auth" && o[1] == "login" {
			return login(2)
		}
	case "gh":
		if len(o) > 1 && o[0] == "auth" && o[1] == "login" && has(args, "--with-token") {
			h := "github.com"
			for i, a := range args {
				if (a == "--hostname" || a == "-h") && i+1 < len(args) {
					h = args[i+1]
				}
			}
			return []string{h}, true
		}
	}
	return nil, false
}
