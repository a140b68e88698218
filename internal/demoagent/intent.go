package demoagent

import (
	"strings"
	"unicode"

	"github.com/a2aproject/a2a-go/v2/a2a"
)

// conversation is what the agent knows about a task when a turn starts: the user's request, the
// answers the user gave to the agent's questions, the files that came with them, and what the
// agent remembers from earlier tasks of the same context.
type conversation struct {
	request string      // text of the task's first message
	answers []string    // texts of the later user messages, oldest first
	files   []*a2a.Part // non-text parts of every user message, in order
	earlier string      // topic of the previous report in this context, if any
	bearer  bool        // the request carried an Authorization header
}

// jobKind says what the agent does with a conversation.
type jobKind int

const (
	jobReport  jobKind = iota // a markdown brief on one topic
	jobCompare                // a markdown comparison of two things
	jobFiles                  // a review of the attached files
	jobFail                   // the demo's error path
	jobAsk                    // the request is ambiguous: ask the user
)

// job is the agent's plan for one turn.
type job struct {
	kind     jobKind
	topic    string    // jobReport, jobFiles (may be empty)
	pair     [2]string // jobCompare
	long     bool      // a slow, eight-section report
	more     bool      // a follow-up on the context's earlier topic
	question string    // jobAsk
}

// Questions the agent asks when a request is ambiguous.
const (
	AskTopic      = "That is a little short for a report. What should it be about? For example: “the history of the web”."
	AskTopicAgain = "I still need a subject for the report. Give me a few words, for example “ocean currents”."
	AskPair       = "Which two things should I compare? Name them like “tea and coffee” or “Go vs Rust”."
	AskPairAgain  = "I still need two things joined by “and”, “vs” or “or”, for example “trains vs planes”."
)

// minRequestWords is the length below which a request without files is too vague to act on.
const minRequestWords = 3

// plan decides what the agent does with c. The rules are deliberately simple and documented on
// the agent card, so a person trying the demo can steer it.
func plan(c conversation) job {
	words := wordsOf(c.request)
	long := hasWord(words, "slow") || hasWord(words, "long")
	switch {
	case hasWord(words, "fail"):
		return job{kind: jobFail}
	case len(c.files) > 0:
		return job{kind: jobFiles, topic: topicOf(c.request)}
	case hasWord(words, "compare"):
		if pair, ok := pairOf(afterWord(c.request, "compare")); ok {
			return job{kind: jobCompare, pair: pair, long: long}
		}
		for i := len(c.answers) - 1; i >= 0; i-- {
			if pair, ok := pairOf(c.answers[i]); ok {
				return job{kind: jobCompare, pair: pair, long: long}
			}
		}
		return job{kind: jobAsk, question: again(c.answers, AskPair, AskPairAgain)}
	case len(words) >= minRequestWords:
		return job{kind: jobReport, topic: topicOf(c.request), long: long}
	case c.earlier != "" && asksForMore(words):
		return job{kind: jobReport, topic: c.earlier, long: long, more: true}
	}
	for i := len(c.answers) - 1; i >= 0; i-- {
		if topic := topicOf(c.answers[i]); topic != "" {
			return job{kind: jobReport, topic: topic, long: long}
		}
	}
	return job{kind: jobAsk, question: again(c.answers, AskTopic, AskTopicAgain)}
}

// again picks the second wording of a question once the user has answered it unusably.
func again(answers []string, first, second string) string {
	if len(answers) > 0 {
		return second
	}
	return first
}

// wordsOf splits text into lowercase words without surrounding punctuation.
func wordsOf(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.TrimFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if w != "" {
			out = append(out, w)
		}
	}
	return out
}

func hasWord(words []string, want string) bool {
	for _, w := range words {
		if w == want {
			return true
		}
	}
	return false
}

// continuations are short requests that continue the previous topic of a conversation.
var continuations = []string{"more", "continue", "again", "next", "elaborate", "deeper", "go"}

func asksForMore(words []string) bool {
	for _, w := range continuations {
		if hasWord(words, w) {
			return true
		}
	}
	return false
}

// fillers are the words a request starts with before its subject ("write a short report on ...").
var fillers = map[string]bool{
	"a": true, "an": true, "the": true, "please": true, "can": true, "could": true, "you": true,
	"i": true, "we": true, "want": true, "need": true, "would": true, "like": true, "to": true,
	"me": true, "us": true, "write": true, "draft": true, "make": true, "create": true, "give": true,
	"tell": true, "explain": true, "summarize": true, "summarise": true, "describe": true,
	"review": true, "outline": true, "prepare": true, "report": true, "brief": true, "summary": true,
	"overview": true, "note": true, "notes": true, "short": true, "quick": true, "long": true,
	"slow": true, "detailed": true, "thorough": true, "on": true, "about": true, "of": true,
	"for": true, "regarding": true, "these": true, "this": true, "that": true, "files": true,
	"file": true, "attachment": true, "attachments": true, "compare": true, "some": true,
}

// topicOf is the subject of a request: its words after the leading fillers, without trailing
// punctuation, in the user's own spelling.
func topicOf(text string) string {
	fields := strings.Fields(text)
	for len(fields) > 0 {
		w := wordsOf(fields[0])
		if len(w) == 1 && !fillers[w[0]] || len(w) > 1 {
			break
		}
		fields = fields[1:]
	}
	for len(fields) > 0 {
		if w := wordsOf(fields[len(fields)-1]); len(w) == 1 && trailers[w[0]] {
			fields = fields[:len(fields)-1]
			continue
		}
		break
	}
	return strings.TrimRight(strings.Join(fields, " "), " .!?;:,")
}

// trailers are polite words a request may end with.
var trailers = map[string]bool{"please": true, "thanks": true, "thx": true}

// pairOf finds two things to compare: "tea and coffee", "Go vs Rust", "trains or planes",
// "cats versus dogs", "A with B". Fillers before the first thing are dropped.
func pairOf(text string) ([2]string, bool) {
	text = topicOf(text)
	lower := strings.ToLower(text)
	for _, sep := range []string{" versus ", " vs. ", " vs ", " and ", " or ", " with ", " to "} {
		i := strings.Index(lower, sep)
		if i < 0 {
			continue
		}
		a := strings.TrimSpace(text[:i])
		b := strings.TrimSpace(text[i+len(sep):])
		if a != "" && b != "" {
			return [2]string{a, b}, true
		}
	}
	return [2]string{}, false
}

// afterWord is the part of text after the first occurrence of the word w (any case).
func afterWord(text, w string) string {
	fields := strings.Fields(text)
	for i, f := range fields {
		if got := wordsOf(f); len(got) == 1 && got[0] == w {
			return strings.Join(fields[i+1:], " ")
		}
	}
	return text
}
