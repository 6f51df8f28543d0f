// Command read is the report's read floor (make bench-report): a process
// that reads a noggin file whole into memory and exits, the least a read
// of the noggin costs.
package main

import (
	"fmt"
	"os"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if len(data) == 0 {
		os.Exit(2)
	}
}
