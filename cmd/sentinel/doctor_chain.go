package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sentinel-guard/sentinel/internal/safefile"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
)

// doctorCheckpointFile, beside the register, records how far doctor last
// found the chain intact, and the breaches known then, so that the next
// doctor reads only what was appended since: a health check stays well
// under a second at any size. It is a cache, not evidence: the agent can
// rewrite it as it can the register; `sentinel verify` checks everything,
// against the seals.
const doctorCheckpointFile = "doctor.checkpoint"

type doctorCheckpoint struct {
	RegisterID string           `json:"register_id"`
	Seq        int64            `json:"seq"`
	Hash       string           `json:"hash"`
	Full       time.Time        `json:"full_verify"` // when the whole chain was last walked
	Breaches   []outcome.Breach `json:"breaches"`
}

func readDoctorCheckpoint(dir, id string) *doctorCheckpoint {
	// Bounded and non-blocking: the agent can plant a FIFO there.
	b, err := safefile.ReadFile(filepath.Join(dir, doctorCheckpointFile), 1<<20)
	if err != nil {
		return nil
	}
	var cp doctorCheckpoint
	if json.Unmarshal(b, &cp) != nil || cp.RegisterID != id || cp.Seq < 1 || len(cp.Hash) != 64 {
		return nil
	}
	return &cp
}

func writeDoctorCheckpoint(dir string, cp *doctorCheckpoint) {
	b, _ := json.Marshal(cp)
	// A fresh temporary file, never a fixed name a FIFO could hold.
	f, err := os.CreateTemp(dir, "."+doctorCheckpointFile+"-*")
	if err != nil {
		return
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil && cerr == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, doctorCheckpointFile))
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// checkChain verifies the register's chain, only past the checkpoint when
// there is one, and looks for breaches among the outcomes and denies
// appended since (through the tool_use_id index).
// chainProgress, when set (by the doctor command), draws the walk.
var chainProgress func(*register.Register) func()

func checkChain(rep *doctorReport, reg *register.Register, path string) {
	if chainProgress != nil {
		defer chainProgress(reg)()
	}
	cp := readDoctorCheckpoint(reg.Dir(), reg.ID())
	var vr register.Report
	var what string
	if cp != nil {
		vr = reg.VerifyAfter(cp.Seq, cp.Hash)
		what = fmt.Sprintf("entries %d..%d verified now, 1..%d by an earlier doctor (whole chain walked %s; sentinel verify checks it all against the seals)",
			cp.Seq+1, vr.Entries, cp.Seq, cp.Full.Local().Format("2006-01-02 15:04"))
		if vr.Entries == cp.Seq {
			what = fmt.Sprintf("nothing appended since an earlier doctor verified 1..%d (whole chain walked %s; sentinel verify checks it all against the seals)",
				cp.Seq, cp.Full.Local().Format("2006-01-02 15:04"))
		}
	} else {
		vr = reg.Verify()
		cp = &doctorCheckpoint{RegisterID: reg.ID(), Full: time.Now().UTC(), Breaches: []outcome.Breach{}}
		what = "the whole chain walked; the next doctor verifies only what is appended"
	}
	if !vr.OK() {
		os.Remove(filepath.Join(reg.Dir(), doctorCheckpointFile))
		rep.add("register verify", doctorFail, vr.String(), "run: sentinel verify, and keep the file as evidence; start a new register with SENTINEL_HOME elsewhere")
		return
	}
	rep.add("register verify", doctorOK, fmt.Sprintf("%s: %d entries, chain intact (%s)", path, vr.Entries, what), "")
	brs := cp.Breaches
	err := reg.DeniesThatRan(cp.Seq, func(d, o *register.Entry) error {
		brs = append(brs, outcome.Breach{Seq: d.Seq, Time: d.Time, Tool: d.Tool, ToolUseID: d.ToolUseID, Rules: d.Rules, OutcomeSeq: o.Seq})
		return nil
	})
	if err != nil {
		rep.add("breaches", doctorWarn, "could not join decisions to outcomes: "+err.Error(), "run: sentinel outcomes")
		return
	}
	if vr.Entries > 0 && !reg.ReadOnly() {
		cp.Seq, cp.Hash, cp.Breaches = vr.Entries, vr.Head, brs
		writeDoctorCheckpoint(reg.Dir(), cp)
	}
	if len(brs) > 0 {
		rep.add("breaches", doctorFail, breachMessage(brs), "the harness ran calls the sentinel denied: see sentinel outcomes; check other hooks and the Claude Code version")
	} else {
		rep.add("breaches", doctorOK, "no denied call ran (denies joined to PostToolUse outcome entries by tool_use_id)", "")
	}
}
