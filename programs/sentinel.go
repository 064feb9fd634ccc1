package programs

// The sentinel's own commands: the guard itself. Switching it off, or
// grading its own flags, is oversight tampering (judged in judge).
var _ = register(
	&Program{Name: "sentinel", Kind: NonReader},
	&Program{Name: "sentinel-hook", Kind: NonReader},
)

// GuardNames are the names the guard's processes and binaries run under:
// killing a process by one of these names (pkill -f sentinel) or moving the
// binary is tampering.
var GuardNames = []string{"sentinel", "sentinel-hook"}
