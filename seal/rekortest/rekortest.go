// Package rekortest serves Rekor's v1 API from an httptest server built from
// Rekor's own code, for tests that must not need the network: proposed
// entries go through Rekor's type registry (real hashedrekord validation,
// signature included), leaves are Rekor's canonical entries in a real RFC
// 6962 tree, and SETs and checkpoints are signed by a test log key exactly
// as rekor-server signs them. Answers verify with rekor/pkg/verify unchanged.
package rekortest

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	jsoncanonicalizer "github.com/cyberphone/json-canonicalization/go/src/webpki.org/jsoncanonicalizer"
	"github.com/go-openapi/strfmt"
	"github.com/sigstore/rekor/pkg/generated/models"
	pkix509 "github.com/sigstore/rekor/pkg/pki/x509"
	"github.com/sigstore/rekor/pkg/types"
	_ "github.com/sigstore/rekor/pkg/types/hashedrekord/v0.0.1" // registers the kind
	"github.com/sigstore/rekor/pkg/util"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
	"github.com/sigstore/sigstore/pkg/signature"
	"github.com/transparency-dev/merkle/rfc6962"
	"github.com/transparency-dev/merkle/testonly"
)

// TreeID is the public log's active tree id, used in entry ids and the
// checkpoint origin.
const TreeID int64 = 1193050959916656506

// Hostname is the checkpoint origin's host part.
const Hostname = "rekor.local"

// Log is a test Rekor log.
type Log struct {
	*httptest.Server
	Key    *ecdsa.PrivateKey
	signer signature.SignerVerifier

	// Fail makes every request answer 500 while set.
	Fail atomic.Bool
	// Offset is added to logIndex (not to the inclusion proof's index), as
	// on a sharded log with Offset entries in inactive shards.
	Offset int64
	// DropAnswer makes the next successful upload answer 500 after storing
	// the entry and then sets Fail, as when the answer is lost on the way
	// back and the log becomes unreachable.
	DropAnswer atomic.Bool
	// NoConflictLocation answers a duplicate upload's 409 without the
	// Location header (real Rekor sends it; a proxy may drop it), and
	// NoConflictUUID also leaves the UUID out of the 409's message.
	NoConflictLocation, NoConflictUUID atomic.Bool

	mu     sync.Mutex
	tree   *testonly.Tree
	bodies [][]byte
	times  []int64
	byLeaf map[string]int
	// index is Rekor's search index: each entry's IndexKeys (from the
	// entry type's own code, as rekor-server writes them to Redis) to the
	// entry ids, in upload order.
	index   map[string][]string
	Uploads int // successful creates
	// NoIndex makes the search API answer 501, as a rekor-server started
	// without a search index does.
	NoIndex atomic.Bool
}

// New starts a test log with a fresh P-256 key.
func New() *Log {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return NewWithKey(key)
}

// NewWithKey starts a test log signing with key: two logs with one key
// are one log showing two readers different trees (a fork, a rollback).
func NewWithKey(key *ecdsa.PrivateKey) *Log {
	sv, err := signature.LoadECDSASignerVerifier(key, crypto.SHA256)
	if err != nil {
		panic(err)
	}
	l := &Log{Key: key, signer: sv, tree: testonly.New(rfc6962.DefaultHasher), byLeaf: map[string]int{}, index: map[string][]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/log/entries", l.create)
	mux.HandleFunc("GET /api/v1/log/entries/{uuid}", l.get)
	mux.HandleFunc("GET /api/v1/log/entries", l.getByIndex)
	mux.HandleFunc("GET /api/v1/log", l.info)
	mux.HandleFunc("GET /api/v1/log/proof", l.proof)
	mux.HandleFunc("GET /api/v1/log/publicKey", l.publicKey)
	mux.HandleFunc("POST /api/v1/index/retrieve", l.search)
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l.Fail.Load() {
			writeErr(w, http.StatusInternalServerError, "test log told to fail")
			return
		}
		mux.ServeHTTP(w, r)
	}))
	return l
}

// PublicKeyPEM is the log key, PEM.
func (l *Log) PublicKeyPEM() []byte {
	b, err := cryptoutils.MarshalPublicKeyToPEM(&l.Key.PublicKey)
	if err != nil {
		panic(err)
	}
	return b
}

// LogID is the hex sha256 of the log key's DER.
func (l *Log) LogID() string {
	der, _ := cryptoutils.MarshalPublicKeyToDER(&l.Key.PublicKey)
	return hex.EncodeToString(sha256sum(der))
}

// Size is the number of entries in the log.
func (l *Log) Size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.bodies)
}

