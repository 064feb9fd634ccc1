package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/sigstore/timestamp-authority/v2/pkg/verification"

	"github.com/sentinel-guard/sentinel/internal/safefile"
)

// An RFC 3161 timestamp over a protocol seal's signed statement, from an
// authority other than the operator: on a log the operator may run, the
// log's integrated time is the operator's word; the authority's is not.
// The token is kept beside the protocol file (FILE.tsr), where it travels
// with it.

// tsaTokenPath is where the token of a protocol file is kept.
func tsaTokenPath(file string) string { return file + ".tsr" }

// maxTSAFile bounds a timestamp token or a pinned chain read from disk
// (a token is a few KiB, a chain a few certificates).
const maxTSAFile = 1 << 20

// tsaEndpoint: a bare host (timestamp-authority's server) gets its API path;
// a URL with a path is used as given (other RFC 3161 authorities).
func tsaEndpoint(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--tsa-url %q: want an http(s) URL", raw)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/api/v1/timestamp"
	}
	return u.String(), nil
}

// tsaTimestamp asks the authority for a token over statement and checks
// that the answer is one (the imprint is the statement's sha256).
func tsaTimestamp(ctx context.Context, rawURL string, statement []byte) ([]byte, error) {
	endpoint, err := tsaEndpoint(rawURL)
	if err != nil {
		return nil, err
	}
	req, err := timestamp.CreateRequest(bytes.NewReader(statement), &timestamp.RequestOptions{Hash: crypto.SHA256, Certificates: true})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(req))
	if err != nil {
		return nil, err
	}
	hr.Header.Set("Content-Type", "application/timestamp-query")
	resp, err := http.DefaultClient.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("%s answered %s: %s", endpoint, resp.Status, strings.TrimSpace(string(body)))
	}
	ts, err := timestamp.ParseResponse(body)
	if err != nil {
		return nil, fmt.Errorf("%s: not an RFC 3161 timestamp response: %v", endpoint, err)
	}
	if err := imprintCovers(ts, statement); err != nil {
		return nil, err
	}
	return body, nil
}

func imprintCovers(ts *timestamp.Timestamp, statement []byte) error {
	if ts.HashAlgorithm != crypto.SHA256 {
		return fmt.Errorf("the timestamp's imprint is not sha256")
	}
	sum := crypto.SHA256.New()
	sum.Write(statement)
	if !bytes.Equal(sum.Sum(nil), ts.HashedMessage) {
		return fmt.Errorf("the timestamp's imprint is not the sha256 of the seal's statement")
	}
	return nil
}

// loadTSAChain reads the pinned chain: PEM certificates, the last one the
// root the stranger trusts, the ones before it intermediates (a leaf among
// them is fine: the token names its own).
func loadTSAChain(path string) (roots, inter []*x509.Certificate, err error) {
	data, err := safefile.ReadFile(path, maxTSAFile)
	if err != nil {
		return nil, nil, err
	}
	var certs []*x509.Certificate
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", path, err)
		}
		certs = append(certs, c)
	}
	if len(certs) == 0 {
		return nil, nil, fmt.Errorf("%s: no PEM certificate", path)
	}
	return certs[len(certs)-1:], certs[:len(certs)-1], nil
}

// verifyTSA checks the token against the pinned chain and the statement:
// the time it returns is the authority's, not the operator's.
func verifyTSA(token []byte, statement []byte, chainPath string) (time.Time, string, error) {
	roots, inter, err := loadTSAChain(chainPath)
	if err != nil {
		return time.Time{}, "", err
	}
	ts, err := timestamp.ParseResponse(token)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("not an RFC 3161 timestamp response: %v", err)
	}
	// The chain is checked at the token's own time: a TSA certificate
	// that expired since still vouches for the time it signed then.
	ts2, err := verification.VerifyTimestampResponse(token, bytes.NewReader(statement),
		verification.VerifyOpts{Roots: roots, Intermediates: inter, CurrentTime: ts.Time})
	if err != nil {
		return time.Time{}, "", err
	}
	if err := imprintCovers(ts2, statement); err != nil {
		return time.Time{}, "", err
	}
	who := roots[0].Subject.String()
	if len(ts2.Certificates) > 0 {
		who = ts2.Certificates[0].Subject.String()
	}
	return ts2.Time.UTC(), who, nil
}
