package seal

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"io"
	"iter"
	"strings"

	"github.com/sentinel-guard/sentinel/register"
)

// Finding is a non-fatal observation: it is reported, it does not make
// verification fail (the chain and seals decide that). Other checks (such
// as breach findings) append their own kinds.
type Finding struct {
	Kind    string `json:"kind"`
	Seq     int64  `json:"seq,omitempty"`
	Message string `json:"message"`
}

// Report is the result of verifying a register or a bundle. Its JSON form
// is what `sentinel verify --json` prints (see docs/sealing.md).
type Report struct {
	Source     string `json:"source"` // "register" or "bundle"
	Path       string `json:"path"`
	RegisterID string `json:"register_id"`
	// OperatorKey is the fingerprint of the operator key seals were checked
	// against; RekorLogID the pinned Rekor key's log id.
	// OperatorKeyFrom says where that key came from: "pinned"
	// (--operator-key), "bundle" (the bundle's own key: compare its
	// fingerprint with the one the operator published), "local" (beside the
	// signing key) or "" when there was none.
	OperatorKey     string `json:"operator_key"`
	OperatorKeyFrom string `json:"operator_key_from"`
	// OperatorPinned: the key was pinned by the reader (--operator-key or
	// --operator-fingerprint), not taken from what was verified.
	OperatorPinned bool   `json:"operator_pinned"`
	RekorLogID     string `json:"rekor_log_id"`

	Entries      int64             `json:"entries"`             // entries read
	ChainOK      bool              `json:"chain_ok"`            // the hash chain holds
	ChainHead    string            `json:"chain_head"`          // hash of the last good entry
	ChainProblem *register.Problem `json:"chain_problem"`       // the first place it does not
	Disclosed    *int64            `json:"disclosed,omitempty"` // bundle: entries with their input
	Withheld     *int64            `json:"withheld,omitempty"`  // bundle: entries shown as hashes only

	Seals    []SealResult `json:"seals"`
	Pending  int          `json:"pending"`  // seals signed but not in Rekor yet
	Sealed   uint64       `json:"sealed"`   // entries 1..Sealed are covered by verified seals
	Unsealed uint64       `json:"unsealed"` // entries after that: present, not sealed
	// Journaled counts entries merged from the fallback journal (a local
	// register only): any process of the operator's user can write that
	// file, so such an entry proves only that a journal line said so.
	Journaled int64 `json:"journaled"`

	Artifacts []ArtifactResult `json:"artifacts"` // protocol and census seals
	// Rotations are the key changes followed from the first key.
	Rotations []RotationResult `json:"rotations,omitempty"`
	// Keys are the register's operator keys in order, when it rotated.
	Keys string `json:"keys,omitempty"`
	// ChainKeys are the same keys (the pinned one alone when it never
	// rotated): every one of them is monitored online, since an old key
	// can still sign what a register no longer holds.
	ChainKeys []*ecdsa.PublicKey `json:"-"`

	Online   *OnlineResult `json:"online,omitempty"`
	Findings []Finding     `json:"findings"`

	// AllowUnsealed: the caller accepted entries no seal covers
	// (--allow-unsealed); without it they fail the verification.
	AllowUnsealed bool `json:"allow_unsealed"`
	// Proved says in one sentence what this result proves.
	Proved string `json:"proved"`

	OK      bool   `json:"ok"`
	Failure string `json:"failure,omitempty"` // the first failure, precise
}

// OnlineResult is what --online found in the live log.
type OnlineResult struct {
	URL      string `json:"url"`
	TreeSize int64  `json:"tree_size"`
	Checked  int    `json:"checked"` // seals fetched and proven consistent
	// Monitor is what the log's search index holds for the operator keys.
	Monitor *MonitorResult `json:"monitor,omitempty"`
	// Previous is the checkpoint verified on an earlier run that the live
	// tree was proven consistent with (nil: none kept yet, or no state).
	Previous *KeptCheckpoint `json:"previous_checkpoint,omitempty"`
	// RestsOnIndex says what rests on the log's unsigned search index ("":
	// the log was walked, nothing does).
	RestsOnIndex string `json:"rests_on_index,omitempty"`
	Error        string `json:"error,omitempty"`
}

