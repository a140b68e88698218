package host

import (
	"context"
	"net/http"

	"github.com/a2aport/a2aport"

	"github.com/a2aport/a2aport/internal/abi"
)

var _ a2aport.PushReceiver = (*Adapter)(nil)

// ReceivePush implements a2aport.PushReceiver: the request crosses to the module, which finds its
// Work, less the credentials a webhook's request may carry for the application's own server
// (DESIGN.md §4: credentials never enter the module).
func (h *Adapter) ReceivePush(ctx context.Context, header http.Header, body []byte) error {
	if h.isClosed() {
		return &a2aport.Error{Code: a2aport.CodePushRefused, Status: http.StatusUnauthorized, Message: "the adapter is closed: no Work waits for a push"}
	}
	if len(body) > a2aport.MaxPushBytes {
		return &a2aport.Error{Code: a2aport.CodePushRefused, Status: http.StatusRequestEntityTooLarge, Message: "the push is too large"}
	}
	d, err := h.driver(ctx)
	if err != nil {
		return err
	}
	kept := header.Clone()
	for _, name := range []string{"Authorization", "Proxy-Authorization", "Cookie"} {
		kept.Del(name)
	}
	if body == nil {
		body = []byte{}
	}
	pc, err := d.startWith(abi.Envelope{Method: abi.MethodReceivePush, Headers: kept}, body, nil)
	if err != nil {
		return err
	}
	select {
	case res := <-pc.done:
		return res.Error.AdapterError()
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
