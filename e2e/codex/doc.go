// Package codex runs the real Codex CLI (codex exec) against the real
// sentinel hooks, with the scripted fake Responses API of
// e2e/fakeresponses, and checks what happened: on disk, in what the model
// was told, in the register, and in census and outcomes over the rollouts
// Codex wrote.
//
// A run happens inside a loopback-only network namespace (unshare -n, then
// ip link set lo up): the fake listens there on a fixed port (each run has
// its own loopback), and Codex reaches nothing else. Codex runs as an
// unprivileged user (setpriv), as a person would. The namespace side is
// this package's runner, started by re-executing the test binary (see
// RunnerEnv); the test side sets up the throwaway HOME, CODEX_HOME and
// project (not under /tmp: Codex's sandbox refuses to start there, and the
// sentinel treats /tmp and /var/tmp as scratch space, not a HOME).
package codex
