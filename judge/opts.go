package judge

import "github.com/sentinel-guard/sentinel/programs"

// opts is a command line split GNU style (programs.Parse).
type opts = programs.Opts

// parseOpts splits args with an ad-hoc grammar for a program the model
// does not need to describe further; programs with a table use theirs
// (programs.Lookup(name).Parse).
func parseOpts(args []string, shortVal string, longVal ...string) opts {
	return programs.Parse(args, programs.S(shortVal, longVal...))
}

// canon is the model's name for a program (chgrp is chown, sponge is tee,
// python3.12 is python), or name as it is when the model does not know it:
// a rule that is about one program names it once, its aliases come from
// the model.
func canon(p *programs.Program, name string) string {
	if p == nil {
		return name
	}
	return p.Name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsAny(list []string, want ...string) bool {
	for _, w := range want {
		if contains(list, w) {
			return true
		}
	}
	return false
}
