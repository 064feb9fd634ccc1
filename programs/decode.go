package programs

// Decoders: text run after passing through one of these was hidden from a
// reader of the command (base64 -d | sh). Decodes says when the arguments
// put it in decode mode, for laundering through a file; piped straight into
// a shell any of them counts.
var _ = register(
	&Program{Name: "base64", Names: []string{"base32", "basenc"}, Kind: Decoder,
		Decodes: func(a []string) bool { return has(a, "-d", "--decode", "-D") || HasShortFlag(a, 'd') }},
	&Program{Name: "xxd", Kind: Decoder | Reader, Opts: S("cglos"),
		Decodes: func(a []string) bool { return HasShortFlag(a, 'r') || has(a, "-revert") }},
	&Program{Name: "openssl", Kind: Decoder,
		Decodes: func(a []string) bool { return has(a, "-d", "-decrypt") }},
	&Program{Name: "uudecode", Kind: Decoder, Opts: S("o", "output-file"),
		Decodes: func([]string) bool { return true }},
	&Program{Name: "gpg", Names: []string{"gpg2"}, Kind: Decoder, Opts: S("o", "output"),
		Decodes:           func(a []string) bool { return has(a, "-d", "--decrypt") },
		PrintsCredentials: func(a []string) bool { return anyPrefix(a, "--export-secret") }},
	&Program{Name: "gzip", Names: []string{"gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "xz", "unxz", "xzcat", "zstd", "unzstd", "zstdcat"}, Kind: Decoder},
	&Program{Name: "rev", Kind: Decoder | Reader},
	&Program{Name: "tr", Kind: Decoder},
	&Program{Name: "od", Kind: Decoder | Reader},
	&Program{Name: "printf", Kind: NonReader},
	&Program{Name: "echo", Kind: NonReader},
)