// VerifyOptions are the pins a verification trusts.
type VerifyOptions struct {
	Operator     *ecdsa.PublicKey // the operator key; nil: fails when there are seals
	OperatorFrom string           // pinned, bundle, local (reported)
	// Pinned: Operator (or Fingerprint) came from the reader, not from the
	// register or bundle being verified.
	Pinned bool
	// Fingerprint, when set, pins the operator key by its fingerprint
	// (SHA256:<hex>): the key the bundle carries must have it.
	Fingerprint string
	Rekor       *RekorKey // the pinned Rekor key
	// AllowUnsealed accepts entries no verified seal covers (reported as
	// unsealed); without it they fail the verification: a hash chain alone
	// is trivial to fabricate.
	AllowUnsealed bool
	// Rotations are the register's key rotation statements in order;
	// ChainStart its first key (default Operator). The operator key (or
	// Fingerprint) pinned must be one of the keys the verified rotations
	// lead to from ChainStart.
	Rotations  []*Record
	ChainStart *ecdsa.PublicKey
}

// EntryStream yields entries in order; io.EOF (or a nil entry) at the end.
type EntryStream func() (*register.Entry, error)

// VerifyStream verifies a chain and its seals in one pass over the entries:
// the hash chain (register.VerifyChain), then each seal against the root and
// head recomputed from the same entries. recs are the register's seals in
// order. The caller fills Source, Path and any extra checks.
func VerifyStream(ctx context.Context, registerID string, next EntryStream, recs []*Record, o VerifyOptions) *Report {
	rep := &Report{RegisterID: registerID, Findings: []Finding{}, Seals: []SealResult{}, Artifacts: []ArtifactResult{}}
	if o.Rekor != nil {
		rep.RekorLogID = o.Rekor.LogID
	}
	op := o.Operator
	if op != nil {
		rep.OperatorKey, rep.OperatorKeyFrom = Fingerprint(op), o.OperatorFrom
	}
	rep.OperatorPinned = o.Pinned
	rep.AllowUnsealed = o.AllowUnsealed
	kc, keyFailure := o.keyChain(ctx, registerID, recs)
	if op == nil && kc != nil && o.Fingerprint != "" {
		if op = kc.byFingerprint(o.Fingerprint); op != nil {
			rep.OperatorKey, rep.OperatorKeyFrom = Fingerprint(op), o.OperatorFrom
		}
	}
	if kc != nil {
		rep.ChainKeys = kc.Keys()
		rep.Rotations = kc.Results
		if kc.Rotated() {
			rep.Keys = kc.Describe()
		}
	}
	var sc *SealChecker
	if len(recs) > 0 && op != nil {
		sc = NewSealCheckerChain(ctx, registerID, recs, kc, o.Rekor)
	}
	var feedErr error
	chain := walkChain(func() (*register.Entry, error) {
		e, err := next()
		if err != nil || e == nil {
			return e, err
		}
		rep.Entries++
		if sc != nil && feedErr == nil {
			// A broken sequence is the chain's finding; stop feeding.
			feedErr = sc.Add(uint64(e.Seq), e.Hash)
		}
		return e, nil
	})
	rep.ChainOK, rep.ChainHead, rep.ChainProblem = chain.OK(), chain.Head, chain.Problem
	if chain.OK() {
		rep.Entries = chain.Entries
	}
	total := uint64(chain.Entries)
	if sc != nil {
		if chain.OK() {
			sc.Finish()
		}
		rep.Seals = sc.Results
		rep.Sealed = sc.SealedThrough()
	} else {
		for _, r := range recs {
			rep.Seals = append(rep.Seals, SealResult{ID: r.ID, Size: r.Size, Status: r.Status, RekorUUID: r.RekorUUID,
				Error: "not checked: no operator public key"})
		}
	}
	for _, r := range recs {
		if r.Status == StatusPending {
			rep.Pending++
		}
	}
	if rep.Sealed <= total {
		rep.Unsealed = total - rep.Sealed
	}
	switch {
	case !chain.OK():
		rep.Failure = chain.Problem.Msg
	case keyFailure != "":
		rep.Failure = keyFailure
	case sc == nil && len(recs) > 0:
		rep.Failure = "cannot check the seals without the operator's public key"
	case sc != nil && sc.FirstError() != "":
		rep.Failure = sc.FirstError()
	}
	rep.OK = rep.Failure == ""
	rep.Settle()
	return rep
}

