// Package seal seals the register in Sigstore Rekor and verifies seals
// offline: operator keys, the signed checkpoint, the incremental Merkle tree
// (compact range) over entry hashes, the Rekor upload and the checks that
// Rekor's own verify package leaves to the caller.
//
// Nothing here is imported by the hook: it pulls in the Rekor client.
package seal

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

// PublicKeyPath is where the public key of the signing key at keyPath lives.
func PublicKeyPath(keyPath string) string { return keyPath + ".pub" }

// GenerateKey writes a new ECDSA P-256 key to keyPath (PEM PKCS#8, 0600, its
// directory 0700) and its public key to PublicKeyPath(keyPath). It refuses
// to overwrite either file: a lost key would orphan every earlier seal.
func GenerateKey(keyPath string) (*ecdsa.PrivateKey, error) {
	pubPath := PublicKeyPath(keyPath)
	for _, p := range []string{keyPath, pubPath} {
		if _, err := os.Lstat(p); err == nil {
			return nil, fmt.Errorf("%s already exists; refusing to overwrite a signing key (move it away first, or use --key for another file)", p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(keyPath), 0o700); err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	privPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
	pubPEM, err := cryptoutils.MarshalPublicKeyToPEM(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	// O_EXCL: never clobber a key created between the check and now.
	if err := writeExcl(keyPath, privPEM, 0o600); err != nil {
		return nil, err
	}
	if err := writeExcl(pubPath, pubPEM, 0o644); err != nil {
		os.Remove(keyPath)
		return nil, err
	}
	return key, nil
}

func writeExcl(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// LoadKey reads an ECDSA P-256 private key (PEM, PKCS#8 or SEC 1).
func LoadKey(path string) (*ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s: not a PEM file", path)
	}
	var key any
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("%s: PEM block %q is not a private key", path, block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ec, ok := key.(*ecdsa.PrivateKey)
	if !ok || ec.Curve != elliptic.P256() {
		return nil, fmt.Errorf("%s: not an ECDSA P-256 key", path)
	}
	return ec, nil
}

// ParsePublicKey reads an ECDSA P-256 public key from PEM.
func ParsePublicKey(pemBytes []byte) (*ecdsa.PublicKey, error) {
	pub, err := cryptoutils.UnmarshalPEMToPublicKey(pemBytes)
	if err != nil {
		return nil, err
	}
	ec, ok := pub.(*ecdsa.PublicKey)
	if !ok || ec.Curve != elliptic.P256() {
		return nil, errors.New("not an ECDSA P-256 public key")
	}
	return ec, nil
}

// LoadPublicKey reads an ECDSA P-256 public key PEM file.
func LoadPublicKey(path string) (*ecdsa.PublicKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := ParsePublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// PublicKeyPEM is the PEM (PKIX) form of pub.
func PublicKeyPEM(pub crypto.PublicKey) ([]byte, error) {
	return cryptoutils.MarshalPublicKeyToPEM(pub)
}

// Fingerprint is "SHA256:" and the hex sha256 of the key's PKIX DER; the
// same digest Rekor uses as a log id.
func Fingerprint(pub crypto.PublicKey) string {
	return "SHA256:" + KeyID(pub)
}

// KeyID is the hex sha256 of the key's PKIX DER ("" if it cannot be
// marshalled). For a Rekor key it is the log id.
func KeyID(pub crypto.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(der)
	return hex.EncodeToString(sum[:])
}
