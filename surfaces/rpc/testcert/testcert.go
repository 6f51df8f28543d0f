// Package testcert makes TLS certificates for tests: a throwaway CA and a
// certificate it signs for 127.0.0.1, written as PEM files.
package testcert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Files are the PEM files Write makes.
type Files struct {
	Cert, Key, CA string
}

// Write writes into dir a new CA (ca.pem) and a certificate for 127.0.0.1
// and localhost with serial number serial (cert.pem, key.pem), each file
// replaced whole (written beside it, then renamed).
func Write(dir string, serial int64) (Files, error) {
	f := Files{Cert: filepath.Join(dir, "cert.pem"), Key: filepath.Join(dir, "key.pem"), CA: filepath.Join(dir, "ca.pem")}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return f, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "noggin test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return f, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return f, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return f, err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), DNSNames: []string{"localhost"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, caCert, &key.PublicKey, caKey)
	if err != nil {
		return f, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return f, err
	}
	for _, w := range []struct {
		name string
		b    *pem.Block
	}{{f.CA, &pem.Block{Type: "CERTIFICATE", Bytes: caDER}}, {f.Key, &pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}},
		{f.Cert, &pem.Block{Type: "CERTIFICATE", Bytes: der}}} {
		if err := os.WriteFile(w.name+".tmp", pem.EncodeToMemory(w.b), 0o600); err != nil {
			return f, err
		}
		if err := os.Rename(w.name+".tmp", w.name); err != nil {
			return f, err
		}
	}
	return f, nil
}
