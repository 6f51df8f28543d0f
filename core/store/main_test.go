package store

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/noggin-go/noggin/core/noggin"
)

// Child process modes: the test binary re-executes itself with
// NOGGIN_STORE_CHILD set to run one of these instead of the tests.
const childEnv = "NOGGIN_STORE_CHILD"

func TestMain(m *testing.M) {
	if ms, err := strconv.Atoi(os.Getenv("CHILD_STALE_MS")); err == nil {
		staleAfter = time.Duration(ms) * time.Millisecond
	}
	switch os.Getenv(childEnv) {
	case "":
		os.Exit(m.Run())
	case "exit": // a process that is dead once waited for
		os.Exit(0)
	case "writer":
		os.Exit(childWriter(false))
	case "crashwriter":
		os.Exit(childWriter(true))
	case "ackwriter":
		os.Exit(childAckWriter())
	case "stallwriter":
		os.Exit(childStallWriter())
	case "original": // a stand-in for the original tool (original_unix_test.go)
		os.Exit(childOriginal())
	case "stopping":
		os.Exit(childStoppingWriter())
	case "onewrite": // adds CHILD_PREFIX, prints "ok" or the error code
		s, err := Open(context.Background(), os.Getenv("CHILD_FILE"), Options{})
		if err == nil {
			err = addItem(s, os.Getenv("CHILD_PREFIX"))
		}
		if err != nil {
			fmt.Println(errCode(err))
			os.Exit(1)
		}
		fmt.Println("ok")
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown child mode")
		os.Exit(3)
	}
}

// childWriter appends items CHILD_PREFIX-0 … CHILD_PREFIX-(CHILD_N-1) to
// CHILD_FILE, one write each. In crash mode it prints "ready" first and
// keeps writing until killed.
func childWriter(crash bool) int {
	file, prefix := os.Getenv("CHILD_FILE"), os.Getenv("CHILD_PREFIX")
	n, _ := strconv.Atoi(os.Getenv("CHILD_N"))
	s, err := Open(context.Background(), file, Options{LockTimeout: 20e9})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if crash {
		fmt.Println("ready")
		n = 1 << 30
	}
	for i := 0; i < n; i++ {
		if err := addItem(s, prefix+"-"+strconv.Itoa(i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// addOp appends a new root item with key (and title) key.
func addOp(key string) noggin.Op {
	return noggin.Op{Type: noggin.OpAdd, Item: &noggin.Item{Key: key, Title: key, Notes: []noggin.Note{}}, AtEnd: true}
}

// addItem adds one item in one write.
func addItem(s noggin.Store, key string) error {
	_, err := s.Update(context.Background(), planOf(func(*noggin.Document) ([]noggin.Op, error) {
		return []noggin.Op{addOp(key)}, nil
	}))
	return err
}

// keysOf lists the item keys of doc in array order.
func keysOf(doc *noggin.Document) []string {
	keys := make([]string, len(doc.Items))
	for i, it := range doc.Items {
		keys[i] = it.Key
	}
	return keys
}

// planOf is a write whose plan needs no history.
func planOf(plan func(*noggin.Document) ([]noggin.Op, error)) noggin.Write {
	return noggin.Write{Verb: "test", Plan: func(d *noggin.Document, _ *noggin.History) ([]noggin.Op, error) { return plan(d) }}
}

// childAckWriter appends items CHILD_PREFIX-0, -1, … to CHILD_FILE until
// killed, printing each key once its write is acknowledged.
func childAckWriter() int {
	s, err := Open(context.Background(), os.Getenv("CHILD_FILE"), Options{LockTimeout: 60e9})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := 0; ; i++ {
		key := os.Getenv("CHILD_PREFIX") + "-" + strconv.Itoa(i)
		if err := addItem(s, key); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(key)
	}
}

// childStallWriter adds the item CHILD_PREFIX, stopping just before its
// rename: it prints "holding" and waits for a line on standard input. It
// prints "ok" or the error's code.
func childStallWriter() int {
	beforeRename = func() {
		fmt.Println("holding")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	}
	s, err := Open(context.Background(), os.Getenv("CHILD_FILE"), Options{LockTimeout: 60e9})
	if err == nil {
		err = addItem(s, os.Getenv("CHILD_PREFIX"))
	}
	if err != nil {
		fmt.Println(errCode(err))
		return 1
	}
	fmt.Println("ok")
	return 0
}
