package programs

import "strings"

// Windows shells (cmd.exe, Windows PowerShell, pwsh) and the Windows
// programs an agent reaches through them (Claude Code on Windows, WSL,
// Git Bash). Their command words are not POSIX: cmd's builtins and
// PowerShell's cmdlets live in their own tables here (rm is an alias of
// Remove-Item in PowerShell, a program in sh), case-insensitively. Package
// parse reads cmd /c and powershell -Command text with them and emits what
// the words do as the POSIX executions every rule knows (Remove-Item
// -Recurse -Force ~ is rm -rf ~).

// WinVerb is what a cmd builtin or a cmdlet does.
type WinVerb int

// The verbs.
const (
	WinOther       WinVerb = iota
	WinDelete              // Remove-Item, rd, del: its paths are deleted
	WinMove                // Move-Item, move: sources moved to the destination
	WinCopy                // Copy-Item, copy, xcopy, robocopy
	WinRead                // Get-Content, type: prints a file
	WinWrite               // Set-Content, Out-File: writes a file
	WinAppend              // Add-Content
	WinFetch               // Invoke-WebRequest, Invoke-RestMethod, Start-BitsTransfer: the network
	WinEval                // Invoke-Expression: runs a string as code
	WinStart               // Start-Process, start, call: runs a program
	WinList                // Get-ChildItem, dir: lists files (feeds a pipeline)
	WinScriptBlock         // Invoke-Command, Start-Job: runs a script block
	WinEnvDump             // Get-ChildItem env:, set alone: the environment
	WinChdir               // Set-Location, cd
)

// WinCommand is one cmd builtin or PowerShell cmdlet.
type WinCommand struct {
	Name    string
	Aliases []string
	Verb    WinVerb
	// PathParams are the parameters whose values are the paths it acts on
	// (besides its positional arguments); DestParam the destination of a
	// move or copy; URLParam the URL of a fetch.
	PathParams []string
	DestParam  string
	URLParam   string
}

var (
	psIndex  = map[string]*WinCommand{}
	cmdIndex = map[string]*WinCommand{}
)

func winRegister(idx map[string]*WinCommand, cs ...*WinCommand) bool {
	for _, c := range cs {
		for _, n := range append([]string{c.Name}, c.Aliases...) {
			idx[strings.ToLower(n)] = c
		}
	}
	return true
}

var pathParams = []string{"Path", "LiteralPath", "FilePath"}

// PowerShell cmdlets and their built-in aliases (Windows PowerShell 5 and
// pwsh 7: curl/wget are Invoke-WebRequest in 5).
var _ = winRegister(psIndex,
	&WinCommand{Name: "Remove-Item", Aliases: []string{"rm", "del", "ri", "rd", "erase", "rmdir"}, Verb: WinDelete, PathParams: pathParams},
	&WinCommand{Name: "Move-Item", Aliases: []string{"mv", "move", "mi"}, Verb: WinMove, PathParams: pathParams, DestParam: "Destination"},
	&WinCommand{Name: "Copy-Item", Aliases: []string{"cp", "copy", "cpi"}, Verb: WinCopy, PathParams: pathParams, DestParam: "Destination"},
	&WinCommand{Name: "Get-Content", Aliases: []string{"gc", "cat", "type"}, Verb: WinRead, PathParams: pathParams},
	&WinCommand{Name: "Import-Csv", Aliases: []string{"ipcsv", "Select-String", "sls", "Format-Hex", "fhx", "Get-FileHash"}, Verb: WinRead, PathParams: pathParams},
	&WinCommand{Name: "Set-Content", Aliases: []string{"sc", "Out-File", "New-Item", "ni", "Clear-Content", "clc"}, Verb: WinWrite, PathParams: pathParams},
	&WinCommand{Name: "Add-Content", Aliases: []string{"ac"}, Verb: WinAppend, PathParams: pathParams},
	&WinCommand{Name: "Invoke-WebRequest", Aliases: []string{"iwr", "curl", "wget", "Invoke-RestMethod", "irm", "Start-BitsTransfer"},
		Verb: WinFetch, URLParam: "Uri"},
	&WinCommand{Name: "Invoke-Expression", Aliases: []string{"iex"}, Verb: WinEval},
	&WinCommand{Name: "Start-Process", Aliases: []string{"saps", "start"}, Verb: WinStart, PathParams: []string{"FilePath"}},
	&WinCommand{Name: "Invoke-Command", Aliases: []string{"icm", "Start-Job", "sajb"}, Verb: WinScriptBlock},
	&WinCommand{Name: "Get-ChildItem", Aliases: []string{"gci", "ls", "dir"}, Verb: WinList, PathParams: pathParams},
	&WinCommand{Name: "Set-Location", Aliases: []string{"cd", "sl", "chdir", "Push-Location", "pushd"}, Verb: WinChdir, PathParams: pathParams},
)

