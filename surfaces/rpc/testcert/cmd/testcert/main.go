// Command testcert writes a throwaway CA and a certificate it signs for
// 127.0.0.1 and localhost into a directory (ca.pem, cert.pem, key.pem),
// for tests and for trying HTTPS on one machine.
package main

import (
	"fmt"
	"os"

	"github.com/noggin-go/noggin/surfaces/rpc/testcert"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: testcert DIR")
		os.Exit(2)
	}
	if _, err := testcert.Write(os.Args[1], 2); err != nil {
		fmt.Fprintln(os.Stderr, "testcert:", err)
		os.Exit(1)
	}
}
