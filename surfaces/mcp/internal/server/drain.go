package server

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// drainTransport wraps a stream transport so that the end of the input
// does not drop answers: the SDK handles calls concurrently and closes the
// session as soon as a read fails, so a client that writes its requests and
// closes stdin (a shell pipe, a script) would lose the responses still in
// flight. Read reports the end of input only once every request read so
// far has been answered, or after grace.
type drainTransport struct {
	mcp.Transport
	grace time.Duration
}

func (t *drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	d := &drainConn{Connection: c, grace: t.grace, pending: map[jsonrpc.ID]int{}}
	d.cond = sync.NewCond(&d.mu)
	return d, nil
}

type drainConn struct {
	mcp.Connection
	grace   time.Duration
	mu      sync.Mutex
	cond    *sync.Cond
	pending map[jsonrpc.ID]int
	n       int
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			c.mu.Lock()
			c.pending[req.ID]++
			c.n++
			c.mu.Unlock()
		}
		return msg, nil
	}
	if ctx.Err() == nil {
		c.wait()
	}
	return nil, err
}

// wait blocks until no request is pending or grace has passed.
func (c *drainConn) wait() {
	timer := time.AfterFunc(c.grace, func() {
		c.mu.Lock()
		c.n = 0
		c.mu.Unlock()
		c.cond.Broadcast()
	})
	defer timer.Stop()
	c.mu.Lock()
	for c.n > 0 {
		c.cond.Wait()
	}
	c.mu.Unlock()
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.pending[resp.ID] > 0 {
			c.pending[resp.ID]--
			if c.pending[resp.ID] == 0 {
				delete(c.pending, resp.ID)
			}
			if c.n > 0 {
				c.n--
			}
		}
		c.mu.Unlock()
		c.cond.Broadcast()
	}
	return err
}
