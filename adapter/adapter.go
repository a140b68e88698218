package adapter

import (
	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/internal/a2aclient"
)

// New returns the native A2A client as a Port: opts validated (an *a2aport.Error with
// INVALID_OPTIONS says what is wrong), nothing sent yet. Discovery happens on Start or on the
// first Submit.
func New(opts a2aport.Options) (a2aport.Port, error) {
	a, err := a2aclient.New(opts)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// ReadCard reads an Agent Card as discovery does: in the shapes the SDKs really write (1.0, and
// 0.3 in a build that speaks it), optional parts that cannot be read dropped and named in notes.
// Tools that show a card (the a2aport command, the gateway's skills) use it; a Port needs only
// Options.AgentCardURL.
func ReadCard(body []byte) (card *a2a.AgentCard, notes []string, err error) {
	return a2aclient.ReadCard(body)
}
