package judge

import (
	"strings"

	"github.com/sentinel-guard/sentinel/parse"
	"github.com/sentinel-guard/sentinel/programs"
)

// Rules of this file: their text, examples and matching code are one unit.
const (
	RuleDiskDeviceWrite = "DISK-DEVICE-WRITE"
	RuleDiskFormat      = "DISK-FORMAT"
	RuleShred           = "SHRED"
)

var _ = rules(
	Rule{ID: RuleDiskDeviceWrite, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "writing directly to a block device destroys the file system on it",
		Alternative: "write to a file, not a device",
		Matches:     "`dd of=/dev/sd*…`, redirect/tee/cp onto a block device",
		Fire:        []string{"dd if=/dev/zero of=/dev/sda", "cat image.bin > /dev/sda"},
		Pass:        []string{"dd if=/dev/zero of=disk.img bs=1M count=10", "echo x > /dev/null"}},
	Rule{ID: RuleDiskFormat, Class: ClassDestroyFiles, Severity: SevCritical, Decision: Deny, Catastrophic: true,
		Reason:      "formatting or wiping a file system",
		Alternative: "leave disk management to the operator",
		Matches:     "`mkfs*`, `mke2fs`, `mkswap`, `wipefs`, `blkdiscard`, `sfdisk`, `sgdisk -Z`, `parted mklabel/rm`, `diskutil erase*`; the storage tools' destroying verbs (programs/storage.go): `lvremove`/`vgremove`/`pvremove`/`lvreduce` (not `--test`), `zpool destroy/labelclear`, `zfs destroy/rollback` (not `-n`), `btrfs subvolume delete` (and its abbreviations), `cryptsetup erase/luksErase/luksFormat/luksKillSlot/luksRemoveKey`, `mdadm --zero-superblock`, `nvme format/sanitize`, `hdparm --security-erase`, `mkntfs`, `mkdosfs`, `mkexfatfs`, `newfs*`, `mformat`, `sg_format`, `fdisk`/`gdisk`/`cfdisk DEVICE` (they take their commands from stdin; not `-l`)",
		Fire:        []string{"mkfs.ext4 /dev/sdb1", "wipefs -a /dev/sda", "lvremove -f vg0/root", "zpool destroy -f tank", "btrfs sub del /home", "cryptsetup luksErase /dev/sda2"},
		Pass:        []string{"lsblk", "df -h", "lvs", "zpool status tank", "btrfs subvolume list /", "cryptsetup status root", "zfs destroy -n tank/x"}},
	Rule{ID: RuleShred, Class: ClassDestroyFiles, Severity: SevHigh, Decision: Deny, Catastrophic: false,
		Reason:      "shred overwrites files so they can never be recovered",
		Alternative: "`rm` the file inside the project if it must go",
		Matches:     "`shred`, `srm`, `wipe`",
		Fire:        []string{"shred -u secrets.txt"},
		Pass:        []string{"rm secrets.txt"}},
)

// disk judges formatting, device writes and shredding; it reports whether
// the execution was one of those programs.
func (j *judge) disk(e *parse.Exec, args []string, detail string) bool {
	name := e.Name
	switch {
	case strings.HasPrefix(name, "mkfs") || name == "mke2fs" || name == "mkswap" || name == "wipefs" ||
		name == "blkdiscard" || name == "sfdisk":
		j.add(RuleDiskFormat, detail)
	case name == "parted":
		if containsAny(args, "mklabel", "mktable", "rm") {
			j.add(RuleDiskFormat, detail)
		}
	case name == "sgdisk":
		o := parseOpts(args, "")
		if o.Has('Z', "zap-all") || o.Has('o', "clear") {
			j.add(RuleDiskFormat, detail)
		}
	case name == "diskutil":
		if len(args) > 0 {
			s := strings.ToLower(args[0])
			if strings.HasPrefix(s, "erase") || s == "zerodisk" || s == "randomdisk" ||
				s == "partitiondisk" || s == "secureerase" || s == "reformat" {
				j.add(RuleDiskFormat, detail)
			}
		}
	case name == "shred" || name == "srm" || name == "wipe":
		j.add(RuleShred, detail)
		j.writesTo(e, programs.Lookup(name).Parse(args).Pos, kindDelete, detail)
	case name == "dd":
		// dd of=/dev/sda: the device rules are the write's (writeAbs)
		for _, a := range args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				if p, ok := j.resolve(v, e.Dir); ok {
					j.writeAbs(p, ddKind(args), detail)
				}
			}
		}
	default:
		return false
	}
	return true
}