// keyChain follows the rotations from the first key and checks the pin is
// one of the keys they lead to; the failure, if any, is the second value.
func (o *VerifyOptions) keyChain(ctx context.Context, registerID string, recs []*Record) (*KeyChain, string) {
	start := o.ChainStart
	if start == nil {
		start = o.Operator
	}
	if start == nil {
		return nil, ""
	}
	kc := FollowRotations(ctx, registerID, start, o.Rotations, o.Rekor)
	switch {
	case kc.Failure != "":
		return kc, kc.Failure
	case o.Operator != nil && !kc.Has(o.Operator):
		return kc, fmt.Sprintf("the operator key %s is not one of the register's keys (%s), and no key rotation sealed in the log hands over to it: a different operator", Fingerprint(o.Operator), kc.Describe())
	case o.Fingerprint != "" && !kc.HasFingerprint(o.Fingerprint):
		return kc, fmt.Sprintf("the pinned operator fingerprint %s is not one of the register's keys (%s): a different operator", o.Fingerprint, kc.Describe())
	}
	if p := kc.checkHandovers(recs); p != "" {
		return kc, p
	}
	return kc, ""
}

// Settle applies the unsealed rule and writes Proved; call it again after
// changing the verdict (online checks, artifacts). Without AllowUnsealed,
// entries no verified seal covers fail the verification.
func (rep *Report) Settle() {
	total := rep.Sealed + rep.Unsealed
	if rep.OK && rep.Unsealed > 0 && !rep.AllowUnsealed {
		rep.OK = false
		if rep.Sealed == 0 {
			rep.Failure = fmt.Sprintf("no verified seal: none of the %d entries is sealed, and a hash chain alone is trivial to fabricate, so nothing is proved (--allow-unsealed checks the chain only)", total)
		} else {
			rep.Failure = fmt.Sprintf("entries %d..%d are not covered by any verified seal and prove nothing (--allow-unsealed accepts entries no seal covers)", rep.Sealed+1, total)
		}
	}
	switch {
	case !rep.OK:
		rep.Proved = "nothing: the verification failed"
	case rep.Sealed == 0:
		rep.Proved = "nothing about the entries' origin: the hash chain holds, but no seal covers it (accepted with --allow-unsealed)"
	default:
		rep.Proved = fmt.Sprintf("entries 1..%d are unchanged since the operator key %s sealed them in the log %s; not that they are true, nor that nothing came after the last seal", rep.Sealed, rep.OperatorKey, rep.RekorLogID)
		if rep.Keys != "" {
			rep.Proved += fmt.Sprintf(" (the register's keys, each handed over by a rotation its predecessor signed in the log: %s)", rep.Keys)
		}
		if rep.Unsealed > 0 {
			rep.Proved += fmt.Sprintf("; entries %d..%d are unsealed and prove nothing (accepted with --allow-unsealed)", rep.Sealed+1, total)
		}
		if o := rep.Online; o != nil && o.Monitor != nil {
			if o.Monitor.Walked {
				rep.Proved += fmt.Sprintf("; walking the whole log (%d entries) found %d entries for the %s, all accounted for", o.TreeSize, o.Monitor.Entries, o.Monitor.keysWord())
			} else {
				rep.Proved += fmt.Sprintf("; the log's index lists %d entries for the %s, all accounted for (this rests on the index, which the log does not sign)", o.Monitor.Entries, o.Monitor.keysWord())
			}
		}
	}
}

