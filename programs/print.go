package programs

// PrintsArgs reports the programs whose output is their own arguments
// (echo, printf, print): a credential among the arguments is printed, into
// the transcript when nothing after it takes the output.
func PrintsArgs(name string) bool {
	switch name {
	case "echo", "printf", "print", "say":
		return true
	}
	return false
}
