package bench

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"

	"github.com/a2aport/a2aport"
	"github.com/a2aport/a2aport/facade"
	"github.com/a2aport/a2aport/funcport"
	"github.com/a2aport/a2aport/gateway"
)

// BenchmarkGatewayManySmallEvents: a backend whose Work sends N tiny events, status updates of a
// few characters or appended 16-byte chunks, then completes, through a gateway to a2a-go's client
// (one blocking message). (An agent written directly on a2a-go's server pays this growth itself:
// its store copies a task of one part per chunk on every event, 9.3 s for 2,000 chunks here.) N grows 500 → 4,000: the time per event is what to read, and its ratio
// to N = 500's says whether the cost of an event grows with the task (it did: 2,000 status
// updates took 8.7–19 s of CPU, 4,000 took 55.6 s).
// The -paced kinds leave a millisecond every 20 events, so that the gateway keeps up and merges
// few of them: each event then costs an a2a-go task update, and the CPU per event is what grows
// or not.
func BenchmarkGatewayManySmallEvents(b *testing.B) {
	port := funcport.New(func(ctx context.Context, w a2aport.Work, t *funcport.Turn) (a2aport.Outcome, error) {
		kind, count, _ := strings.Cut(w.Instruction, " ")
		n, _ := strconv.Atoi(count)
		for i := range n {
			if strings.HasPrefix(kind, "status") {
				t.Working(strconv.Itoa(i % 1000))
			} else {
				t.AppendText("report", "report", fmt.Sprintf("%015d ", i))
			}
			if strings.HasSuffix(kind, "paced") && i%20 == 19 {
				time.Sleep(time.Millisecond) // the gateway keeps up: few events queue to be merged
			}
		}
		return a2aport.Outcome{Content: "done"}, nil
	}, funcport.Options{Label: "chatty"})
	clients := benchClients(b, func(base string) http.Handler {
		g, err := gateway.New(gateway.Options{Facade: facade.Options{BaseURL: base, Name: "gateway"},
			Backends: []gateway.Backend{{Name: "chatty", Port: port}}, Default: "chatty"})
		if err != nil {
			b.Fatal(err)
		}
		g.Start(context.Background())
		b.Cleanup(func() { _ = g.Close() })
		return g
	}, 1)
	for _, kind := range []string{"status", "chunks", "status-paced", "chunks-paced"} {
		var first time.Duration // per event at the first size: the baseline of the ratio
		for _, n := range []int{500, 1000, 2000, 4000, 8000} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				var took, cpu time.Duration
				for range b.N {
					start, cpu0 := time.Now(), cpuTime()
					res, err := clients[0].SendMessage(context.Background(), &a2a.SendMessageRequest{
						Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.NewTextPart(fmt.Sprintf("%s %d", kind, n)))})
					if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
						b.Fatalf("SendMessage() = %+v, %v", res, err)
					}
					took, cpu = took+time.Since(start), cpu+cpuTime()-cpu0
				}
				perEvent := cpu / time.Duration(b.N*n) // the process's CPU: the gateway, its client, the Port
				if first == 0 {
					first = perEvent
				}
				b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "ms/task")
				b.ReportMetric(float64(perEvent.Nanoseconds())/1000, "µs-cpu/event")
				b.ReportMetric(float64(perEvent)/float64(first), "x-per-event-vs-500")
			})
		}
	}
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
