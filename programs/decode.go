package programs

import "strings"

// Decoders: text run after passing through one of these was hidden from a
// reader of the command (base64 -d | sh). Decodes says when the arguments
// put it in decode mode, for laundering through a file; piped straight into
// a shell any of them counts.
var _ = register(
	&Program{Name: "base64", Names: []string{"base32", "basenc"}, Kind: Decoder,
		Decodes: func(a []string) bool { return has(a, "-d", "--decode", "-D") || HasShortFlag(a, 'd') }},
	&Program{Name: "xxd", Kind: Decoder | Reader, Opts: xxdSpec, Outputs: xxdOutputs, Zeroes: xxdZeroes,
		Decodes: func(a []string) bool { return HasShortFlag(a, 'r') || has(a, "-revert") }},
	// openssl s_client sends its stdin to the server it connects to.
	&Program{Name: "openssl", Kind: Decoder | NetSender | Uploader, Outputs: opensslOutputs, KeyArgs: []string{"-key", "-signkey", "-CAkey", "-inkey", "-keyout"},
		Decodes: func(a []string) bool { return has(a, "-d", "-decrypt") },
		Uploads: func(a []string) bool { return sub(a, "s_client") }},
	// secret stores: they print a secret only when told to decrypt to the
	// output (sops -d F, ansible-vault view F); encrypting reads nothing out
	&Program{Name: "sops", Kind: Decoder | NonReader | CredPrinter, Opts: S("", "output", "input-type", "output-type"),
		Decodes:           func(a []string) bool { return has(a, "-d", "--decrypt") },
		PrintsCredentials: func(a []string) bool { return has(a, "-d", "--decrypt") && !has(a, "-i", "--in-place", "--output") }},
	&Program{Name: "ansible-vault", Kind: Decoder | NonReader | CredPrinter,
		Decodes: func(a []string) bool { return len(a) > 0 && (a[0] == "view" || a[0] == "decrypt") },
		PrintsCredentials: func(a []string) bool {
			return len(a) > 0 && (a[0] == "view" || a[0] == "decrypt" && has(a, "--output=-"))
		}},
	&Program{Name: "uudecode", Kind: Decoder, Opts: S("o", "output-file"), Outputs: optOutputs(S("o", "output-file"), 'o', "output-file"),
		Decodes: func([]string) bool { return true }},
	// a decrypter told to write the plain text to its output shows what was
	// encrypted, a secret by being encrypted (gpg -d secrets.yaml.gpg)
	&Program{Name: "gpg", Names: []string{"gpg2"}, Kind: Decoder | CredPrinter, Opts: S("o", "output"), Outputs: optOutputs(S("o", "output"), 'o', "output"),
		Decodes: func(a []string) bool { return has(a, "-d", "--decrypt") },
		PrintsCredentials: func(a []string) bool {
			return anyPrefix(a, "--export-secret") || decryptsToOutput(a, "-d", "--decrypt")
		}},
	&Program{Name: "age", Kind: Decoder | CredPrinter, Opts: S("oirR", "output", "identity", "recipient", "recipients-file"),
		Outputs: optOutputs(S("o", "output"), 'o', "output"), KeyArgs: []string{"-i", "--identity"},
		Decodes:           func(a []string) bool { return has(a, "-d", "--decrypt") },
		PrintsCredentials: func(a []string) bool { return decryptsToOutput(a, "-d", "--decrypt") }},
	&Program{Name: "gzip", Names: []string{"gunzip", "zcat", "bzip2", "bunzip2", "bzcat", "xz", "unxz", "xzcat", "zstd", "unzstd", "zstdcat"}, Kind: Decoder},
	&Program{Name: "rev", Kind: Decoder | Reader},
	&Program{Name: "tr", Kind: Decoder},
	&Program{Name: "od", Kind: Decoder | Reader},
	&Program{Name: "printf", Kind: NonReader},
	&Program{Name: "echo", Kind: NonReader},
)

var xxdSpec = S("cglos")

// xxdOutputs: xxd [-r] IN OUT writes OUT.
func xxdOutputs(args []string) []string {
	if p := Parse(args, xxdSpec).Pos; len(p) == 2 {
		return p[1:]
	}
	return nil
}

// opensslOutputs: openssl CMD ... -out FILE.
func opensslOutputs(args []string) []string {
	var out []string
	for k, a := range args {
		if (a == "-out" || a == "-keyout") && k+1 < len(args) && args[k+1] != "-" {
			out = append(out, args[k+1])
		}
	}
	return out
}

// optOutputs: the file an output option names (-o F, --output F), not "-".
func optOutputs(s Spec, short byte, long string) func([]string) []string {
	return func(args []string) []string {
		if v := Parse(args, s).Value(short, long); v != "" && v != "-" {
			return []string{v}
		}
		return nil
	}
}

// decryptsToOutput: a decrypt option with no output file (-o F,
// --output F, --output=F) or with "-", the terminal.
func decryptsToOutput(args []string, decrypt ...string) bool {
	if !has(args, decrypt...) {
		return false
	}
	for i, a := range args {
		switch {
		case (a == "-o" || a == "--output") && i+1 < len(args):
			return args[i+1] == "-"
		case strings.HasPrefix(a, "--output="):
			return a == "--output=-"
		case len(a) > 2 && strings.HasPrefix(a, "-o") && a[1] == 'o':
			return a == "-o-"
		}
	}
	return true
}
