// Package faultproxy is a TCP proxy for tests that fails the way networks fail: it resets a
// connection before the answer, cuts an answer after some bytes, lets it go silent with the
// connection open, slows every chunk, or takes the agent off the network altogether. It works
// below HTTP, so what the client sees is what a dropped NAT mapping, a crashed proxy or an
// unplugged cable give it, not what a handler chose to write.
//
//	p := faultproxy.Start(t, agentAddr)            // 127.0.0.1:PORT → agentAddr
//	p.Plan(func(n int) faultproxy.Fault {          // connection n (1, 2, ...)
//		return faultproxy.Fault{CutAfter: 4096}     // the answer ends after 4 kB
//	})
//	p.Down()                                       // refused from now on, open connections cut
package faultproxy

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Fault is what happens to one connection. The zero Fault passes everything through.
type Fault struct {
	// Reset closes the connection with a TCP reset once the client has sent its first bytes,
	// before any byte of the answer.
	Reset bool
	// CutAfter ends the connection (a reset) after this many bytes of the answer; 0: never.
	CutAfter int
	// Stall stops passing the answer on after StallAfter bytes (0: before the first); the
	// connection stays open and silent until the client leaves.
	Stall      bool
	StallAfter int
	// Latency delays every chunk, either way.
	Latency time.Duration
}

// Proxy forwards 127.0.0.1:PORT to a target address, breaking connections as planned.
type Proxy struct {
	target string
	addr   string

	mu      sync.Mutex
	ln      net.Listener
	plan    func(n int) Fault
	conns   map[net.Conn]bool
	count   int
	down    bool
	stopped bool
	wg      sync.WaitGroup
}

// Start listens on a free loopback port until the test ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{target: target, addr: ln.Addr().String(), ln: ln, conns: map[net.Conn]bool{}}
	p.serve(ln)
	t.Cleanup(p.stop)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Plan sets the fault of each connection accepted from now on, by its number (from 1).
func (p *Proxy) Plan(plan func(n int) Fault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plan = plan
}

// Connections is how many connections the proxy accepted.
func (p *Proxy) Connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

// Down takes the target off the network: new connections are refused (nothing listens) and
// open ones are reset.
func (p *Proxy) Down() {
	p.mu.Lock()
	if p.down || p.stopped {
		p.mu.Unlock()
		return
	}
	p.down = true
	ln := p.ln
	p.ln = nil
	p.mu.Unlock()
	_ = ln.Close() // a closed port refuses: that is the point
	p.CutAll()
}

// Up listens again on the same address after Down.
func (p *Proxy) Up() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.down || p.stopped {
		return nil
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return err
	}
	p.down, p.ln = false, ln
	p.serveLocked(ln)
	return nil
}

// CutAll resets every open connection.
func (p *Proxy) CutAll() {
	p.mu.Lock()
	conns := make([]net.Conn, 0, len(p.conns))
	for c := range p.conns {
		conns = append(conns, c)
	}
	p.mu.Unlock()
	for _, c := range conns {
		reset(c)
	}
}

func (p *Proxy) stop() {
	p.mu.Lock()
	p.stopped = true
	ln := p.ln
	p.mu.Unlock()
	if ln != nil {
		_ = ln.Close()
	}
	p.CutAll()
	p.wg.Wait()
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.serveLocked(ln)
}

func (p *Proxy) serveLocked(ln net.Listener) {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			client, err := ln.Accept()
			if err != nil {
				return // closed: Down or the end of the test
			}
			p.mu.Lock()
			p.count++
			fault := Fault{}
			if p.plan != nil {
				fault = p.plan(p.count)
			}
			p.conns[client] = true
			p.wg.Add(1)
			p.mu.Unlock()
			go func() {
				defer p.wg.Done()
				p.relay(client, fault)
				p.mu.Lock()
				delete(p.conns, client)
				p.mu.Unlock()
			}()
		}
	}()
}

// relay carries one connection to the target and back, with its fault.
func (p *Proxy) relay(client net.Conn, f Fault) {
	defer func() { _ = client.Close() }()
	upstream, err := net.Dial("tcp", p.target)
	if err != nil {
		reset(client)
		return
	}
	p.mu.Lock()
	p.conns[upstream] = true
	p.mu.Unlock()
	defer func() {
		_ = upstream.Close()
		p.mu.Lock()
		delete(p.conns, upstream)
		p.mu.Unlock()
	}()
	clientDone, agentDone := make(chan struct{}), make(chan struct{})
	stalled := false // written by the agent's side before agentDone closes
	go func() {      // the client's side: requests
		defer close(clientDone)
		buf := make([]byte, 32<<10)
		for {
			n, err := client.Read(buf)
			if n > 0 && f.Reset {
				reset(client)
				return
			}
			if n > 0 {
				time.Sleep(f.Latency)
				if _, werr := upstream.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				if tcp, ok := upstream.(*net.TCPConn); ok && errors.Is(err, io.EOF) {
					_ = tcp.CloseWrite()
				}
				return
			}
		}
	}()
	go func() { // the agent's side: answers
		defer close(agentDone)
		buf := make([]byte, 32<<10)
		sent := 0
		for {
			n, err := upstream.Read(buf)
			chunk := buf[:n]
			if f.CutAfter > 0 && sent+len(chunk) >= f.CutAfter {
				_, _ = client.Write(chunk[:f.CutAfter-sent])
				reset(client)
				return
			}
			if f.Stall && sent+len(chunk) >= f.StallAfter && (n > 0 || err != nil) {
				_, _ = client.Write(chunk[:max(f.StallAfter-sent, 0)])
				stalled = true
				_, _ = io.Copy(io.Discard, upstream) // silent from here on
				return
			}
			if n > 0 {
				time.Sleep(f.Latency)
				if _, werr := client.Write(chunk); werr != nil {
					return
				}
				sent += n
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-clientDone:
	case <-agentDone:
		if stalled {
			<-clientDone // silent and open until the client leaves
		}
	}
}

// reset closes c with a TCP reset (no orderly end), as a crashed peer or a dropped path does.
func reset(c net.Conn) {
	if tcp, ok := c.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	_ = c.Close()
}