// WriteText prints the report for a person: each check, then the verdict.
func (rep *Report) WriteText(w io.Writer) {
	if line := rep.NotPinnedLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "%s %s (register %s)\n", rep.Source, rep.Path, rep.RegisterID)
	switch {
	case rep.OperatorKey == "":
		fmt.Fprintln(w, "operator key: none")
	case rep.OperatorKeyFrom == "bundle":
		fmt.Fprintf(w, "operator key: %s (the bundle's own: compare it with the fingerprint the operator published, or pin it with --operator-key)\n", rep.OperatorKey)
	case rep.OperatorKeyFrom != "":
		fmt.Fprintf(w, "operator key: %s (%s)\n", rep.OperatorKey, rep.OperatorKeyFrom)
	default:
		fmt.Fprintf(w, "operator key: %s\n", rep.OperatorKey)
	}
	fmt.Fprintf(w, "rekor log id: %s\n", rep.RekorLogID)
	if rep.ChainOK {
		fmt.Fprintf(w, "chain: %d entries, chain intact\n", rep.Entries)
	} else if rep.ChainProblem != nil {
		fmt.Fprintf(w, "chain: BROKEN: %s\n", rep.ChainProblem.Msg)
	} else {
		fmt.Fprintln(w, "chain: not checked")
	}
	if rep.Disclosed != nil {
		var withheld int64
		if rep.Withheld != nil {
			withheld = *rep.Withheld
		}
		fmt.Fprintf(w, "disclosed: %d of %d entries with input (commitments checked), %d with their fields only, %d withheld (hash only)\n",
			*rep.Disclosed, rep.Entries, rep.Entries-*rep.Disclosed-withheld, withheld)
	}
	var from uint64 = 1
	for _, s := range rep.Seals {
		where := ""
		if s.LogIndex != nil {
			where = fmt.Sprintf(", Rekor log index %d", *s.LogIndex)
		}
		state := "verified"
		switch {
		case s.Error != "":
			state = "FAILED: " + s.Error
		case s.Status == StatusPending:
			state = "PENDING: signed, not yet in Rekor (run sentinel seal)"
		case !s.Verified:
			state = "not checked (the chain is broken before it)"
		}
		fmt.Fprintf(w, "seal %d: entries %d..%d%s: %s\n", s.ID, from, s.Size, where, state)
		from = s.Size + 1
	}
	if o := rep.Online; o != nil {
		if o.Error == "" && o.Checked == 0 {
			fmt.Fprintln(w, "online: no sealed seals to look up")
		} else if o.Error != "" {
			fmt.Fprintf(w, "online: %s: %s\n", o.URL, o.Error)
		} else {
			fmt.Fprintf(w, "online: %s: %d seals found in the live log, consistent with its tree of %d entries\n", o.URL, o.Checked, o.TreeSize)
		}
		if p := o.Previous; p != nil && o.Error == "" {
			fmt.Fprintf(w, "online: the log's tree is consistent with the one of %d entries this machine verified on %s\n", p.Size, p.VerifiedAt)
		}
		if m := o.Monitor; m != nil && o.Error == "" {
			if m.Walked {
				fmt.Fprintf(w, "online: walking all %d entries of the log found %d signed by the operator %s, all accounted for (nothing rests on the search index)\n", o.TreeSize, m.Entries, m.keysWord())
			} else {
				fmt.Fprintf(w, "online: the log's index lists %d entries signed by the operator %s, all accounted for\n", m.Entries, m.keysWord())
			}
		}
		if o.RestsOnIndex != "" {
			fmt.Fprintf(w, "online: rests on the index: %s\n", o.RestsOnIndex)
		}
	}
	for _, r := range rep.Rotations {
		fmt.Fprintf(w, "key rotation %d: %s hands over to %s after entry %d%s\n", r.ID, r.Old, r.New, r.Size, verdict(r.IntegratedTime, r.Error))
	}
	for _, a := range rep.Artifacts {
		fmt.Fprintf(w, "artifact seal %d: %s sha256 %s%s\n", a.ID, a.Kind, a.SHA256, verdict(a.IntegratedTime, a.Error))
	}
	if rep.Journaled > 0 {
		fmt.Fprintf(w, "journaled: %d entries were merged from the fallback journal (any process of the operator's user can write it: they record what a line said, not what the hook decided)\n", rep.Journaled)
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "finding (%s): %s\n", f.Kind, f.Message)
	}
	total := rep.Sealed + rep.Unsealed
	switch {
	case !rep.ChainOK && rep.ChainProblem == nil:
	case len(rep.Seals) == 0 && rep.ChainOK:
		fmt.Fprintf(w, "%d entries, chain intact; all %d unsealed\n", rep.Entries, rep.Unsealed)
	case rep.Unsealed > 0:
		sealed := "none"
		if rep.Sealed > 0 {
			sealed = fmt.Sprintf("entries 1..%d", rep.Sealed)
		}
		tail := fmt.Sprintf("entries %d..%d", rep.Sealed+1, total)
		if rep.Unsealed == 1 {
			tail = fmt.Sprintf("entry %d", total)
		}
		fmt.Fprintf(w, "sealed: %s of %d; unsealed: %d (%s, not verified by any seal)\n",
			sealed, total, rep.Unsealed, tail)
	default:
		fmt.Fprintf(w, "sealed: all %d entries\n", rep.Sealed)
	}
	fmt.Fprintf(w, "proves: %s\n", rep.Proved)
	if rep.OK && rep.Unsealed > 0 {
		fmt.Fprintf(w, "OK with --allow-unsealed: %d unsealed entries accepted unproven\n", rep.Unsealed)
	} else if rep.OK {
		fmt.Fprintln(w, "OK")
	} else {
		fmt.Fprintf(w, "FAILED: %s\n", strings.TrimSpace(rep.Failure))
	}
}

