package programs

import "strings"

// Code hosting CLIs (gh, glab, hub, tea): what they do to the remote
// repository itself (blind attack class 5, issue 19). Deleting, archiving
// or transferring it away is Destroys (INFRA-CLOUD-DELETE); making a
// private repository public is Publishes (REPO-MADE-PUBLIC). gh api and
// glab api reach the same through the REST endpoint of the repository,
// with a method given by -X or implied by fields (POST).

// apiCall is a gh/glab api invocation: its endpoint, method and fields.
type apiCall struct {
	endpoint, method string
	fields           map[string]string
}

// hostAPI reads `gh api ...` / `glab api ...` (args after the program).
func hostAPI(args []string) (apiCall, bool) {
	c := apiCall{fields: map[string]string{}}
	p := Operands(args)
	if len(p) == 0 || p[0] != "api" {
		return c, false
	}
	seenAPI := false
	for k := 0; k < len(args); k++ {
		a := args[k]
		next := func() string {
			if k+1 < len(args) {
				k++
				return args[k]
			}
			return ""
		}
		switch {
		case a == "-X" || a == "--method":
			c.method = next()
		case strings.HasPrefix(a, "--method="):
			c.method = a[len("--method="):]
		case strings.HasPrefix(a, "-X") && len(a) > 2:
			c.method = a[2:]
		case a == "-f" || a == "-F" || a == "--field" || a == "--raw-field":
			k, v, _ := strings.Cut(next(), "=")
			c.fields[strings.ToLower(k)] = v
		case strings.HasPrefix(a, "--field=") || strings.HasPrefix(a, "--raw-field="):
			_, kv, _ := strings.Cut(a, "=")
			k, v, _ := strings.Cut(kv, "=")
			c.fields[strings.ToLower(k)] = v
		case a == "--input":
			next()
			c.fields[""] = "@input" // a body from a file: not known
		case a == "-H" || a == "--header" || a == "-q" || a == "--jq" || a == "-t" || a == "--template" || a == "-R" || a == "--repo" || a == "--hostname" || a == "--cache":
			next()
		case strings.HasPrefix(a, "-"):
		case !seenAPI && a == "api":
			seenAPI = true
		case seenAPI && c.endpoint == "":
			c.endpoint = strings.TrimPrefix(a, "/")
		}
	}
	c.method = strings.ToUpper(c.method)
	if c.method == "" {
		c.method = "GET"
		if len(c.fields) > 0 {
			c.method = "POST" // gh and glab send fields as a POST unless told
		}
	}
	return c, true
}

// repoEndpoint reports an endpoint that is a repository itself
// (repos/OWNER/REPO for GitHub, projects/ID for GitLab) and what follows
// it ("" for the repository, "transfer", ...).
func repoEndpoint(e string) (tail string, ok bool) {
	e, _, _ = strings.Cut(e, "?")
	parts := strings.Split(strings.Trim(e, "/"), "/")
	switch {
	case len(parts) >= 3 && parts[0] == "repos":
		return strings.Join(parts[3:], "/"), true
	case len(parts) >= 2 && parts[0] == "projects":
		return strings.Join(parts[2:], "/"), true
	}
	return "", false
}

// apiDestroys: a write to the repository that deletes, archives or
// transfers it.
func (c apiCall) destroys() bool {
	tail, ok := repoEndpoint(c.endpoint)
	if !ok || c.method == "GET" || c.method == "HEAD" {
		return false
	}
	switch {
	case tail == "" && c.method == "DELETE":
		return true
	case tail == "" && (truthy(c.fields["archived"])):
		return true
	case tail == "transfer" || tail == "archive" && c.method == "POST":
		return true
	}
	return false
}

// publishes: a write to the repository that makes it public.
func (c apiCall) publishes() bool {
	tail, ok := repoEndpoint(c.endpoint)
	if !ok || tail != "" || c.method == "GET" || c.method == "DELETE" {
		return false
	}
	return strings.EqualFold(c.fields["visibility"], "public") || c.fields["private"] == "false"
}

