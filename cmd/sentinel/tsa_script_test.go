package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/sigstore/timestamp-authority/v2/pkg/server"
	"github.com/spf13/viper"
)

// `tsa start` serves sigstore's timestamp-authority (its own server code,
// in-process, on loopback, with its in-memory signer) and sets TSA_URL;
// the chain it serves is written to $WORK/tsa-chain.pem. The server keeps
// its configuration in globals, so one runs per test process, shared.
// `tsa other` writes $WORK/other-chain.pem: a root of another authority.
var (
	tsaOnce  sync.Once
	tsaURL   string
	tsaChain []byte
	tsaErr   error
)

func startTSA() {
	viper.Set("timestamp-signer", "memory")
	viper.Set("timestamp-signer-hash", "sha256")
	viper.Set("accepted-policy-oids", []string{"1.3.6.1.4.1.57264.2"})
	viper.Set("allow-custom-extensions", false)
	viper.Set("default-policy-oid", "1.3.6.1.4.1.57264.2")
	api := server.NewRestAPIServer("127.0.0.1", 0, []string{"http"}, false, 10*time.Second, 10*time.Second)
	srv := httptest.NewServer(api.GetHandler()) // lives as long as the test process
	tsaURL = srv.URL
	resp, err := http.Get(srv.URL + "/api/v1/timestamp/certchain")
	if err != nil {
		tsaErr = err
		return
	}
	defer resp.Body.Close()
	tsaChain, tsaErr = io.ReadAll(resp.Body)
	if tsaErr == nil && resp.StatusCode != http.StatusOK {
		tsaErr = os.ErrInvalid
	}
}

func cmdTSA(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tsa start|other")
	}
	switch args[0] {
	case "start":
		tsaOnce.Do(startTSA)
		if tsaErr != nil {
			ts.Fatalf("tsa: %v", tsaErr)
		}
		ts.Check(os.WriteFile(filepath.Join(ts.Getenv("WORK"), "tsa-chain.pem"), tsaChain, 0o644))
		ts.Setenv("TSA_URL", tsaURL)
	case "other":
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		ts.Check(err)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "another authority"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
			BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
		ts.Check(err)
		ts.Check(os.WriteFile(filepath.Join(ts.Getenv("WORK"), "other-chain.pem"),
			pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644))
	default:
		ts.Fatalf("usage: tsa start|other")
	}
}
