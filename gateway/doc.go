// Package gateway serves many backends behind one A2A endpoint: a catalogue of adapter.Ports
// (remote A2A agents through adapter.New, or Ports of your own), one card whose skills are the
// available backends' own, and each message routed to the backend it names.
//
// A message names its backend by a skill of the card (message metadata "skill", the skill's id
// "backend/skill") or by name (metadata "backend", or a "backend" field in a data part); the
// Router hook may decide first, and Default takes the rest. A message that names no backend the
// gateway can serve is refused with invalid params, naming the ones it can, and no task is made.
// A backend that cannot be discovered at Start is unavailable, retried with backoff, and its
// skills stay off the card until it is back. GET /backends lists them; GET /healthz says the
// process is up and GET /readyz whether any backend is available.
//
//	weather, _ := adapter.New(a2aport.Options{AgentCardURL: "https://weather.example/.well-known/agent-card.json"})
//	g, err := gateway.New(gateway.Options{
//		Facade:   facade.Options{BaseURL: "https://agents.example", Name: "agents"},
//		Backends: []gateway.Backend{{Name: "weather", Port: weather, CardURL: "https://weather.example/.well-known/agent-card.json"}},
//		Default:  "weather",
//	})
//	g.Start(ctx)
//	http.ListenAndServe(":8080", g)
package gateway
