package seal

import (
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/transparency-dev/merkle/compact"
	"github.com/transparency-dev/merkle/rfc6962"
)

var rangeFactory = &compact.RangeFactory{Hash: rfc6962.DefaultHasher.HashChildren}

// Tree is the RFC 6962 Merkle tree over the register's entry hashes, kept
// as a compact range: O(log n) hashes, so appending and computing the root
// cost nothing that grows with the register. Leaf i is the 32-byte hash of
// entry i+1, hashed as an RFC 6962 leaf (0x00 prefix).
type Tree struct {
	r *compact.Range
}

// NewTree is the empty tree.
func NewTree() *Tree { return &Tree{r: rangeFactory.NewEmptyRange(0)} }

// Size is the number of leaves.
func (t *Tree) Size() uint64 { return t.r.End() }

// AppendEntryHash appends the leaf for an entry hash (32 bytes).
func (t *Tree) AppendEntryHash(entryHash []byte) error {
	if len(entryHash) != 32 {
		return fmt.Errorf("entry hash is %d bytes, want 32", len(entryHash))
	}
	return t.r.Append(rfc6962.DefaultHasher.HashLeaf(entryHash), nil)
}

// AppendEntryHashHex appends the leaf for a hex entry hash.
func (t *Tree) AppendEntryHashHex(h string) error {
	b, err := hex.DecodeString(h)
	if err != nil {
		return fmt.Errorf("entry hash %q is not hex", h)
	}
	return t.AppendEntryHash(b)
}

// Root is the RFC 6962 root hash (sha256 of "" for the empty tree).
func (t *Tree) Root() []byte {
	if t.Size() == 0 {
		return rfc6962.DefaultHasher.EmptyRoot()
	}
	root, err := t.r.GetRootHash(nil)
	if err != nil { // cannot happen for a range that begins at 0
		panic(err)
	}
	return root
}

type treeState struct {
	Size   uint64   `json:"size"`
	Hashes []string `json:"hashes"`
}

// MarshalState is the persisted compact range (size and its hashes).
func (t *Tree) MarshalState() string {
	st := treeState{Size: t.Size(), Hashes: []string{}}
	for _, h := range t.r.Hashes() {
		st.Hashes = append(st.Hashes, hex.EncodeToString(h))
	}
	b, _ := json.Marshal(st)
	return string(b)
}

// UnmarshalTreeState restores a tree saved by MarshalState.
func UnmarshalTreeState(s string) (*Tree, error) {
	var st treeState
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return nil, fmt.Errorf("tree state: %w", err)
	}
	hashes := make([][]byte, len(st.Hashes))
	for i, h := range st.Hashes {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 32 {
			return nil, fmt.Errorf("tree state: hash %d is not 32 bytes of hex", i)
		}
		hashes[i] = b
	}
	r, err := rangeFactory.NewRange(0, st.Size, hashes)
	if err != nil {
		return nil, fmt.Errorf("tree state: %w", err)
	}
	return &Tree{r: r}, nil
}
