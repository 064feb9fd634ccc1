package programs

// ScheduleSource says where a scheduler (at, batch, crontab) reads what it
// will run: "-" for stdin, else the file named; ok is false when the
// arguments list, remove, show or edit jobs instead of adding one.
func ScheduleSource(name string, args []string) (src string, ok bool) {
	switch name {
	case "at", "batch":
		o := Parse(args, S("fqtM"))
		if o.Has('l') || o.Has('r') || o.Has('d') || o.Has('c') || o.Has('V') {
			return "", false
		}
		if f, ok := o.Values["f"]; ok && f != "" {
			return f, true
		}
		return "-", true
	case "crontab":
		o := Parse(args, S("usT"))
		if o.Has('l') || o.Has('r') || o.Has('e') || o.Has('V') {
			return "", false
		}
		if len(o.Pos) > 0 {
			return o.Pos[0], true
		}
		return "-", true
	}
	return "", false
}