// cmd.exe builtins (and the copiers it ships with).
var _ = winRegister(cmdIndex,
	&WinCommand{Name: "rd", Aliases: []string{"rmdir"}, Verb: WinDelete},
	&WinCommand{Name: "del", Aliases: []string{"erase"}, Verb: WinDelete},
	&WinCommand{Name: "move", Aliases: []string{"ren", "rename"}, Verb: WinMove},
	&WinCommand{Name: "copy", Aliases: []string{"xcopy", "robocopy"}, Verb: WinCopy},
	&WinCommand{Name: "type", Aliases: []string{"more"}, Verb: WinRead},
	&WinCommand{Name: "start", Aliases: []string{"call"}, Verb: WinStart},
	&WinCommand{Name: "dir", Verb: WinList},
	&WinCommand{Name: "set", Verb: WinEnvDump},
	&WinCommand{Name: "cd", Aliases: []string{"chdir", "pushd", "popd"}, Verb: WinChdir},
)

// PSCommand returns the cmdlet or alias name (any case), or nil.
func PSCommand(name string) *WinCommand { return psIndex[strings.ToLower(name)] }

// CmdBuiltin returns the cmd.exe builtin name (any case), or nil.
func CmdBuiltin(name string) *WinCommand { return cmdIndex[strings.ToLower(name)] }

// WinName is a Windows program name as the tables know it: lower case,
// without a directory or an .exe/.com/.cmd/.bat suffix
// (C:\Windows\System32\VSSADMIN.EXE is vssadmin).
func WinName(w string) string {
	if k := strings.LastIndexAny(w, `\/`); k >= 0 {
		w = w[k+1:]
	}
	w = strings.ToLower(w)
	for _, s := range []string{".exe", ".com", ".cmd", ".bat"} {
		w = strings.TrimSuffix(w, s)
	}
	return w
}

// PSParam reads a PowerShell parameter word: "-Recurse", "-Path:x",
// "-Recurse:$false". name is without the dash; PowerShell accepts any
// unambiguous prefix, so callers match with PSParamIs.
func PSParam(w string) (name, val string, hasVal, ok bool) {
	if len(w) < 2 || w[0] != '-' && w[0] != '/' || w[1] == '-' {
		return "", "", false, false
	}
	if c := w[1]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return "", "", false, false // -1, a negative number
	}
	name, val, hasVal = strings.Cut(w[1:], ":")
	return name, val, hasVal, true
}

// PSParamIs reports whether a written parameter name is full or a prefix
// of it at least min letters long (-r, -rec, -Recurse), any case.
func PSParamIs(written, full string, min int) bool {
	w, f := strings.ToLower(written), strings.ToLower(full)
	return len(w) >= min && strings.HasPrefix(f, w)
}

// PowerShell's own options (powershell.exe / pwsh): which take a value.
// Matched by unambiguous prefix like its cmdlets' parameters.
var psShellValued = []struct {
	name string
	min  int
}{{"ExecutionPolicy", 2}, {"WindowStyle", 1}, {"Version", 1}, {"InputFormat", 2}, {"OutputFormat", 1},
	{"ConfigurationName", 4}, {"CustomPipeName", 2}, {"WorkingDirectory", 2}, {"SettingsFile", 2}, {"PSConsoleFile", 3}}

