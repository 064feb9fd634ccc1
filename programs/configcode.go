package programs

import "path"

// Configuration that runs commands (issue 19, persistence points): the
// files programs read at start below home (~/.config/**, ~/.local/share/**,
// a dot-directory), the directories on PATH that toolchains install into,
// and the settings whose value is a program or code to run. What decides a
// write to one of them is what it makes run, not where it lies.

// toolchainBins are directories below home that toolchains put on PATH
// (a path pattern: * is one directory): a file there named like a program
// shadows that program for every shell of the user.
var toolchainBins = []string{
	".cargo/bin", "go/bin", ".npm-global/bin", ".npm-packages/bin", ".bun/bin", ".deno/bin", ".yarn/bin",
	".volta/bin", ".local/share/pnpm", ".nvm/versions/node/*/bin", ".nvm/current/bin",
	".sdkman/candidates/*/current/bin", ".sdkman/candidates/*/*/bin", ".dotnet/tools", ".ghcup/bin",
	".cabal/bin", ".juliaup/bin", ".nix-profile/bin", ".gem/bin", ".rustup/toolchains/*/bin",
	".pyenv/shims", ".rbenv/shims", ".asdf/shims", ".nodenv/shims", ".local/share/mise/shims", ".pyenv/bin",
}

// ToolchainBin reports a directory (below home: rel) that a toolchain puts
// on the user's PATH.
func ToolchainBin(rel string) bool {
	for _, pat := range toolchainBins {
		if ok, _ := path.Match(pat, rel); ok {
			return true
		}
	}
	return false
}
