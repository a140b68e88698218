package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/a2aport/a2aport"
)

// A Work's record is deleted when it ends, so that `status` lists what runs; what ended is kept
// apart, the last of it only, so that `status` can also say how the Works it listed before ended.
// Only Works that were recorded (send --keep or --detach, resume) are: the specification's CLI
// keeps no state, and neither does a2aport's send unless asked.

// endedWork is one Work that ended, as `status` lists it.
type endedWork struct {
	WorkID       string            `json:"workId"`
	RemoteTaskID string            `json:"remoteTaskId,omitempty"`
	Agent        string            `json:"agent"`
	State        a2aport.WorkState `json:"state"`
	Error        string            `json:"error,omitempty"` // the code of an end that is no task's state
	Ended        time.Time         `json:"ended"`
}

// endedShown is how many ended Works status lists; endedKept how many lines the file may hold
// before it is cut back to endedShown.
const (
	endedShown = 10
	endedKept  = 100
)

// endedPath is the file of ended Works, beside the folders of running ones.
func endedPath() (string, error) {
	root, err := worksRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "ended.jsonl"), nil
}

// endOf is how a Work that settled with err ended: its state, or the code of an error that is no
// end of its task (the Work stopped following it: the task may go on at the agent).
func endOf(err error) (a2aport.WorkState, string) {
	switch code := a2aport.CodeOf(err); {
	case err == nil:
		return a2aport.StateCompleted, ""
	case code == a2aport.CodeTaskFailed:
		return a2aport.StateFailed, ""
	case code == a2aport.CodeTaskRejected:
		return a2aport.StateRejected, ""
	case code == a2aport.CodeWorkCancelled:
		return a2aport.StateCancelled, ""
	default:
		return a2aport.StateNotFound, string(code)
	}
}

// noteEnded adds w to the ended Works, best-effort: a file that cannot be written costs the list a
// line, never the command its result. Each line is one write to a file opened for appending, so
// that two processes ending Works at once do not mix their lines.
func noteEnded(w endedWork) {
	path, err := endedPath()
	if err != nil {
		return
	}
	line, err := json.Marshal(w)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return
	}
	_, _ = f.Write(append(line, '\n'))
	_ = f.Close()
	if all := readEnded(path); len(all) > endedKept {
		keepEnded(path, all[len(all)-endedShown:])
	}
}

// endedWorks are the last Works that ended, the most recent first.
func endedWorks() []endedWork {
	path, err := endedPath()
	if err != nil {
		return nil
	}
	all := readEnded(path)
	if len(all) > endedShown {
		all = all[len(all)-endedShown:]
	}
	out := make([]endedWork, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		out = append(out, all[i])
	}
	return out
}

// readEnded reads the file's lines, oldest first, skipping one that does not read (a write cut
// short by a crash).
func readEnded(path string) []endedWork {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []endedWork
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var w endedWork
		if json.Unmarshal(sc.Bytes(), &w) == nil && w.WorkID != "" {
			out = append(out, w)
		}
	}
	return out
}

// keepEnded replaces the file with works, through a file renamed over it: a reader sees the old
// list or the new one.
func keepEnded(path string, works []endedWork) {
	var buf bytes.Buffer
	for _, w := range works {
		line, _ := json.Marshal(w)
		buf.Write(append(line, '\n'))
	}
	tmp := path + ".tmp"
	if os.WriteFile(tmp, buf.Bytes(), 0o600) == nil {
		_ = os.Rename(tmp, path)
	}
}
