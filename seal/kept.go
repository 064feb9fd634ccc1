package seal

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	genclient "github.com/sigstore/rekor/pkg/generated/client"
	"github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/rekor/pkg/verify"
)

// KeptCheckpoint is the last tree head of a log that a run verified, kept
// per log under the state directory: the next run proves the log's
// current tree consistent with it before trusting anything newer, so a
// log (or a relay) that rolls back or shows this reader a forked tree is
// caught across runs, not only within one.
type KeptCheckpoint struct {
	LogID      string `json:"log_id"`
	Size       uint64 `json:"size"`
	Root       string `json:"root"`
	Origin     string `json:"origin"`
	VerifiedAt string `json:"verified_at"`
	// Checkpoint is the signed note itself; it is verified against the
	// pinned key again when read (the state directory is writable by the
	// agent).
	Checkpoint string `json:"checkpoint"`
}

func keptPath(stateDir, logID string) string {
	return filepath.Join(stateDir, "checkpoints", logID+".json")
}

// trustCheckpoint compares the live tree head with the one kept from an
// earlier run and proves consistency between them; on success the live
// one is kept. It returns the earlier checkpoint (nil on a first run), a
// failure message ("" when consistent), or an error (the proof or the
// state could not be read or written).
func trustCheckpoint(ctx context.Context, c *genclient.Rekor, key *RekorKey, stateDir string, sth *util.SignedCheckpoint, treeID string) (*KeptCheckpoint, string, error) {
	path := keptPath(stateDir, key.LogID)
	var prev *KeptCheckpoint
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, "", fmt.Errorf("reading the kept checkpoint: %w", err)
	default:
		var k KeptCheckpoint
		var old util.SignedCheckpoint
		if json.Unmarshal(b, &k) != nil || old.UnmarshalText([]byte(k.Checkpoint)) != nil || !old.Verify(key.verifier) {
			return nil, fmt.Sprintf("the checkpoint kept from an earlier run (%s) does not verify against the pinned key: it was edited; remove it to start over", path), nil
		}
		prev = &k
		switch {
		case old.Origin != sth.Origin:
			// Another tree (a new shard): no proof between them; start
			// over from the new one.
		case old.Size > sth.Size:
			return prev, fmt.Sprintf("the log's tree has %d entries, fewer than the %d verified on %s: the log (or a relay in front of it) rolled back or shows this reader another tree", sth.Size, old.Size, k.VerifiedAt), nil
		case old.Size == sth.Size && hex.EncodeToString(old.Hash) != hex.EncodeToString(sth.Hash):
			return prev, fmt.Sprintf("the log's tree of %d entries has root %x, but the one verified on %s had root %x: a forked log", sth.Size, sth.Hash, k.VerifiedAt, old.Hash), nil
		case old.Size < sth.Size:
			if err := verify.ProveConsistency(ctx, c, &old, sth, treeID); err != nil {
				return prev, fmt.Sprintf("the log's tree of %d entries is not consistent with the one of %d verified on %s: %v", sth.Size, old.Size, k.VerifiedAt, err), nil
			}
		}
	}
	text, err := sth.MarshalText()
	if err != nil {
		return prev, "", err
	}
	k := KeptCheckpoint{LogID: key.LogID, Size: sth.Size, Root: hex.EncodeToString(sth.Hash), Origin: sth.Origin,
		VerifiedAt: time.Now().UTC().Format(time.RFC3339), Checkpoint: string(text)}
	out, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return prev, "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return prev, "", fmt.Errorf("keeping the checkpoint: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".checkpoint-*")
	if err != nil {
		return prev, "", fmt.Errorf("keeping the checkpoint: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(out, '\n')); err != nil {
		tmp.Close()
		return prev, "", err
	}
	if err := tmp.Close(); err != nil {
		return prev, "", err
	}
	// The checkpoints directory is the sentinel's own: a rename there
	// replaces only a file it wrote.
	if err := os.Rename(tmp.Name(), path); err != nil {
		return prev, "", fmt.Errorf("keeping the checkpoint: %w", err)
	}
	return prev, "", nil
}
