// Package funcport builds an a2aport.Port from one function: the code of a Work. The Port keeps
// the BackendPort contract around it (validation, one outcome per Work, status, cancel, questions
// and answers, listeners, close), so the function holds only what is its own, and a method the
// contract gains later never breaks it. Serve the Port as an A2A agent with package facade, or
// put it behind a gateway as one of its backends.
//
//	port := funcport.New(func(ctx context.Context, w a2aport.Work, t *funcport.Turn) (a2aport.Outcome, error) {
//		name, err := t.Ask(ctx, "What is your name?")
//		if err != nil {
//			return a2aport.Outcome{}, err
//		}
//		t.AppendText("greeting", "greeting", "Hello, "+name.Text+"!")
//		return a2aport.Outcome{Content: "Greeted " + name.Text}, nil
//	}, funcport.Options{Label: "greeter"})
//	handler, err := facade.New(port, facade.Options{BaseURL: "https://agents.example.com"})
//
// The Work's context ends when it is cancelled, its caller gives up or the Port closes; a function
// that ignores it does not hold the Work's end back. A Work does not outlive its Port: Resume
// finds nothing, and Detach is Close.
package funcport
