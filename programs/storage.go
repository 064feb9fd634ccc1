package programs

import "strings"

// Storage: the volume managers, pool and subvolume tools and disk
// encryption that can destroy a whole file system with one verb (blind
// attack class 4: lvremove, zpool destroy, btrfs subvolume delete,
// cryptsetup luksErase), and the programs that mount a file system over a
// directory, hiding what it held (MountsOn). What that does to the machine
// is judged in judge (DISK-FORMAT, MOUNT-OVER-ROOT); which verbs do it is
// written here.

var sshfsSpec = S("op", "port")

var _ = register(
	// LVM: removing a volume, group or physical volume's label loses
	// what it held; lvm VERB is the same tool.
	&Program{Name: "lvremove", Names: []string{"vgremove", "pvremove"}, Kind: Storage, Destroys: notTest},
	&Program{Name: "lvreduce", Kind: Storage, Destroys: notTest},
	&Program{Name: "lvm", Kind: Storage, Destroys: func(a []string) bool {
		p := Operands(a)
		return len(p) > 0 && has(p[:1], "lvremove", "vgremove", "pvremove", "lvreduce") && notTest(a)
	}},
	&Program{Name: "zpool", Kind: Storage, Destroys: func(a []string) bool {
		p := Operands(a)
		return len(p) > 0 && has(p[:1], "destroy", "labelclear")
	}},
	// zfs destroy (and rollback, which destroys what came after the
	// snapshot); -n is a dry run
	&Program{Name: "zfs", Kind: Storage, Destroys: func(a []string) bool {
		p := Operands(a)
		return len(p) > 0 && has(p[:1], "destroy", "rollback") && !HasShortFlag(a, 'n')
	}},
	&Program{Name: "btrfs", Kind: Storage, Destroys: btrfsDestroys},
	// cryptsetup luksErase/erase wipes every key slot (the data is
	// unreadable for good), luksFormat and luksKillSlot likewise
	&Program{Name: "cryptsetup", Kind: Storage, Destroys: func(a []string) bool {
		// the first operand is the action
		p := Operands(a)
		if len(p) == 0 {
			return false
		}
		switch strings.ToLower(p[0]) {
		case "erase", "lukserase", "luksformat", "lukskillslot", "luksremovekey":
			return true
		}
		return false
	}},
	&Program{Name: "mdadm", Kind: Storage, Destroys: func(a []string) bool { return has(a, "--zero-superblock") }},
	// partition editors read their commands from stdin (printf 'o\nw\n' |
	// fdisk /dev/sdb); only listing them changes nothing
	&Program{Name: "fdisk", Names: []string{"gdisk", "cfdisk"}, Kind: Storage, Destroys: func(a []string) bool {
		return len(Operands(a)) > 0 && !has(a, "-l", "--list", "-h", "--help", "-V", "--version", "-s", "--getsz", "-x", "--list-details")
	}},
	// makers of file systems and low-level formatters outside the mkfs.*
	// family (which disk.go knows by its prefix): they destroy what the
	// device held
	&Program{Name: "mkntfs", Names: []string{"mkdosfs", "mkexfatfs", "mkudffs", "newfs", "newfs_msdos", "newfs_apfs", "newfs_hfs", "mformat", "sg_format", "sg_sanitize"},
		Kind: Storage, Destroys: func(a []string) bool { return !has(a, "--help", "-h", "-V", "--version") }},
	&Program{Name: "nvme", Kind: Storage, Destroys: func(a []string) bool {
		p := Operands(a)
		return len(p) > 0 && has(p[:1], "format", "sanitize")
	}},
	&Program{Name: "hdparm", Kind: Storage | NonReader, Destroys: func(a []string) bool {
		return has(a, "--security-erase", "--security-erase-enhanced", "--trim-sector-ranges")
	}},
	// file systems mounted over a directory: mount [-t T] SRC DIR, sshfs
	// HOST:P DIR, bindfs SRC DIR, rclone mount REMOTE: DIR
	&Program{Name: "sshfs", Names: []string{"squashfuse", "fuse-overlayfs", "encfs", "gocryptfs", "s3fs", "goofys"}, Kind: NonReader,
		Opts: sshfsSpec, MountsOn: lastOfTwo(sshfsSpec)},
)

// notTest: LVM's -t/--test changes nothing.
func notTest(a []string) bool { return !has(a, "--test") && !HasShortFlag(a, 't') }

// btrfsDestroys: btrfs subvolume delete (btrfs takes any unambiguous
// prefix of its verbs: btrfs sub del), btrfs device/filesystem... are not.
func btrfsDestroys(a []string) bool {
	p := Operands(a)
	return len(p) >= 2 && prefixOf(p[0], "subvolume", 3) && prefixOf(p[1], "delete", 1)
}

// prefixOf reports v as an abbreviation of word at least n letters long.
func prefixOf(v, word string, n int) bool {
	return len(v) >= n && strings.HasPrefix(word, v)
}

// lastOfTwo: SOURCE DIR, the directory is the second operand.
func lastOfTwo(s Spec) func([]string) string {
	return func(a []string) string {
		if p := Parse(a, s).Pos; len(p) == 2 {
			return p[1]
		}
		return ""
	}
}

// mountOn is the directory mount ARGS mounts over: mount [opts] SRC DIR
// (one operand reads /etc/fstab: its entry says where). A remount
// changes the options of what is already there and hides nothing.
func mountOn(a []string) string {
	o := Parse(a, mountSpec)
	for _, f := range strings.Split(o.Value('o', "options"), ",") {
		if f == "remount" {
			return ""
		}
	}
	if len(o.Pos) == 2 && !o.Has(0, "move", "make-private", "make-shared", "make-slave") {
		return o.Pos[1]
	}
	return ""
}

// rcloneMountOn: rclone mount REMOTE:PATH DIR (also nfsmount).
func rcloneMountOn(a []string) string {
	p := Operands(a)
	if len(p) == 3 && (p[0] == "mount" || p[0] == "nfsmount") {
		return p[2]
	}
	return ""
}
