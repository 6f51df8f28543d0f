//go:build !linux

package e2e

import "os/exec"

// dieWithParent is a no-op where the parent's death cannot signal a child.
func dieWithParent(*exec.Cmd) {}
