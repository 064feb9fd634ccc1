// Package claudecode runs the real Claude Code binary against the real
// sentinel hooks, with the scripted fake model of e2e/fakeapi, and checks
// what happened: on disk, in what the model was told, in the register, and
// in census and outcomes over the transcripts Claude Code wrote.
//
// A run happens inside a loopback-only network namespace (unshare -n, then
// ip link set lo up): the fake API listens there, and Claude Code reaches
// nothing else. Claude Code runs as an unprivileged user (setpriv), because
// --dangerously-skip-permissions refuses root. The namespace side is this
// package's Runner, started by re-executing the test binary (see
// RunnerEnv); the test side sets up the throwaway HOME and project.
package claudecode
