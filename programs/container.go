package programs

import "strings"

// Containers: docker, podman and nerdctl run a command in a container
// (package parse judges that command as one that runs elsewhere), and some
// of their options hand the container the host itself: the host's root
// filesystem mounted, --privileged (every device, every capability), the
// host's process namespace. Whoever runs in it is root on this machine.

// The option grammars of docker: before the subcommand (DockerGlobal), of
// docker compose, docker exec and docker run/create.
var (
	DockerGlobal  = S("Hcl", "host", "context", "config", "log-level", "tlscacert", "tlscert", "tlskey")
	DockerCompose = S("fp", "file", "project-name", "profile", "env-file", "project-directory", "ansi", "parallel", "progress")
	DockerExec    = S("euw", "env", "user", "workdir", "env-file", "detach-keys", "index")
	DockerRun     = S("eupvwlmhcaP",
		"env", "user", "publish", "volume", "workdir", "label", "memory", "hostname", "name",
		"network", "net", "entrypoint", "mount", "platform", "cpus", "env-file", "add-host", "device", "dns",
		"cap-add", "cap-drop", "security-opt", "ulimit", "log-driver", "log-opt", "restart", "shm-size",
		"tmpfs", "pull", "label-file", "cidfile", "gpus", "ipc", "pid", "runtime", "stop-signal",
		"stop-timeout", "volumes-from", "health-cmd", "attach", "cpu-shares", "memory-swap", "group-add",
		"expose", "link", "userns", "uts", "cgroupns", "domainname", "mac-address", "ip", "ip6",
		"network-alias", "sysctl", "storage-opt", "cpuset-cpus", "isolation", "detach-keys", "service-ports")
)

// HostAccess is what a container run is given of the host.
type HostAccess struct {
	Mounts     []string // host paths bind-mounted (-v SRC:DST, --mount source=SRC)
	ReadOnly   []bool   // Mounts[i] is read-only (-v SRC:DST:ro, --mount ...,readonly)
	Privileged bool     // --privileged, --cap-add ALL/SYS_ADMIN, --pid=host, --userns=host with either
}

// ContainerHost reads docker/podman/nerdctl [global options] run|create
// [options] IMAGE ...: ok is false for other subcommands.
func ContainerHost(name string, args []string) (h HostAccess, ok bool) {
	if p := Lookup(name); p == nil || p.Name != "docker" {
		return h, false
	}
	i, _ := Skip(len(args), func(i int) (string, bool) { return args[i], true }, DockerGlobal)
	args = args[i:]
	if len(args) > 0 && args[0] == "container" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] != "run" && args[0] != "create" {
		return h, false
	}
	args = args[1:]
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			break // the image
		}
		opt, val, hasVal := strings.Cut(a, "=")
		takes := false
		if strings.HasPrefix(opt, "--") {
			takes = DockerRun.longTakes(opt[2:])
		} else if len(opt) == 2 && strings.IndexByte(DockerRun.Short, opt[1]) >= 0 {
			takes = true
		} else if len(opt) > 2 && strings.IndexByte(DockerRun.Short, opt[1]) >= 0 {
			val, hasVal, opt = opt[2:], true, opt[:2] // -v/:/host
		}
		if takes && !hasVal && k+1 < len(args) {
			k++
			val = args[k]
		}
		switch opt {
		case "-v", "--volume":
			parts := strings.Split(val, ":")
			if src := parts[0]; strings.HasPrefix(src, "/") || strings.HasPrefix(src, "~") || strings.HasPrefix(src, "$") {
				ro := false
				if len(parts) > 2 {
					for _, o := range strings.Split(parts[2], ",") {
						ro = ro || o == "ro" || o == "readonly"
					}
				}
				h.Mounts, h.ReadOnly = append(h.Mounts, src), append(h.ReadOnly, ro)
			}
		case "--mount":
			src, ro := "", false
			for _, kv := range strings.Split(val, ",") {
				k, v, hasV := strings.Cut(kv, "=")
				switch {
				case k == "source" || k == "src":
					src = v
				case k == "readonly" || k == "ro":
					ro = !hasV || v == "true" || v == "1"
				}
			}
			if src != "" {
				h.Mounts, h.ReadOnly = append(h.Mounts, src), append(h.ReadOnly, ro)
			}
		case "--privileged":
			h.Privileged = val == "" || val == "true"
		case "--cap-add":
			u := strings.ToUpper(val)
			h.Privileged = h.Privileged || u == "ALL" || u == "SYS_ADMIN" || u == "CAP_SYS_ADMIN" || u == "SYS_PTRACE" || u == "SYS_MODULE"
		case "--pid":
			h.Privileged = h.Privileged || val == "host"
		}
	}
	return h, true
}
