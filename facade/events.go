package facade

import (
	"errors"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"

	"github.com/a2aport/a2aport"
)

// translate turns one Port event into the A2A event a caller sees, or nil for none.
func translate(ec *a2asrv.ExecutorContext, ev a2aport.Event) a2a.Event {
	switch ev.Type {
	case a2aport.EventActivity:
		if ev.State != a2aport.StateWorking || ev.Reconnecting || ev.Reconnected {
			// Submitted is the task itself, terminal states come with the outcome, and the Port's
			// own connection notices are no news of the task.
			return nil
		}
		return a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, agentMessage(ec, ev.Text))
	case a2aport.EventMessage:
		return a2a.NewStatusUpdateEvent(ec, a2a.TaskStateWorking, agentMessage(ec, ev.Text))
	case a2aport.EventArtifact:
		if ev.Artifact == nil {
			return nil
		}
		if ev.Delta != nil {
			out := a2a.NewArtifactUpdateEvent(ec, a2a.ArtifactID(ev.Artifact.ID), deltaParts(ev.Delta)...)
			return out
		}
		out := a2a.NewArtifactEvent(ec, parts(ev.Artifact.Parts)...)
		out.Artifact.ID, out.Artifact.Name, out.Artifact.Description = a2a.ArtifactID(ev.Artifact.ID), ev.Artifact.Name, ev.Artifact.Description
		return out
	}
	return nil
}

// finalStatus is the terminal status of a Work that ended with out or err.
func finalStatus(ec *a2asrv.ExecutorContext, out a2aport.Outcome, err error) a2a.Event {
	if err == nil {
		return a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, agentMessage(ec, statusText(out)))
	}
	state := a2a.TaskStateFailed
	switch a2aport.CodeOf(err) {
	case a2aport.CodeTaskRejected:
		state = a2a.TaskStateRejected
	case a2aport.CodeWorkCancelled:
		state = a2a.TaskStateCanceled
	}
	return a2a.NewStatusUpdateEvent(ec, state, agentMessage(ec, failureText(err)))
}

// failureText is what the task's final status says: the backend agent's own words when its task
// ended the Work (a gateway passes them on as they were said), else the port's error.
func failureText(err error) string {
	var e *a2aport.Error
	if errors.As(err, &e) && e.AgentText != "" {
		return e.AgentText
	}
	return err.Error()
}

// agentMessage is a message of the agent with one text part, or nil for no text.
func agentMessage(ec *a2asrv.ExecutorContext, text string) *a2a.Message {
	if text == "" {
		return nil
	}
	return a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(text))
}

// deltaParts are the parts an append adds: the continuation of the last part, then new parts.
func deltaParts(d *a2aport.ArtifactDelta) []*a2a.Part {
	var out []*a2a.Part
	if d.Text != "" {
		out = append(out, a2a.NewTextPart(d.Text))
	}
	if len(d.Raw) > 0 {
		out = append(out, a2a.NewRawPart(d.Raw))
	}
	return append(out, parts(d.Parts)...)
}

// parts turns the Port's artifact parts into A2A parts.
func parts(in []a2aport.Part) []*a2a.Part {
	out := make([]*a2a.Part, 0, len(in))
	for _, p := range in {
		var part *a2a.Part
		switch p.Type {
		case a2aport.PartText:
			part = a2a.NewTextPart(p.Text)
		case a2aport.PartRaw:
			part = a2a.NewRawPart(p.Raw)
		case a2aport.PartURL:
			part = a2a.NewFileURLPart(a2a.URL(p.URL), p.MediaType)
		case a2aport.PartData:
			part = a2a.NewDataPart(p.Data)
		default:
			continue
		}
		if p.MediaType != "" {
			part.MediaType = p.MediaType
		}
		part.Filename = p.Filename
		out = append(out, part)
	}
	return out
}
