package programs

import "strings"

// Cloud, cluster and infrastructure CLIs: what they upload, what credentials
// they print, and which of them delete resources (judged in judge).

var kubectlSpec = S("nlfcosL", "namespace", "context", "kubeconfig", "selector", "filename", "output",
	"cluster", "user", "template", "jsonpath")

var _ = register(
	&Program{Name: "gh", Kind: NetSender | Uploader | CredPrinter | EnvSetup, Opts: S("RXHfFpq", "repo", "method", "header", "field", "raw-field", "jq"),
		Uploads: func(a []string) bool {
			return sub(a, "gist", "create") || sub(a, "gist", "edit") || sub(a, "release", "upload") ||
				sub(a, "release", "create") || sub(a, "secret", "set") || sub(a, "api")
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "auth", "token") || (sub(a, "auth", "status") && (has(a, "--show-token", "-t")))
		}},
	&Program{Name: "glab", Kind: CredPrinter,
		PrintsCredentials: func(a []string) bool { return sub(a, "auth", "status") && has(a, "--show-token", "-t") }},
	&Program{Name: "aws", Kind: NetSender | Uploader | CredPrinter, Opts: S("", "profile", "region", "output", "endpoint-url", "query"),
		Uploads: func(a []string) bool {
			return (sub(a, "s3", "cp") || sub(a, "s3", "sync") || sub(a, "s3", "mv")) && anyPrefix(a, "s3://")
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "configure", "export-credentials") || (sub(a, "configure", "get") && len(a) > 2 && strings.Contains(strings.ToLower(a[2]), "secret")) ||
				sub(a, "sts", "get-session-token") || sub(a, "ecr", "get-login-password") || sub(a, "secretsmanager", "get-secret-value") ||
				sub(a, "ssm", "get-parameter") && has(a, "--with-decryption") || sub(a, "codeartifact", "get-authorization-token") ||
				sub(a, "iam", "create-access-key")
		}},
	&Program{Name: "gcloud", Kind: NetSender | Uploader | CredPrinter,
		Uploads: func(a []string) bool { return sub(a, "storage") && anyPrefix(a, "gs://") },
		PrintsCredentials: func(a []string) bool {
			return sub(a, "auth", "print-access-token") || sub(a, "auth", "print-identity-token") ||
				sub(a, "auth", "application-default", "print-access-token") || sub(a, "secrets", "versions", "access") ||
				sub(a, "config", "config-helper")
		}},
	&Program{Name: "gsutil", Kind: NetSender | Uploader, Uploads: func(a []string) bool { return anyPrefix(a, "gs://") }},
	&Program{Name: "s3cmd", Kind: NetSender | Uploader, Uploads: func(a []string) bool { return sub(a, "put") || sub(a, "sync") }},
	&Program{Name: "rclone", Kind: NetSender | Uploader | Copier | Archiver, Uploads: func(a []string) bool {
		return sub(a, "copy") || sub(a, "sync") || sub(a, "move") || sub(a, "copyto") || sub(a, "rcat")
	}},
	&Program{Name: "az", Kind: NetSender | Uploader | CredPrinter,
		Uploads: func(a []string) bool {
			return sub(a, "storage", "blob", "upload") || sub(a, "storage", "blob", "upload-batch")
		},
		PrintsCredentials: func(a []string) bool {
			return sub(a, "account", "get-access-token") || sub(a, "keyvault", "secret", "show") ||
				sub(a, "storage", "account", "keys", "list") || sub(a, "acr", "login") && has(a, "--expose-token")
		}},
	&Program{Name: "azcopy", Kind: NetSender | Uploader, Uploads: func([]string) bool { return true }},
	&Program{Name: "kubectl", Names: []string{"oc", "kubecolor"}, Kind: CredPrinter | Runner | EnvSetup, Opts: kubectlSpec,
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
			}
			return false
		}},
	&Program{Name: "helm", Kind: EnvSetup},
	&Program{Name: "vault", Kind: CredPrinter, PrintsCredentials: func(a []string) bool {
		return sub(a, "read") || sub(a, "kv", "get") || sub(a, "print", "token") || sub(a, "token", "create") || sub(a, "login")
	}},
	&Program{Name: "op", Kind: CredPrinter, PrintsCredentials: func(a []string) bool {
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
	&Program{Name: "docker", Names: []string{"podman", "nerdctl"}, Kind: Runner},
	&Program{Name: "heroku", Kind: CredPrinter, PrintsCredentials: func(a []string) bool {
		return sub(a, "auth:token") || sub(a, "config") && has(a, "--json", "-s", "--shell")
	}},
	&Program{Name: "doctl", Names: []string{"fly", "flyctl", "vercel", "netlify", "linode-cli", "hcloud", "ibmcloud", "oci", "scw", "exo", "vultr-cli", "railway", "render", "supabase", "firebase"}, Kind: 0},
	&Program{Name: "npm", Names: []string{"pnpm", "yarn"}, Kind: CredPrinter, PrintsCredentials: func(a []string) bool {
		return sub(a, "token", "list") || sub(a, "config", "get") && len(a) > 2 && strings.Contains(a[2], "authToken") || sub(a, "config", "list") && has(a, "-l", "--long", "--json")
	}},
	&Program{Name: "terraform", Names: []string{"tofu", "terragrunt"}, Kind: 0},
	&Program{Name: "pulumi", Names: []string{"cdk", "cdktf", "serverless", "sls"}, Kind: 0},
)
