package a2asrvx

import (
	"fmt"
	"testing"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// TestTidyBoundsHistory: a task whose agent sent thousands of status messages keeps its request
// and the last MaxHistory-1 messages.
func TestTidyBoundsHistory(t *testing.T) {
	task := &a2a.Task{ID: "t"}
	for i := range 3*MaxHistory + 7 {
		m := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(fmt.Sprint(i)))
		m.ID = fmt.Sprint("m", i)
		task.History = append(task.History, m)
	}
	Tidy(&taskstore.UpdateRequest{Task: task, Event: a2a.NewStatusUpdateEvent(task, a2a.TaskStateWorking, nil)})
	h := task.History
	if len(h) != MaxHistory || h[0].ID != "m0" || h[1].ID != fmt.Sprint("m", 2*MaxHistory+8) || h[len(h)-1].ID != fmt.Sprint("m", 3*MaxHistory+6) {
		t.Errorf("history of %d: first %s, second %s, last %s", len(h), h[0].ID, h[1].ID, h[len(h)-1].ID)
	}
}