// PSShellArg classifies one argument of powershell/pwsh before its code:
// "command" (-Command, -c), "encoded" (-EncodedCommand, -enc, -e, -ec),
// "file" (-File, -f), "value" (an option that takes the next word),
// "flag" (-NoProfile, -NonInteractive, ...), or "" (not an option: the
// code itself starts here).
func PSShellArg(w string) string {
	name, _, hasVal, ok := PSParam(w)
	if !ok {
		return ""
	}
	switch {
	case PSParamIs(name, "Command", 1):
		return "command"
	case strings.EqualFold(name, "ec") || PSParamIs(name, "EncodedCommand", 1) && !PSParamIs(name, "ExecutionPolicy", 2) && !strings.EqualFold(name, "ex"):
		return "encoded"
	case PSParamIs(name, "File", 1):
		return "file"
	}
	if strings.EqualFold(name, "ep") || strings.EqualFold(name, "wd") {
		return "value" // aliases of -ExecutionPolicy and -WorkingDirectory
	}
	for _, v := range psShellValued {
		if PSParamIs(name, v.name, v.min) {
			if hasVal {
				return "flag"
			}
			return "value"
		}
	}
	return "flag"
}

// WinRecoveryDestroyed reports a Windows command that deletes the
// machine's own way back: shadow copies (vssadmin delete shadows, vssadmin
// resize shadowstorage to a minimum, wmic shadowcopy delete), backups
// (wbadmin delete ...), boot recovery (bcdedit /set ... recoveryenabled
// no, bootstatuspolicy ignoreallfailures, bcdedit /delete), restore points
// (Disable-ComputerRestore). args are the words after the name.
func WinRecoveryDestroyed(name string, args []string) bool {
	l := lowerAll(args)
	switch WinName(name) {
	case "vssadmin":
		return sub(l, "delete", "shadows") || sub(l, "resize", "shadowstorage")
	case "wmic":
		return hasSeq(l, "shadowcopy", "delete")
	case "wbadmin":
		return len(l) > 0 && l[0] == "delete"
	case "bcdedit":
		return has(l, "recoveryenabled") && has(l, "no", "off", "false") ||
			has(l, "bootstatuspolicy") && has(l, "ignoreallfailures") || has(l, "/delete", "-delete", "/deletevalue")
	case "disable-computerrestore":
		return true
	}
	return false
}

// WinDefenceOff reports a Windows command that switches protection off:
// Defender (Set-MpPreference -Disable*, Add-MpPreference -Exclusion*,
// Uninstall-WindowsFeature Windows-Defender), the firewall (netsh
// advfirewall set ... state off, netsh firewall set opmode disable,
// Set-NetFirewallProfile -Enabled False), or the services behind them
// (sc stop/config WinDefend, Stop-Service WinDefend/mpssvc), or clears the
// event logs (wevtutil cl, Clear-EventLog).
func WinDefenceOff(name string, args []string) bool {
	l := lowerAll(args)
	switch WinName(name) {
	case "set-mppreference":
		for _, a := range l {
			if n, _, _, ok := PSParam(a); ok && (strings.HasPrefix(n, "disable") || strings.HasPrefix(n, "exclusion")) {
				return true
			}
		}
	case "add-mppreference":
		return anyPrefix(l, "-exclusion")
	case "netsh":
		return has(l, "off", "disable") && (has(l, "advfirewall") || has(l, "firewall"))
	case "set-netfirewallprofile":
		return anyPrefix(l, "-enabled") && has(l, "false", "0", "$false", "-enabled:$false", "-enabled:false")
	case "sc", "sc.exe", "stop-service", "set-service", "spsv":
		return has(l, "windefend", "mpssvc", "wscsvc", "sense", "wdnissvc") && (has(l, "stop", "config", "delete") || WinName(name) != "sc")
	case "uninstall-windowsfeature", "remove-windowsfeature":
		return has(l, "windows-defender")
	case "wevtutil":
		return len(l) > 0 && (l[0] == "cl" || l[0] == "clear-log")
	case "clear-eventlog", "remove-eventlog":
		return true
	}
	return false
}

