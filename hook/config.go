package hook

// Config is the merged operator (user-level) and project configuration.
type Config struct{}
