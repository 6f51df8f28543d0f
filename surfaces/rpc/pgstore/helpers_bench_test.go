package pgstore_test

import (
	"os"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

func osWriteFile(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }

func benchEngine() *noggin.Engine {
	t := time.Date(2026, 6, 16, 18, 46, 44, 0, time.UTC)
	return &noggin.Engine{Now: func() time.Time { return t }, Keys: noggin.RandomKeys{}}
}
