package main

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/sentinel-guard/sentinel/bundle"
	"github.com/sentinel-guard/sentinel/outcome"
	"github.com/sentinel-guard/sentinel/register"
	"github.com/sentinel-guard/sentinel/seal"
)

// pins are the keys a reader trusts, given the same way to every command
// that reads a register or bundle (verify, protocol check, census, replay).
type pins struct {
	operatorKey, fingerprint, rekorKey, key string
}

func (p *pins) flags(f *pflag.FlagSet) {
	f.StringVar(&p.operatorKey, "operator-key", "", "pin this operator public key (PEM)")
	f.StringVar(&p.fingerprint, "operator-fingerprint", "", "pin the operator key by its fingerprint, SHA256:<hex> (as sentinel keygen prints it)")
	f.StringVar(&p.rekorKey, "rekor-key", "", "pin this Rekor public key (PEM) instead of the public-good key (env SIGSTORE_REKOR_PUBLIC_KEY)")
	if f.Lookup("key") == nil {
		f.StringVar(&p.key, "key", "", "the signing key whose .pub to use for the local register (default: sentinel keygen's)")
	}
}

// options resolves the pins. keyFrom says where the Rekor key came from.
func (p *pins) options() (seal.VerifyOptions, string, error) {
	rk, keyFrom, err := rekorKey(p.rekorKey)
	if err != nil {
		return seal.VerifyOptions{}, keyFrom, err
	}
	o := seal.VerifyOptions{Rekor: rk}
	if p.fingerprint != "" {
		if o.Fingerprint, err = seal.ParseFingerprint(p.fingerprint); err != nil {
			return o, keyFrom, fail(exitUsage, "--operator-fingerprint: %v", err)
		}
		o.Pinned, o.OperatorFrom = true, "pinned with --operator-fingerprint"
	}
	if p.operatorKey != "" {
		if o.Operator, err = seal.LoadPublicKey(p.operatorKey); err != nil {
			return o, keyFrom, fail(exitError, "operator key: %v", err)
		}
		if o.Fingerprint != "" && seal.Fingerprint(o.Operator) != o.Fingerprint {
			return o, keyFrom, fail(exitUsage, "--operator-key %s is %s, not the --operator-fingerprint %s", p.operatorKey, seal.Fingerprint(o.Operator), o.Fingerprint)
		}
		o.Pinned, o.OperatorFrom = true, "pinned with --operator-key"
	}
	return o, keyFrom, nil
}

// localOperator fills o.Operator for the local register from the public key
// beside the signing key when the reader pinned none (or only a
// fingerprint, which that key must then have). need: there are seals, so a
// missing key is an error.
func (p *pins) localOperator(o *seal.VerifyOptions, need bool) error {
	if o.Operator != nil {
		return nil
	}
	keyPath, err := sealKeyPath(p.key)
	if err != nil {
		return fail(exitError, "%v", err)
	}
	pub := seal.PublicKeyPath(keyPath)
	k, err := seal.LoadPublicKey(pub)
	switch {
	case errors.Is(err, fs.ErrNotExist) && need:
		return failCode("no_key", "the register has seals (or --online needs the operator key) but there is no operator public key at %s: pass --operator-key", pub)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fail(exitError, "operator key: %v", err)
	case o.Fingerprint != "" && seal.Fingerprint(k) != o.Fingerprint:
		// The local key may be a later key of the register (a rotation):
		// the verification resolves the pinned fingerprint along the
		// register's key chain, and fails naming a different operator.
		return nil
	}
	o.Operator = k
	if o.Fingerprint == "" {
		o.OperatorFrom = "local: " + pub
	}
	return nil
}

// verified is a register or bundle read through the one verification
// `sentinel verify` does: rep is its report; Each yields only the entries
// the verified seals cover (1..rep.Sealed), re-checking their chain and the
// sealed head as it reads, so what is read is what was verified; Artifacts
// are only the artifact seals that verified. Entries after the last
// verified seal are not read: Unsealed counts them and FirstUnsealed is
// the earliest time among them (zero when withheld or none).
type verified struct {
	Rep       *seal.Report
	Operator  *ecdsa.PublicKey // the key the seals were verified against
	Artifacts []*seal.Record
	Label     string
	Register  *register.Register // the local register read; nil for a bundle
	Unsealed  uint64
	// FirstUnsealed is the earliest time of an entry after the last
	// verified seal, known after the first pass of Each.
	FirstUnsealed time.Time
	inner         func(func(*register.Entry) error) error
	sealedHead    string
	close         func()
}

// Close releases the register.
func (v *verified) Close() {
	if v.close != nil {
		v.close()
	}
}

// errRead stops a pass early.
var errRead = errors.New("read enough")

// Each passes the verified entries in order. An entry that no longer
// matches what the verification saw (a file swapped between the passes, a
// register edited under the reader) is an error, never read.
func (v *verified) Each(fn func(register.Entry) error) error { return v.each(false, fn) }

// EachAll is Each with the entries after the last verified seal too (their
// chain re-checked as they are read), for what reports them as unsealed
// rather than counting them: census, protocol check --witness.
func (v *verified) EachAll(fn func(register.Entry) error) error { return v.each(true, fn) }

