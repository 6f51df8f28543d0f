package app

import (
	"context"
	"fmt"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestDBCauseHoldsNoAddress(t *testing.T) {
	sock := &net.OpError{Op: "dial", Net: "unix", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ENOENT}}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"no socket file", fmt.Errorf("failed to connect to `user=alice database=team`: /run/pg/.s.PGSQL.5432: %w", sock), "no database socket there"},
		{"nothing listens", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, "connection refused"},
		{"refused by the server", &pgconn.PgError{Code: "28P01", Message: `password authentication failed for user "alice"`}, "the database refused: SQLSTATE 28P01"},
		{"host unknown", &net.DNSError{Name: "db.internal", Err: "no such host"}, "the host name does not resolve"},
		{"timeout", context.DeadlineExceeded, "timed out"},
		{"anything else", fmt.Errorf("user=alice host=/secret: boom"), "cannot connect"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dbCause(tc.err); got != tc.want {
				t.Errorf("dbCause = %q, want %q", got, tc.want)
			}
		})
	}
}
