package main

import (
	"context"
	"flag"
	"fmt"
	"time"
)

var configShowCommand = &subcommand{
	name: "config show", args: "", summary: "print each A2ACLI_* setting's value and where it came from",
	about: `Prints the value every setting of the A2A CLI specification's options has now, and its source:
a flag, an environment variable (A2ACLI_ and the flag's name: A2ACLI_AGENT_CARD), a dotenv file
(--config FILE, else the nearest .env from here up, then a2aport/.env under the user config
directory), or the default; a flag wins over the environment, which wins over the files.
Credentials show as "(set)", never their value. It changes nothing: edit the files, or the
environment.`,
	examples: `$ a2aport config show
$ A2ACLI_AGENT_CARD=https://agent.example a2aport config show -o json
$ a2aport config show --config ./agent-a.env`,
	groups:   []flagGroup{agentFlagGroup, {"Settings", []string{"async", "context-id", "history", "metadata", "poll-interval", "task-id", "timeout", "wait"}}},
	operands: operandNone,
	flags:    func(fs *flag.FlagSet) { new(agentFlags).registerAll(fs) },
	run:      runConfigShow,
}

// registerAll is the agent's flags and every other setting's, so config show resolves them all.
func (f *agentFlags) registerAll(fs *flag.FlagSet) {
	f.register(fs)
	fs.Bool("async", false, "send's --async")
	fs.String("context-id", "", "send's --context-id")
	fs.Int("history", -1, "task get's --history")
	fs.String("metadata", "", "send's --metadata")
	fs.Duration("poll-interval", 2*time.Second, "the interval of a wait's asking")
	fs.String("task-id", "", "send's --task-id")
	fs.Duration("timeout", 0, "how long a wait may take")
	fs.Bool("wait", false, "task get's --wait")
}

func runConfigShow(_ context.Context, args []string, s streams) int {
	var f agentFlags
	pos, err := parseAgentArgs("config show", args, s, &f, f.registerAll)
	if err != nil {
		return usageCode(err)
	}
	if len(pos) > 0 {
		usageError(s.stderr, "config show", "takes no arguments")
		return exitUsage
	}
	type shown struct {
		Name   string `json:"name"`
		Env    string `json:"env"`
		Value  string `json:"value"`
		Source string `json:"source"`
	}
	var all []shown
	for _, st := range f.settings {
		all = append(all, shown{st.name, settingsEnv(st.name), st.shown(), st.source})
	}
	if f.output == "json" {
		_ = writeJSON(s.stdout, map[string]any{"settings": all, "files": dotenvFiles(f.config)})
		return exitOK
	}
	for _, sh := range all {
		field(s.stdout, sh.Name, fmt.Sprintf("%s (%s)", orDefault(sh.Value, `""`), sh.Source))
	}
	return exitOK
}