func (v *verified) each(all bool, fn func(register.Entry) error) error {
	prev, want := register.GenesisHash, int64(1)
	sealed := int64(v.Rep.Sealed)
	err := v.inner(func(e *register.Entry) error {
		if e.Seq > sealed && !all {
			if v.Unsealed > 0 && !e.Time.IsZero() && (v.FirstUnsealed.IsZero() || e.Time.Before(v.FirstUnsealed)) {
				v.FirstUnsealed = e.Time
			}
			return nil
		}
		switch {
		case e.Seq != want || e.PrevHash != prev:
			return fmt.Errorf("entry %d changed after it was verified (read again, it no longer links to entry %d)", e.Seq, want-1)
		case !seal.Withheld(e) && register.EntryHash(e) != e.Hash:
			return fmt.Errorf("entry %d changed after it was verified (its hash no longer matches its content)", e.Seq)
		case e.Input != nil && (e.Salt == nil || register.Commit(e.Salt, e.Input) != e.Commitment):
			return fmt.Errorf("entry %d: the disclosed input does not match its commitment", e.Seq)
		case e.Seq == sealed && e.Hash != v.sealedHead:
			return fmt.Errorf("entry %d changed after it was verified (it is no longer the sealed chain head)", e.Seq)
		}
		prev, want = e.Hash, want+1
		return fn(*e)
	})
	if errors.Is(err, errRead) {
		return nil
	}
	if err == nil && want <= sealed {
		return fmt.Errorf("entries %d..%d vanished after they were verified", want, sealed)
	}
	return err
}

// openVerified opens the bundle at bundlePath (or, when empty, the register
// at regPath, default the operator's) and verifies it exactly as `sentinel
// verify --allow-unsealed` does. A verification that fails, or (unless
// allowNoSeal) that leaves no entry sealed, is the returned error (exit 1,
// the first failure named): nothing of it is read. An unpinned bundle is
// not an error here; the caller reports it (notPinned).
func openVerified(ctx context.Context, cmd *cobra.Command, bundlePath, regPath string, allowNoSeal bool, o seal.VerifyOptions, p *pins, what string, asJSON bool) (*verified, error) {
	o.AllowUnsealed = true
	v := &verified{}
	var recs []*seal.Record
	if bundlePath != "" {
		b, err := bundle.Read(bundlePath)
		if err != nil {
			return nil, fail(exitError, "--bundle %s: %v", bundlePath, err)
		}
		stop := bundleProgress(cmd, b, what, asJSON)
		v.Rep = b.Verify(ctx, bundlePath, o)
		if v.Operator = o.Operator; v.Operator == nil {
			v.Operator, _ = seal.ParsePublicKey([]byte(b.OperatorKey))
		}
		stop()
		b.Progress = nil
		v.Label = "bundle " + bundlePath
		recs = b.Records()
		v.inner = b.Each
		v.Artifacts = verifiedArtifacts(v.Rep, b.ArtifactRecords())
	} else {
		var reg *register.Register
		var err error
		if regPath == "" {
			reg, err = protoOpenRegister(true)
		} else if reg, err = register.OpenReadOnly(regPath); err != nil {
			err = registerError(regPath, err)
		}
		if err != nil {
			return nil, err
		}
		v.Register = reg
		v.close = func() { reg.Close() }
		if recs, err = seal.Records(reg.DB(), seal.SubjectRegister); err != nil {
			v.Close()
			return nil, fail(exitError, "reading the seals: %v", err)
		}
		if err := p.localOperator(&o, len(recs) > 0); err != nil {
			v.Close()
			return nil, err
		}
		v.Operator = o.Operator
		stop := registerProgress(cmd, reg, what, asJSON, false)
		v.Rep, err = seal.VerifyRegister(ctx, reg, o)
		stop()
		reg.SetProgress(nil)
		if err != nil {
			v.Close()
			return nil, fail(exitError, "%v", err)
		}
		v.Label = reg.Path()
		each := outcome.Entries(reg)
		v.inner = func(fn func(*register.Entry) error) error {
			return each(func(e register.Entry) error { return fn(&e) })
		}
		arts, err := seal.Records(reg.DB(), seal.SubjectArtifact)
		if err != nil {
			v.Close()
			return nil, fail(exitError, "reading the seals: %v", err)
		}
		v.Artifacts = verifiedArtifacts(v.Rep, arts)
	}
	rep := v.Rep
	v.Unsealed = rep.Unsealed
	for _, r := range recs {
		if r.Size == rep.Sealed {
			v.sealedHead = r.Head
		}
	}
	switch {
	case !rep.OK:
		v.Close()
		return nil, fail(exitFailure, "%s does not verify, so nothing of it is read: %s", v.Label, strings.TrimSpace(rep.Failure))
	case rep.Sealed == 0 && rep.Entries > 0 && !allowNoSeal:
		v.Close()
		return nil, fail(exitFailure, "%s: no verified seal: none of its %d entries is sealed, and a hash chain alone is trivial to fabricate, so nothing of it is read", v.Label, rep.Entries)
	}
	return v, nil
}

// verifiedArtifacts keeps the artifact seals whose verification held.
func verifiedArtifacts(rep *seal.Report, recs []*seal.Record) []*seal.Record {
	ok := map[int64]bool{}
	for _, a := range rep.Artifacts {
		if a.Verified {
			ok[a.ID] = true
		}
	}
	var out []*seal.Record
	for _, r := range recs {
		if ok[r.ID] {
			out = append(out, r)
		}
	}
	return out
}

// notPinned is the error of a command that verified a bundle against the
// bundle's own operator key: its output is printed, then it exits with the
// not_pinned status.
func notPinned(rep *seal.Report) error {
	if line := rep.NotPinnedLine(); line != "" {
		return failCode("not_pinned", "%s", line)
	}
	return nil
}
