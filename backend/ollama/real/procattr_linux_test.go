package real_test

import (
	"os/exec"
	"syscall"
)

// orphanGuard has the kernel stop `ollama serve` if the test binary dies
// without stopping it (a panic, a timeout, a kill).
func orphanGuard(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
