package facade

import "time"

// Limits bound what one request, one task and one caller may cost the facade. A zero field takes
// its default; a negative one turns the limit off. SECURITY.md gives the reasoning for each.
type Limits struct {
	// MaxRequestBytes bounds a request's body (default 8 MiB): 413.
	MaxRequestBytes int
	// MaxJSONDepth bounds how deep a request's JSON nests (default 100, as protobuf's JSON parser):
	// 400 before a2asrv decodes it.
	MaxJSONDepth int
	// MaxParts bounds the parts of one message (default 1,000): 400 before a2asrv decodes it.
	MaxParts int
	// BodyReadTimeout bounds the reading of a request's body (default 30 s), not its answer: a
	// body trickled in a byte at a time is cut, a stream answered for hours is not.
	BodyReadTimeout time.Duration
	// MaxTaskBytes bounds what one task's events carry (text, bytes and data of its messages and
	// artifacts; default 64 MiB): past it the Work is cancelled and the task fails, saying so.
	MaxTaskBytes int
	// MaxTasksPerCaller bounds a caller's Works at once, those waiting for input included
	// (default 64; per process in cluster mode): a new task past it is 429.
	MaxTasksPerCaller int
	// MaxStreamsPerCaller bounds a caller's open streams (SendStreamingMessage, SubscribeToTask,
	// their 0.3 forms; default 64): one more is 429.
	MaxStreamsPerCaller int
	// FinishedTaskRetention and MaxFinishedTasks bound the finished tasks kept in memory (one
	// process, not Cluster): a task that ended is dropped after the retention (default 1 h), and
	// the oldest ones beyond the count (default 10,000). A dropped task is "task not found".
	FinishedTaskRetention time.Duration
	MaxFinishedTasks      int
	// MaxFinishedBytes and MaxFinishedBytesPerCaller bound what the finished tasks kept in memory
	// carry (text, bytes and data of their messages and artifacts; defaults 256 MiB in all and
	// 64 MiB per caller): past either, the oldest finished tasks (the caller's own, for its bound;
	// never the one that just finished) are dropped first.
	MaxFinishedBytes          int
	MaxFinishedBytesPerCaller int
}

// Defaults of Limits.
const (
	DefaultMaxRequestBytes           = 8 << 20
	DefaultMaxJSONDepth              = 100
	DefaultMaxParts                  = 1000
	DefaultBodyReadTimeout           = 30 * time.Second
	DefaultMaxTaskBytes              = 64 << 20
	DefaultMaxTasksPerCaller         = 64
	DefaultMaxStreamsPerCaller       = 64
	DefaultFinishedTaskRetention     = time.Hour
	DefaultMaxFinishedTasks          = 10_000
	DefaultMaxFinishedBytes          = 256 << 20
	DefaultMaxFinishedBytesPerCaller = 64 << 20
)

// withDefaults is l with every zero field at its default and negative ones at -1 (off).
func (l Limits) withDefaults() Limits {
	ints := []struct {
		v   *int
		def int
	}{
		{&l.MaxRequestBytes, DefaultMaxRequestBytes}, {&l.MaxJSONDepth, DefaultMaxJSONDepth}, {&l.MaxParts, DefaultMaxParts},
		{&l.MaxTaskBytes, DefaultMaxTaskBytes}, {&l.MaxTasksPerCaller, DefaultMaxTasksPerCaller},
		{&l.MaxStreamsPerCaller, DefaultMaxStreamsPerCaller}, {&l.MaxFinishedTasks, DefaultMaxFinishedTasks},
		{&l.MaxFinishedBytes, DefaultMaxFinishedBytes}, {&l.MaxFinishedBytesPerCaller, DefaultMaxFinishedBytesPerCaller},
	}
	for _, f := range ints {
		switch {
		case *f.v == 0:
			*f.v = f.def
		case *f.v < 0:
			*f.v = -1
		}
	}
	durations := []struct {
		v   *time.Duration
		def time.Duration
	}{{&l.BodyReadTimeout, DefaultBodyReadTimeout}, {&l.FinishedTaskRetention, DefaultFinishedTaskRetention}}
	for _, f := range durations {
		switch {
		case *f.v == 0:
			*f.v = f.def
		case *f.v < 0:
			*f.v = -1
		}
	}
	return l
}