func writeErr(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"code": code, "message": msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func (l *Log) entryID(leaf string) string { return fmt.Sprintf("%016x%s", TreeID, leaf) }

func (l *Log) create(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		writeErr(w, http.StatusUnsupportedMediaType, "unsupported media type")
		return
	}
	pe, err := models.UnmarshalProposedEntry(r.Body, nil)
	if err != nil {
		writeErr(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := pe.Validate(strfmt.Default); err != nil {
		writeErr(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	ei, err := types.CreateVersionedEntry(pe)
	if err != nil {
		writeErr(w, http.StatusBadRequest, "error processing entry: "+err.Error())
		return
	}
	leafBytes, err := types.CanonicalizeEntry(r.Context(), ei)
	if err != nil {
		writeErr(w, http.StatusBadRequest, err.Error())
		return
	}
	leaf := hex.EncodeToString(rfc6962.DefaultHasher.HashLeaf(leafBytes))
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, dup := l.byLeaf[leaf]; dup {
		id := l.entryID(leaf)
		if !l.NoConflictLocation.Load() {
			w.Header().Set("Location", "/api/v1/log/entries/"+id)
		}
		msg := "an equivalent entry already exists in the transparency log with UUID " + id
		if l.NoConflictUUID.Load() {
			msg = "an equivalent entry already exists in the transparency log"
		}
		writeErr(w, http.StatusConflict, msg)
		return
	}
	l.byLeaf[leaf] = len(l.bodies)
	l.bodies = append(l.bodies, leafBytes)
	l.times = append(l.times, time.Now().Unix())
	l.tree.AppendData(leafBytes)
	l.Uploads++
	keys, err := ei.IndexKeys()
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err.Error())
		return
	}
	for _, k := range keys {
		l.index[k] = append(l.index[k], l.entryID(leaf))
	}
	if l.DropAnswer.CompareAndSwap(true, false) {
		l.Fail.Store(true)
		writeErr(w, http.StatusInternalServerError, "answer lost")
		return
	}
	id := l.entryID(leaf)
	e, err := l.entry(r.Context(), l.byLeaf[leaf])
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err.Error())
		return
	}
	w.Header().Set("Location", "/api/v1/log/entries/"+id)
	w.Header().Set("ETag", id)
	writeJSON(w, http.StatusCreated, models.LogEntry{id: *e})
}

// entry builds the answer for entry idx at the current tree size (l.mu held).
func (l *Log) entry(ctx context.Context, idx int) (*models.LogEntryAnon, error) {
	body := base64.StdEncoding.EncodeToString(l.bodies[idx])
	logIndex := l.Offset + int64(idx)
	logID := l.LogID()
	it := l.times[idx]
	payload, err := json.Marshal(struct {
		Body           any    `json:"body"`
		IntegratedTime int64  `json:"integratedTime"`
		LogIndex       int64  `json:"logIndex"`
		LogID          string `json:"logID"`
	}{body, it, logIndex, logID})
	if err != nil {
		return nil, err
	}
	canon, err := jsoncanonicalizer.Transform(payload)
	if err != nil {
		return nil, err
	}
	set, err := l.signer.SignMessage(bytes.NewReader(canon))
	if err != nil {
		return nil, err
	}
	size := l.tree.Size()
	hashes, err := l.tree.InclusionProof(uint64(idx), size)
	if err != nil {
		return nil, err
	}
	hexes := make([]string, len(hashes))
	for i, h := range hashes {
		hexes[i] = hex.EncodeToString(h)
	}
	cp, err := util.CreateAndSignCheckpoint(ctx, Hostname, TreeID, size, l.tree.Hash(), l.signer)
	if err != nil {
		return nil, err
	}
	root := hex.EncodeToString(l.tree.Hash())
	tsize, pidx := int64(size), int64(idx)
	cps := string(cp)
	return &models.LogEntryAnon{
		Body: body, IntegratedTime: &it, LogID: &logID, LogIndex: &logIndex,
		Verification: &models.LogEntryAnonVerification{
			SignedEntryTimestamp: set,
			InclusionProof: &models.InclusionProof{Checkpoint: &cps, Hashes: hexes,
				LogIndex: &pidx, RootHash: &root, TreeSize: &tsize},
		},
	}, nil
}

func (l *Log) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("uuid")
	if len(id) != 64 && len(id) != 80 {
		writeErr(w, http.StatusUnprocessableEntity, "entryUUID in path should match '^([0-9a-fA-F]{64}|[0-9a-fA-F]{80})$'")
		return
	}
	leaf := strings.ToLower(id[len(id)-64:])
	l.mu.Lock()
	defer l.mu.Unlock()
	idx, ok := l.byLeaf[leaf]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	e, err := l.entry(r.Context(), idx)
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, models.LogEntry{l.entryID(leaf): *e})
}

// getByIndex is GET /api/v1/log/entries?logIndex=N (N the global index,
// Offset included), as rekor-server serves it.
func (l *Log) getByIndex(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.ParseInt(r.URL.Query().Get("logIndex"), 10, 64)
	if err != nil || n < 0 {
		writeErr(w, http.StatusUnprocessableEntity, "logIndex in query should be greater than or equal to 0")
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	idx := n - l.Offset
	if idx < 0 || idx >= int64(len(l.bodies)) {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	e, err := l.entry(r.Context(), int(idx))
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err.Error())
		return
	}
	leaf := hex.EncodeToString(rfc6962.DefaultHasher.HashLeaf(l.bodies[idx]))
	writeJSON(w, http.StatusOK, models.LogEntry{l.entryID(leaf): *e})
}

