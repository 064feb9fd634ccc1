package judge

import (
	"slices"
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Fan-out (issue 12, class 10). A command that find -exec, fd -x or xargs
// runs on names a lister supplies is judged once more with those names
// where they go: parse gives them as the execution's Feed (DIR/* for all
// of DIR, DIR/*_ for a filtered part; see programs/fanout.go). So
// fd -t f . ~ -x rm is rm -r ~/* (RM-HOME), git ls-files | xargs rm is
// rm -r ./* at the project root (RM-PROJECT-ROOT), find ~/Projects -exec
// chmod 000 {} + is chmod -R 000 ~/Projects/* (CHMOD-RECURSIVE-HOME),
// while fd -e pyc -x rm stays inside the project. parallel's ::: values
// are substituted by parse itself.

var _ = onExec(func(j *judge, x execution) {
	e := x.e
	if !e.ExtraArgs || len(e.Feed) == 0 || len(e.Argv) == 0 {
		return
	}
	if slices.Contains(e.Wrappers, "find -exec") && programs.Is(e.Name, programs.Deleter) {
		return // find -exec rm: FIND-DELETE-OUTSIDE judges find's roots
	}
	v := *e
	v.ExtraArgs, v.Feed = false, nil
	argv := []parse.Word{e.Argv[0]}
	if e.FeedDeep {
		argv = append(argv, deepFlag(e.Name, wordValues(e.Argv[1:]))...)
	}
	placed := false
	for _, w := range e.Argv[1:] {
		if !w.Static && !strings.ContainsAny(w.Value, "$`") {
			argv = append(argv, e.Feed...) // {} or xargs -I's string
			placed = true
			continue
		}
		argv = append(argv, w)
	}
	if !placed {
		argv = append(argv, e.Feed...)
	}
	v.Argv = argv
	args := wordValues(argv[1:])
	detail := x.detail + " (on " + strings.Join(wordValues(e.Feed), " ") + ")"
	j.command(x.all, x.i, &v, args, detail)
	vx := execution{all: x.all, i: x.i, e: &v, args: args, detail: detail}
	for _, m := range execMatchers {
		m(j, vx)
	}
})

// deepFlag is the option that makes a command reach every depth below
// its operands, as a deep feed does: rm -r, chown -R; chmod -R only for a
// mode that takes the owner's read away or lets others write (a deep
// chmod 644 is what find -type f -exec chmod 644 does to files).
func deepFlag(name string, args []string) []parse.Word {
	switch name {
	case "rm", "shred":
		return []parse.Word{{Value: "-r", Static: true}}
	case "chown", "chgrp", "chattr", "setfacl":
		return []parse.Word{{Value: "-R", Static: true}}
	case "chmod":
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				if noOwnerRead(a) || openMode(a) {
					return []parse.Word{{Value: "-R", Static: true}}
				}
				break
			}
		}
	}
	return nil
}
