package main

import (
	"context"
	"flag"
	"strconv"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

var pushConfigCommand = &subcommand{
	name: "task push-config", args: "create|get|list|delete TASK_ID [CONFIG_ID]", summary: "manage where an agent pushes a task's updates",
	about: `Creates, shows, lists or deletes the push notification configurations of a task at its agent
(A2A's push config operations): create gives the webhook --url (and --token, which the agent
sends back with each update); get and delete name the configuration by its id. -o json prints
the protocol's objects (the configuration; list: one document of them, --stream one a line).
The agent's card must say it pushes (capabilities.pushNotifications): a2aport asks first.`,
	examples: `$ a2aport task push-config create -a https://agent.example 01a236ef-… --url https://hooks.example/a2a --token s3cret
$ a2aport task push-config list -a https://agent.example 01a236ef-… -o json
$ a2aport task push-config delete -a https://agent.example 01a236ef-… 5b7e…`,
	groups:   []flagGroup{{"Push config", []string{"url", "token", "id", "stream"}}, agentFlagGroup},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(pushConfigFlags).register(fs) },
	run:      interruptible(runPushConfig),
}

type pushConfigFlags struct {
	agent  agentFlags
	url    string
	token  string
	id     string
	stream bool
}

func (f *pushConfigFlags) register(fs *flag.FlagSet) {
	f.agent.register(fs)
	fs.StringVar(&f.url, "url", "", "create: the webhook `URL` the agent posts updates to")
	fs.StringVar(&f.token, "token", "", "create: a `token` the agent sends back with each update")
	fs.StringVar(&f.id, "id", "", "create: the configuration's `id` (default: the agent's choice)")
	fs.BoolVar(&f.stream, "stream", false, "list with -o json: one configuration a line")
}

// runPushConfig carries out one push config operation.
func runPushConfig(ctx context.Context, args []string, s streams) int {
	var f pushConfigFlags
	pos, err := parseAgentArgs("task push-config", args, s, &f.agent, f.register)
	if err != nil {
		return usageCode(err)
	}
	asJSON := f.agent.output == "json"
	usage := func(msg string) int {
		return report(s, asJSON, &cliError{code: errUsage, message: msg, exit: exitUsage})
	}
	if len(pos) < 2 {
		return usage("want create, get, list or delete, and the task id")
	}
	op, task := pos[0], a2a.TaskID(pos[1])
	switch {
	case op != "create" && op != "get" && op != "list" && op != "delete":
		return usage("want create, get, list or delete, not " + strconv.Quote(op))
	case (op == "get" || op == "delete") && len(pos) != 3:
		return usage(op + " wants the task id and the configuration's id")
	case (op == "create" || op == "list") && len(pos) != 2:
		return usage(op + " wants the task id alone")
	case op == "create" && f.url == "":
		return usage("create wants --url")
	}
	conn, err := f.agent.dial(ctx, f.agent.agentCard, s.stderr)
	if err != nil {
		return report(s, asJSON, classify(err, nil, f.agent.hasCredentials()))
	}
	if !conn.card.Capabilities.PushNotifications { // SPEC.md §13.3: the card says first
		return report(s, asJSON, &cliError{code: "PushNotificationNotSupportedError", exit: exitError,
			message: "the agent's card says it does not push notifications (capabilities.pushNotifications)"})
	}
	fail := func(err error) int { return report(s, asJSON, classify(err, conn, f.agent.hasCredentials())) }
	switch op {
	case "create":
		cfg, err := conn.CreateTaskPushConfig(ctx, &a2a.PushConfig{TaskID: task, ID: f.id, URL: f.url, Token: f.token})
		if err != nil {
			return fail(err)
		}
		writePushConfigs(s, asJSON, false, cfg)
	case "get":
		cfg, err := conn.GetTaskPushConfig(ctx, &a2a.GetTaskPushConfigRequest{TaskID: task, ID: pos[2]})
		if err != nil {
			return fail(err)
		}
		writePushConfigs(s, asJSON, false, cfg)
	case "list":
		cfgs, err := conn.ListTaskPushConfigs(ctx, &a2a.ListTaskPushConfigRequest{TaskID: task})
		if err != nil {
			return fail(err)
		}
		if asJSON && !f.stream {
			_ = writeJSON(s.stdout, map[string]any{"configs": cfgs})
			return exitOK
		}
		writePushConfigs(s, asJSON, true, cfgs...)
	case "delete":
		if err := conn.DeleteTaskPushConfig(ctx, &a2a.DeleteTaskPushConfigRequest{TaskID: task, ID: pos[2]}); err != nil {
			return fail(err)
		}
		if asJSON {
			_ = writeJSON(s.stdout, map[string]any{})
		} else {
			field(s.stdout, "Task", string(task))
			field(s.stdout, "Deleted", pos[2])
		}
	}
	return exitOK
}

// writePushConfigs writes configurations: each a JSON line, or its fields (the token is the
// caller's secret: shown as set, not by value).
func writePushConfigs(s streams, asJSON, list bool, cfgs ...*a2a.PushConfig) {
	if list && !asJSON {
		field(s.stdout, "Configs", strconv.Itoa(len(cfgs)))
	}
	for _, c := range cfgs {
		if asJSON {
			_ = writeJSON(s.stdout, c)
			continue
		}
		if list {
			s.stdout.Write([]byte("\n")) //nolint:errcheck // as every write of the output
		}
		field(s.stdout, "Task", string(c.TaskID))
		field(s.stdout, "Config", c.ID)
		field(s.stdout, "URL", c.URL)
		if c.Token != "" {
			field(s.stdout, "Token", "(set)")
		}
	}
}