// Relay is an untrusted relay in front of a log: it forwards every request
// and, while Drop is set, removes that entry id (64 or 80 hex; matched on
// the leaf) from the search index's answers: what an operator who points
// readers at their own relay can do to hide a seal.
type Relay struct {
	*httptest.Server
	Drop atomic.Value // string
}

// NewRelay starts a relay in front of the log at target (a test log's
// URL, or a real rekor-server's).
func NewRelay(target string) *Relay {
	rl := &Relay{}
	rl.Drop.Store("")
	rl.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequestWithContext(r.Context(), r.Method, strings.TrimSuffix(target, "/")+r.URL.RequestURI(), r.Body)
		if err != nil {
			writeErr(w, http.StatusBadGateway, err.Error())
			return
		}
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			writeErr(w, http.StatusBadGateway, err.Error())
			return
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		drop, _ := rl.Drop.Load().(string)
		if r.URL.Path == "/api/v1/index/retrieve" && resp.StatusCode == http.StatusOK && drop != "" {
			var ids []string
			if json.Unmarshal(body, &ids) == nil {
				kept := []string{}
				for _, id := range ids {
					if !strings.HasSuffix(strings.ToLower(id), strings.ToLower(drop[len(drop)-64:])) {
						kept = append(kept, id)
					}
				}
				body, _ = json.Marshal(kept)
			}
		}
		for k, v := range resp.Header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(resp.StatusCode)
		w.Write(body)
	}))
	return rl
}

func (l *Log) info(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	size := l.tree.Size()
	cp, err := util.CreateAndSignCheckpoint(r.Context(), Hostname, TreeID, size, l.tree.Hash(), l.signer)
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"rootHash": hex.EncodeToString(l.tree.Hash()), "signedTreeHead": string(cp),
		"treeID": strconv.FormatInt(TreeID, 10), "treeSize": size, "inactiveShards": nil,
	})
}

func (l *Log) proof(w http.ResponseWriter, r *http.Request) {
	first, err1 := strconv.ParseUint(r.URL.Query().Get("firstSize"), 10, 64)
	last, err2 := strconv.ParseUint(r.URL.Query().Get("lastSize"), 10, 64)
	if err1 != nil || err2 != nil || first < 1 {
		writeErr(w, http.StatusUnprocessableEntity, "firstSize and lastSize must be integers, firstSize >= 1")
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case first > last:
		writeErr(w, http.StatusBadRequest, fmt.Sprintf("firstSize(%d) must be less than lastSize(%d)", first, last))
		return
	case last > l.tree.Size():
		writeErr(w, http.StatusBadRequest, fmt.Sprintf("the tree size requested(%d) was greater than what is currently observable(%d)", last, l.tree.Size()))
		return
	}
	hashes, err := l.tree.ConsistencyProof(first, last)
	if err != nil {
		writeErr(w, http.StatusInternalServerError, err.Error())
		return
	}
	hexes := []string{}
	for _, h := range hashes {
		hexes = append(hexes, hex.EncodeToString(h))
	}
	writeJSON(w, http.StatusOK, map[string]any{"rootHash": hex.EncodeToString(l.tree.HashAt(last)), "hashes": hexes})
}

func (l *Log) publicKey(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/x-pem-file")
	w.Write(l.PublicKeyPEM())
}

func sha256sum(b []byte) []byte {
	h := crypto.SHA256.New()
	h.Write(b)
	return h.Sum(nil)
}

// search is Rekor's SearchIndexHandler (pkg/api/index.go) over the
// in-memory index: the same lookup keys (a public key by the sha256 of its
// canonical form from Rekor's pki package, a hash as "sha256:<hex>"), "or"
// by default, "and" intersecting.
func (l *Log) search(w http.ResponseWriter, r *http.Request) {
	if l.NoIndex.Load() {
		writeErr(w, http.StatusNotImplemented, "Search Index API not enabled in this Rekor instance")
		return
	}
	var q models.SearchIndex
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		writeErr(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := q.Validate(strfmt.Default); err != nil {
		writeErr(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	var keys []string
	if q.Hash != "" {
		keys = append(keys, strings.ToLower(util.PrefixSHA(q.Hash)))
	}
	if q.PublicKey != nil {
		// Only x509 here: pki.NewArtifactFactory would link every format
		// (pgp, tuf, ...) into the tests; for x509 it dispatches to this.
		if *q.PublicKey.Format != "x509" {
			writeErr(w, http.StatusBadRequest, *q.PublicKey.Format+" is not a supported PKI format here")
			return
		}
		key, err := pkix509.NewPublicKey(bytes.NewReader(q.PublicKey.Content))
		if err != nil {
			writeErr(w, http.StatusBadRequest, err.Error())
			return
		}
		canon, err := key.CanonicalValue()
		if err != nil {
			writeErr(w, http.StatusInternalServerError, err.Error())
			return
		}
		keys = append(keys, strings.ToLower(hex.EncodeToString(sha256sum(canon))))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]int{}
	for _, k := range keys {
		for _, id := range l.index[k] {
			seen[id]++
		}
	}
	out := []string{}
	for id, n := range seen {
		if q.Operator != "and" || n == len(keys) {
			out = append(out, id)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
