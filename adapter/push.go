package adapter

import (
	"errors"
	"io"
	"net/http"

	"github.com/a2aport/a2aport"
)

// PushHandler is the http.Handler of Options.PushWebhookURL for p, an adapter of this package or
// of package host (a2aport.PushReceiver): each POST is handed to p.ReceivePush and answered 200,
// or with the status of its refusal. Serve it at the path of the webhook URL:
//
//	port, _ := adapter.New(a2aport.Options{AgentCardURL: card, PushWebhookURL: "https://me.example/a2a-push"})
//	http.Handle("POST /a2a-push", adapter.PushHandler(port))
//
// It panics when p cannot receive pushes: a Port of one's own has no Works an agent pushes for.
func PushHandler(p a2aport.Port) http.Handler {
	receiver, ok := p.(a2aport.PushReceiver)
	if !ok {
		panic("adapter.PushHandler: the Port is not an a2aport A2A client (a2aport.PushReceiver)")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "a push notification is a POST", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a2aport.MaxPushBytes))
		if err != nil {
			status := http.StatusBadRequest
			if _, tooLarge := errors.AsType[*http.MaxBytesError](err); tooLarge {
				status = http.StatusRequestEntityTooLarge
			}
			http.Error(w, "the push could not be read", status)
			return
		}
		if err := receiver.ReceivePush(r.Context(), r.Header, body); err != nil {
			status, message := http.StatusBadRequest, err.Error()
			if e, ok := errors.AsType[*a2aport.Error](err); ok {
				message = e.Message
				if e.Status != 0 {
					status = e.Status
				}
			}
			http.Error(w, message, status)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}
