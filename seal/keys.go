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
	"strings"

	"github.com/secure-systems-lab/go-securesystemslib/encrypted"
	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

// PublicKeyPath is where the public key of the signing key at keyPath lives.
func PublicKeyPath(keyPath string) string { return keyPath + ".pub" }

// EncryptedKeyPEMType is the PEM type of an encrypted private key, as
// cosign writes it (cosign generate-key-pair): the PKCS#8 DER encrypted by
// go-securesystemslib's encrypted package (scrypt key derivation,
// NaCl secretbox), a JSON document as the PEM body. cosign reads these keys
// and sentinel reads cosign's.
const EncryptedKeyPEMType = "ENCRYPTED SIGSTORE PRIVATE KEY"

// cosignKeyPEMType is the older cosign type, read as well.
const cosignKeyPEMType = "ENCRYPTED COSIGN PRIVATE KEY"

// ErrUnencrypted marks a key loaded from an unencrypted file.
var ErrUnencrypted = errors.New("the signing key is not encrypted: any process of the user who owns it can read it and sign checkpoints (re-create it with sentinel keygen, or move it to another account: docs/threat-model.md)")

// GenerateKey writes a new ECDSA P-256 key to keyPath (0600, its directory
// 0700) and its public key to PublicKeyPath(keyPath). With a password the
// key is encrypted in cosign's format (EncryptedKeyPEMType); with nil it is
// plain PEM PKCS#8, which the caller must ask for explicitly. It refuses to
// overwrite either file: a lost key would orphan every earlier seal.
func GenerateKey(keyPath string, password []byte) (*ecdsa.PrivateKey, error) {
	if password != nil && len(password) == 0 {
		return nil, errors.New("an empty password does not protect the key")
	}
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
	block := &pem.Block{Type: "PRIVATE KEY", Bytes: der}
	if password != nil {
		enc, err := encrypted.Encrypt(der, password)
		if err != nil {
			return nil, fmt.Errorf("encrypting the key: %w", err)
		}
		block = &pem.Block{Type: EncryptedKeyPEMType, Bytes: enc}
	}
	privPEM := pem.EncodeToMemory(block)
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

// KeyEncrypted reports whether the key file at path is encrypted.
func KeyEncrypted(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	block, _ := pem.Decode(data)
	return block != nil && (block.Type == EncryptedKeyPEMType || block.Type == cosignKeyPEMType), nil
}

// LoadKey reads an ECDSA P-256 private key: encrypted in cosign's format
// (password is called for the password only then), or plain PEM (PKCS#8 or
// SEC 1), in which case the key is returned with an error wrapping
// ErrUnencrypted: usable, but the caller should warn.
func LoadKey(path string, password func() ([]byte, error)) (*ecdsa.PrivateKey, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s: not a PEM file", path)
	}
	var key any
	plain := false
	switch block.Type {
	case EncryptedKeyPEMType, cosignKeyPEMType:
		if password == nil {
			return nil, fmt.Errorf("%s is encrypted and no password was given", path)
		}
		pass, err := password()
		if err != nil {
			return nil, err
		}
		der, err := encrypted.Decrypt(block.Bytes, pass)
		if err != nil {
			return nil, fmt.Errorf("%s: cannot decrypt the key (wrong password?): %v", path, err)
		}
		key, err = x509.ParsePKCS8PrivateKey(der)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		plain = true
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
		plain = true
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
	if plain {
		return ec, fmt.Errorf("%s: %w", path, ErrUnencrypted)
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

// ParseFingerprint reads a fingerprint as Fingerprint prints it,
// "SHA256:<64 hex digits>" (the prefix and the digits in any case), and
// returns it in Fingerprint's form.
func ParseFingerprint(s string) (string, error) {
	t := strings.TrimSpace(s)
	h, ok := strings.CutPrefix(strings.ToLower(t), "sha256:")
	if !ok {
		return "", fmt.Errorf("%q is not a fingerprint: want SHA256:<64 hex digits>, as sentinel keygen prints it", s)
	}
	if b, err := hex.DecodeString(h); err != nil || len(b) != sha256.Size {
		return "", fmt.Errorf("%q is not a fingerprint: want SHA256: and 64 hex digits", s)
	}
	return "SHA256:" + h, nil
}

// PublicKeyDER is the key's PKIX DER (what its fingerprint hashes).
func PublicKeyDER(pub crypto.PublicKey) ([]byte, error) { return x509.MarshalPKIXPublicKey(pub) }