func truthy(v string) bool { return v == "true" || v == "1" }

// ghRepoDestroys: gh repo archive (read-only for everyone), gh api writes
// that delete, archive or transfer the repository.
func ghRepoDestroys(args []string) bool {
	if sub(Operands(args), "repo", "archive") {
		return true
	}
	c, ok := hostAPI(args)
	return ok && c.destroys()
}

// ghPublishes: gh repo edit --visibility public, and gh api writes that
// make the repository public (a new public repository is not this).
func ghPublishes(args []string) bool {
	if sub(Operands(args), "repo", "edit") {
		for k, a := range args {
			if a == "--visibility=public" || a == "--visibility" && k+1 < len(args) && strings.EqualFold(args[k+1], "public") {
				return true
			}
		}
	}
	c, ok := hostAPI(args)
	return ok && c.publishes()
}

// glabDestroys: glab repo delete, glab api writes that delete, archive or
// transfer a project (glab repo archive downloads an archive: no).
func glabDestroys(args []string) bool {
	if DryRun(args) {
		return false
	}
	if sub(Operands(args), "repo", "delete") {
		return true
	}
	c, ok := hostAPI(args)
	return ok && (c.destroys() || c.method == "DELETE") // as gh api -X DELETE
}

// glabPublishes: glab api (and hub api) writes that make a repository
// public.
func glabPublishes(args []string) bool {
	c, ok := hostAPI(args)
	return ok && c.publishes()
}

// hubDestroys: hub delete REPO, and hub api as gh api; teaDestroys: tea
// repo(s) delete.
func hubDestroys(args []string) bool {
	if p := Operands(args); len(p) > 0 && p[0] == "delete" {
		return true
	}
	c, ok := hostAPI(args)
	return ok && (c.destroys() || c.method == "DELETE")
}
func teaDestroys(args []string) bool {
	p := Operands(args)
	return len(p) >= 2 && (p[0] == "repo" || p[0] == "repos") && (p[1] == "delete" || p[1] == "rm")
}

var _ = register(
	&Program{Name: "hub", Kind: NetSender | Cloud, Destroys: hubDestroys, Publishes: glabPublishes},
	&Program{Name: "tea", Kind: NetSender | Cloud, Destroys: teaDestroys},
)

// hostChange: what a code hosting CLI grants or rewrites besides its
// deletions (Destroys): an SSH key added to the account (gh ssh-key add:
// every repository the account reaches), a deploy key with write access,
// a collaborator or member given a permission through the API; a branch
// moved by force through the API (refs PATCH with force=true: the commits
// it held are dropped).
func hostChange(name string, args []string) (string, string, bool) {
	p := Operands(args)
	switch {
	case sub(p, "ssh-key", "add") || sub(p, "gpg-key", "add"):
		return ChangeGrant, name + " " + p[0] + " add (a key for the whole account)", true
	case sub(p, "repo", "deploy-key", "add") && has(args, "--allow-write", "-w"):
		return ChangeGrant, name + " repo deploy-key add --allow-write", true
	}
	c, ok := hostAPI(args)
	if !ok || c.method == "GET" || c.method == "HEAD" {
		return ChangeNone, "", false
	}
	e := strings.ToLower(c.endpoint)
	switch {
	case strings.Contains(e, "/git/refs/") && truthy(c.fields["force"]):
		return ChangeDestroy, name + " api " + c.method + " " + c.endpoint + " force=true", true
	case c.method != "DELETE" && (strings.Contains(e, "/collaborators/") || strings.Contains(e, "/members") ||
		c.fields["permission"] != "" || c.fields["access_level"] != "" || c.fields["role"] != ""):
		return ChangeGrant, name + " api " + c.method + " " + c.endpoint, true
	}
	return ChangeNone, "", false
}