// verdict is ", integrated T: verified" (or ": FAILED: why").
func verdict(integrated *int64, failure string) string {
	when, state := "", "verified"
	if integrated != nil {
		when = ", integrated " + unixUTC(*integrated)
	}
	if failure != "" {
		state = "FAILED: " + failure
	}
	return when + ": " + state
}

// NotPinnedLine is the first line of a report on a bundle whose operator
// key the reader did not pin, "" otherwise: anyone can make a key and seal
// an invented history in a public log, so a bundle checked against its own
// key proves only that someone sealed it.
func (rep *Report) NotPinnedLine() string {
	if rep.Source != "bundle" || rep.OperatorPinned {
		return ""
	}
	key := rep.OperatorKey
	if key == "" {
		key = "none"
	}
	return fmt.Sprintf("NOT PINNED: the operator key was not pinned (the bundle's own key is %s): pass --operator-fingerprint with the fingerprint the operator published, or --operator-key FILE", key)
}

// VerifyRegister verifies a local register and its seals in one streaming
// pass (constant memory).
func VerifyRegister(ctx context.Context, reg *register.Register, o VerifyOptions) (*Report, error) {
	recs, err := Records(reg.DB(), SubjectRegister)
	if err != nil {
		return nil, fmt.Errorf("reading seals: %w", err)
	}
	// The entries, SQLite's sequence counter and the anchor comparison come
	// from one read transaction (EachChecked): read apart, a verify racing
	// an append saw the counter ahead of the chain and cried "truncated".
	var integrity register.Integrity
	next, stop := iter.Pull2(func(yield func(*register.Entry, error) bool) {
		in, err := reg.EachChecked(func(e *register.Entry, err error) bool {
			return yield(e, err)
		})
		integrity = in
		if err != nil {
			yield(nil, err)
		}
	})
	defer stop()
	if o.Rotations, err = Records(reg.DB(), SubjectRotation); err != nil {
		return nil, fmt.Errorf("reading key rotations: %w", err)
	}
	if o.ChainStart == nil && (o.Operator != nil || o.Fingerprint != "") {
		if o.ChainStart, err = ChainStart(reg.DB()); err != nil {
			return nil, fmt.Errorf("the register's first key: %w", err)
		}
	}
	rep := VerifyStream(ctx, reg.ID(), func() (*register.Entry, error) {
		e, err, ok := next()
		if !ok {
			return nil, io.EOF
		}
		return e, err
	}, recs, o)
	stop()
	rep.Source, rep.Path = "register", reg.Path()
	arts, err := Records(reg.DB(), SubjectArtifact)
	if err != nil {
		return nil, fmt.Errorf("reading artifact seals: %w", err)
	}
	var first string
	rep.Artifacts, first = checkArtifactsOf(ctx, reg.ID(), arts, o)
	if first != "" && rep.OK {
		rep.OK, rep.Failure = false, first
	}
	rep.Journaled = integrity.Journaled
	if rep.ChainOK {
		if p := integrity.Check(rep.Entries); p != nil {
			rep.ChainOK = false
			rep.ChainProblem = p
			if rep.OK || !strings.HasPrefix(rep.Failure, "seal ") {
				rep.Failure = p.Msg
			}
			rep.OK = false
		}
	}
	rep.Settle()
	return rep, nil
}

// checkArtifactsOf checks artifact seals against the register's key chain
// (the operator key alone when it never rotated).
func checkArtifactsOf(ctx context.Context, registerID string, arts []*Record, o VerifyOptions) ([]ArtifactResult, string) {
	kc, _ := o.keyChain(ctx, registerID, nil)
	if kc == nil || kc.Failure != "" {
		return CheckArtifacts(ctx, arts, o.Operator, o.Rekor)
	}
	return CheckArtifactsChain(ctx, arts, kc, o.Rekor)
}

// CheckArtifactsOf is checkArtifactsOf for a bundle's artifact seals.
func CheckArtifactsOf(ctx context.Context, registerID string, arts []*Record, o VerifyOptions) ([]ArtifactResult, string) {
	return checkArtifactsOf(ctx, registerID, arts, o)
}
