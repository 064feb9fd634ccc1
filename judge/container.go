package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/programs"
)

// A container run that is handed the host: docker run -v /:/host mounts the
// host's root filesystem into a container that runs as root, so anything
// the container does (chroot /host, edit /host/etc/sudoers) is done to this
// machine as root, without sudo. --privileged, --pid=host and capabilities
// like SYS_ADMIN reach the host's devices and processes the same way.
// Mounting the project or a build directory is everyday work and passes.
// The host mount is a deny of medium severity: it is the means, and what
// runs in the container (rm -rf /host) is judged too and speaks first. A
// credential store mounted read-only (-v ~/.aws:/root/.aws:ro, the way the
// aws-cli image is documented) hands the container the secret, not the
// host: it is the secret read it is (SECRET-READ, ask), not a deny.

// Rules of this file.
const (
	RulePrivContainerHostRoot   = "PRIV-CONTAINER-HOST-ROOT"
	RulePrivContainerPrivileged = "PRIV-CONTAINER-PRIVILEGED"
)

var _ = rules(
	Rule{ID: RulePrivContainerHostRoot, Class: ClassPrivilege, Severity: SevMedium, Decision: Deny, Catastrophic: true,
		Reason:      "a container is given the host's root filesystem, a system directory, the home directory or the container engine's socket: it acts on this machine as root",
		Alternative: "mount only the project directory (-v \"$PWD\":/src)",
		Matches:     "`docker`/`podman`/`nerdctl` `run`/`create` with `-v`/`--volume`/`--mount` whose host side is `/`, a system directory, home or above it, a credential store, or `docker.sock`",
		Fire: []string{"docker run -v /:/host --privileged -it alpine chroot /host", "docker run --rm -v /etc:/mnt/etc alpine sh -c 'echo x >> /mnt/etc/passwd'",
			"podman run -v ~/.ssh:/k alpine cat /k/id_rsa", "docker run -v ~:/h:ro alpine ls /h", "docker run --mount type=bind,src=/,dst=/h,readonly alpine true", "docker run --mount type=bind,source=/,target=/h ubuntu", "docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli docker run --privileged x"},
		Pass: []string{"docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./...", "docker run -v /home/user/proj/data:/data postgres", "docker run --rm alpine echo hi",
			"docker ps -a", "docker run -v pgdata:/var/lib/postgresql/data postgres"}},
	Rule{ID: RulePrivContainerPrivileged, Class: ClassPrivilege, Severity: SevHigh, Decision: Ask,
		Reason:      "a container runs privileged (all devices and capabilities, or the host's processes): root on this machine in effect",
		Alternative: "run the container unprivileged; ask the operator if a device is needed",
		Matches:     "`docker`/`podman`/`nerdctl` `run`/`create` with `--privileged`, `--pid=host`, or `--cap-add` ALL/SYS_ADMIN/SYS_PTRACE/SYS_MODULE",
		Fire:        []string{"docker run --privileged -it ubuntu bash", "docker run --pid=host --rm alpine kill 1", "docker run --cap-add=SYS_ADMIN alpine mount /dev/sda1 /mnt"},
		Pass:        []string{"docker run --rm -it ubuntu bash", "docker run --cap-add=NET_ADMIN alpine ip link", "docker run --privileged=false alpine true"}},
)

var _ = onExec(func(j *judge, x execution) {
	h, ok := programs.ContainerHost(x.e.Name, x.args)
	if !ok {
		return
	}
	for i, m := range h.Mounts {
		if strings.HasSuffix(m, "/docker.sock") || strings.HasSuffix(m, "/podman.sock") {
			j.add(RulePrivContainerHostRoot, x.detail)
			return
		}
		p, ok := j.resolve(m, x.e.Dir)
		if !ok {
			continue
		}
		if h.ReadOnly[i] && j.isSecretPath(p) {
			j.add(RuleSecretRead, x.detail)
			continue
		}
		if j.exposesHost(p) {
			j.add(RulePrivContainerHostRoot, x.detail)
			return
		}
	}
	if h.Privileged {
		j.add(RulePrivContainerPrivileged, x.detail)
	}
})
