package programs

// Dotfile managers. Like an archive, they write files into a directory
// (home, by default) whose names and contents their source chooses, not
// the command line: stow links a package's files into its target,
// chezmoi and yadm check a repository out over home, home-manager and
// rcup install generated dotfiles. Their Unpacks says where the files
// land, and judge reads it as it reads tar's (DOTFILE-WRITE into home).

var _ = register(
	&Program{Name: "stow", Names: []string{"xstow"}, Kind: Writer, Opts: S("dtS", "dir", "target"), Unpacks: stowUnpacks},
	&Program{Name: "chezmoi", Kind: Writer, Opts: S("DSc", "destination", "source", "config"), Unpacks: chezmoiUnpacks},
	&Program{Name: "yadm", Kind: Writer, Opts: S("Y"), Unpacks: yadmUnpacks},
	&Program{Name: "home-manager", Kind: Writer, Opts: S("fIAb", "file"), Unpacks: homeManagerUnpacks},
	&Program{Name: "rcup", Kind: Writer, Opts: S("dIxBSsTUt"), Unpacks: rcupUnpacks},
)

// stowUnpacks: stow [-t DIR] PKG... links into -t, else the parent of the
// stow directory (-d, else the working directory's parent: ~ for a
// ~/dotfiles checkout). -D (delete) and -n (simulate) write nothing.
func stowUnpacks(args []string) (string, string, bool) {
	o := Parse(args, S("dtS", "dir", "target"))
	if o.Has('n', "no", "simulate") || o.Has('D', "delete") || len(o.Pos) == 0 {
		return "", "", false
	}
	if t := o.Value('t', "target"); t != "" {
		return "", t, true
	}
	if d := o.Value('d', "dir"); d != "" {
		return "", d + "/..", true
	}
	return "", "..", true
}

// chezmoiUnpacks: chezmoi apply, update, init --apply (or init URL
// --apply) write the source state over the destination (-D, else ~).
// --dry-run/-n writes nothing; diff, status, cd, edit do not apply.
func chezmoiUnpacks(args []string) (string, string, bool) {
	o := Parse(args, S("DSc", "destination", "source", "config"))
	if len(o.Pos) == 0 || o.Has('n', "dry-run") {
		return "", "", false
	}
	switch o.Pos[0] {
	case "apply", "update":
	case "init":
		if !o.Has('a', "apply") {
			return "", "", false
		}
	default:
		return "", "", false
	}
	if d := o.Value('D', "destination"); d != "" {
		return "", d, true
	}
	return "", "~", true
}

// yadmUnpacks: yadm clone (-f overwrites), checkout and pull check a
// repository out over ~.
func yadmUnpacks(args []string) (string, string, bool) {
	o := Parse(args, S("Y"))
	if len(o.Pos) == 0 {
		return "", "", false
	}
	switch o.Pos[0] {
	case "clone", "checkout", "pull", "reset", "restore":
		return "", "~", true
	}
	return "", "", false
}

// homeManagerUnpacks: home-manager switch activates a configuration
// (any file it names, the generated dotfiles linked into ~).
func homeManagerUnpacks(args []string) (string, string, bool) {
	o := Parse(args, S("fIAb", "file"))
	if len(o.Pos) > 0 && o.Pos[0] == "switch" {
		return "", "~", true
	}
	return "", "", false
}

// rcupUnpacks: rcup links the dotfiles directories into ~ (-n: dry run).
func rcupUnpacks(args []string) (string, string, bool) {
	if Parse(args, S("dIxBSsTUt")).Has('n') {
		return "", "", false
	}
	return "", "~", true
}
