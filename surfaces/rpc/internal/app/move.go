package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/noggin-go/noggin/core/codec"
	"github.com/noggin-go/noggin/core/noggin"
	"github.com/noggin-go/noggin/core/store"
	"github.com/noggin-go/noggin/surfaces/rpc/pgstore"
)

// openDB connects to the team database, giving it 30 s to answer.
func openDB(ctx context.Context, dsn string) (*pgstore.DB, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	db, err := pgstore.Open(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("the team database: %w", err)
	}
	return db, nil
}

// move runs import (file → database) and export (database → file).
func move(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	verb := args[0]
	fs := flag.NewFlagSet(verb, flag.ContinueOnError)
	dsn := fs.String("store", "", "PostgreSQL team database (default $NOGGIN_RPC_STORE)")
	replace := false
	if verb == "import" {
		fs.BoolVar(&replace, "replace", false, "replace a noggin of that name (its history is dropped)")
	}
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 2 {
		if verb == "import" {
			fmt.Fprintf(stderr, "noggin-rpc: usage: noggin-rpc import [--store URL] [--replace] FILE NAME\n")
		} else {
			fmt.Fprintf(stderr, "noggin-rpc: usage: noggin-rpc export [--store URL] NAME FILE\n")
		}
		return 2
	}
	if *dsn == "" {
		*dsn = getenv("NOGGIN_RPC_STORE")
	}
	if *dsn == "" {
		fmt.Fprintf(stderr, "noggin-rpc: %s needs the team database: --store postgres://… or $NOGGIN_RPC_STORE\n", verb)
		return 2
	}
	db, err := openDB(ctx, *dsn)
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: %v\n", err)
		return 1
	}
	defer db.Close()
	if verb == "import" {
		file, name := fs.Arg(0), fs.Arg(1)
		src, err := store.Open(ctx, file, store.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: %q: %s\n", file, noggin.Safe(noggin.Wrap(err).MessageFor("import")))
			return exitOf(err)
		}
		doc, err := src.Load(ctx)
		if err == nil {
			err = db.Import(ctx, name, doc, replace)
		}
		if err != nil {
			fmt.Fprintf(stderr, "noggin-rpc: import %q as %q: %s\n", file, name, noggin.Safe(message(err)))
			return exitOf(err)
		}
		fmt.Fprintf(stdout, "imported %q as %q (%d items)\n", file, name, len(doc.Items))
		return 0
	}
	name, file := fs.Arg(0), fs.Arg(1)
	doc, err := db.Export(ctx, name)
	if err == nil {
		err = writeFile(file, doc)
	}
	if err != nil {
		fmt.Fprintf(stderr, "noggin-rpc: export %q to %q: %s\n", name, file, noggin.Safe(message(err)))
		return exitOf(err)
	}
	fmt.Fprintf(stdout, "exported %q to %q (%d items)\n", name, file, len(doc.Items))
	return 0
}

// message is err's message; the callers print it through noggin.Safe
// (names in it come from the command line or a noggin).
func message(err error) string {
	var ne *noggin.Error
	if errors.As(err, &ne) {
		return ne.MessageFor("import")
	}
	return err.Error()
}

func exitOf(err error) int {
	var ne *noggin.Error
	if errors.As(err, &ne) {
		return ne.ExitCode
	}
	return 1
}

// writeFile writes doc durably as the file store does: JSON for .json,
// else YAML, through a temporary file renamed over the target.
func writeFile(file string, doc *noggin.Document) error {
	var data []byte
	if strings.EqualFold(filepath.Ext(file), ".json") {
		data = codec.EncodeJSON(doc)
	} else {
		data = codec.EncodeYAML(doc)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".tmp-")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := tmp.Chmod(0o644); err != nil {
		_ = tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}
