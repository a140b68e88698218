package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/a2aport/a2aport"
)

// target is the Work a command acts on: a recorded one, or a task named with its agent's URL
// (recorded false: nothing of a2aport's knows it).
type target struct {
	savedWork
	recorded bool
}

// parseTarget reads ID, or URL TASK.
func parseTarget(pos []string) (target, error) {
	switch len(pos) {
	case 1:
		w, err := findWork(pos[0])
		return target{savedWork: w, recorded: true}, err
	case 2:
		card, err := cardURL(pos[0])
		if err != nil {
			return target{}, err
		}
		if strings.TrimSpace(pos[1]) == "" {
			return target{}, errors.New("the task id is empty")
		}
		rec := a2aport.WorkRecord{WorkID: "cli-" + randomID(), OwnerID: "cli", RemoteTaskID: pos[1], State: a2aport.StateWorking}
		return target{savedWork: savedWork{WorkRecord: rec, Card: card}}, nil
	}
	return target{}, errors.New("want the Work's id (or its task id), or the agent's URL and a task id")
}

// inMemory is a WorkStore holding the record of a task that a2aport did not record (URL TASK):
// status and cancel act on it and leave nothing behind.
func (t target) inMemory() a2aport.WorkStore {
	mem := &a2aport.MemoryWorkStore{}
	_ = mem.Set(context.Background(), t.WorkRecord) // never fails
	return mem
}

// work is the target as the Port knows it.
func (t target) work() a2aport.Work { return a2aport.Work{ID: t.WorkID, OwnerID: t.OwnerID} }

// listWorksCode is taskCommand's answer to status without arguments: list the recorded Works.
const listWorksCode = -1

// taskCommand parses the target of status, cancel or resume, its flags parsed with register. ok
// false: the command ends with code (its help was shown, a mistake said).
func taskCommand(name string, args []string, s streams, conn *connection, register func(*flag.FlagSet)) (t target, opts a2aport.Options, code int, ok bool) {
	pos, err := parseArgs(name, args, s, register)
	if err != nil {
		return t, opts, usageCode(err), false
	}
	if name == "status" && len(pos) == 0 {
		return t, opts, listWorksCode, false
	}
	if t, err = parseTarget(pos); errors.Is(err, errNoSuchWork) {
		fmt.Fprintf(s.stderr, "a2aport %s: %v\n", name, err)
		return t, opts, exitError, false
	}
	if err != nil {
		usageError(s.stderr, name, err.Error())
		return t, opts, exitUsage, false
	}
	if opts, err = conn.options(t.Card); err != nil {
		fmt.Fprintln(s.stderr, "a2aport:", err)
		return t, opts, exitUsage, false
	}
	return t, opts, exitOK, true
}

// noAnswer is the error of an agent that did not answer within --wait: a timeout (exit 5).
func noAnswer(msg string) error { return &a2aport.Error{Code: a2aport.CodeTimeout, Message: msg} }
