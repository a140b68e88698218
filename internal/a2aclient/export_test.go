package a2aclient

import (
	"github.com/a2aport/a2aport"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// The outcome builder, for tests of package a2aclient_test: they may import internal/abi, which
// imports this package, and so hold the builder to what a host rebuilds.

type OutcomeBuilder struct{ b *outcomeBuilder }

type TrackedArtifact = trackedArtifact

func NewOutcomeBuilder(pieces *[]ContentPiece) OutcomeBuilder {
	return OutcomeBuilder{newOutcomeBuilder(pieces)}
}

func (o OutcomeBuilder) Chunk(ev *a2a.TaskArtifactUpdateEvent) *TrackedArtifact { return o.b.chunk(ev) }
func (o OutcomeBuilder) Snapshot(task *a2a.Task) []*TrackedArtifact             { return o.b.snapshot(task) }
func (o OutcomeBuilder) Outcome() a2aport.Outcome                               { return o.b.outcome() }
func (o OutcomeBuilder) SetStatus(text string)                                  { o.b.status = text }
func (o OutcomeBuilder) Order() []string                                        { return o.b.order }
func (o OutcomeBuilder) Parts(id string) []a2aport.Part                         { return o.b.artifacts[id].parts.Items() }

func (t *trackedArtifact) Event() (*a2aport.Artifact, *a2aport.ArtifactDelta) { return t.event() }