// WinDiskWiped reports formatting or wiping a disk from Windows: format
// X:, Format-Volume, Clear-Disk, Initialize-Disk, Remove-Partition,
// diskpart (it reads clean/format from a script), cipher /w.
func WinDiskWiped(name string, args []string) bool {
	switch WinName(name) {
	case "format":
		for _, a := range args {
			if len(a) == 2 && (a[1] == ':' || a[0] == '/' && a[1] >= 'a' && a[1] <= 'z') { // D: or /d (Git Bash)
				return true
			}
		}
	case "format-volume", "clear-disk", "initialize-disk", "remove-partition", "diskpart":
		return true
	}
	return false
}

func lowerAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.ToLower(a)
	}
	return out
}

// hasSeq reports a then b somewhere in order, adjacent.
func hasSeq(args []string, a, b string) bool {
	for i := 0; i+1 < len(args); i++ {
		if args[i] == a && args[i+1] == b {
			return true
		}
	}
	return false
}

// Windows programs that fetch files (certutil -urlcache, bitsadmin
// /transfer): downloaders like curl -o, so a file they write and then run
// is code from the network.
var _ = register(
	&Program{Name: "certutil", Kind: Downloader | NetSender, Outputs: certutilOutputs},
	&Program{Name: "bitsadmin", Kind: Downloader | NetSender, Outputs: lastOperandOf("/transfer", "/addfile")},
)

// certutil -urlcache [-split] [-f] URL [FILE]: FILE, else the URL's name.
func certutilOutputs(args []string) []string {
	l := lowerAll(args)
	if !has(l, "-urlcache", "/urlcache") && !has(l, "-verifyctl", "/verifyctl") {
		return nil
	}
	var ops []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "/") || strings.Count(a, "/") > 1 && !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	switch {
	case len(ops) >= 2:
		return ops[len(ops)-1:]
	case len(ops) == 1 && strings.Contains(ops[0], "://"):
		u := strings.TrimRight(ops[0], "/")
		return []string{u[strings.LastIndexByte(u, '/')+1:]}
	}
	return nil
}

// lastOperandOf: the last argument, when one of the given verbs is there.
func lastOperandOf(verbs ...string) func([]string) []string {
	return func(args []string) []string {
		if len(args) > 1 && has(lowerAll(args), verbs...) {
			return args[len(args)-1:]
		}
		return nil
	}
}

// WinRemoteScript reports a Windows script host handed code by URL:
// mshta URL, regsvr32 /i:URL scrobj.dll, rundll32 javascript:/url.dll,
// msiexec /i URL, wmic ... /format:URL.
func WinRemoteScript(name string, args []string) bool {
	url := func(s string) bool {
		s = strings.ToLower(s)
		return strings.Contains(s, "http://") || strings.Contains(s, "https://") || strings.HasPrefix(s, `\\`)
	}
	for _, a := range args {
		l := strings.ToLower(a)
		switch WinName(name) {
		case "mshta":
			if url(a) || strings.HasPrefix(l, "javascript:") || strings.HasPrefix(l, "vbscript:") {
				return true
			}
		case "regsvr32":
			if strings.HasPrefix(l, "/i:") && url(a) || strings.HasPrefix(l, "-i:") && url(a) {
				return true
			}
		case "rundll32":
			if strings.Contains(l, "javascript:") || url(a) {
				return true
			}
		case "msiexec":
			if url(a) {
				return true
			}
		case "wmic":
			if strings.HasPrefix(l, "/format:") && url(a) {
				return true
			}
		}
	}
	return false
}
