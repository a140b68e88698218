package demoagent

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// report is a markdown document the agent streams one section at a time.
type report struct {
	title    string
	intro    string
	sections []section
}

// section is one streamed chunk of a report.
type section struct {
	title string
	body  string
}

// chunk is the markdown of section i; the first chunk carries the title and introduction.
func (r report) chunk(i int) string {
	var b strings.Builder
	if i == 0 {
		fmt.Fprintf(&b, "# %s\n\n%s\n\n", r.title, r.intro)
	}
	s := r.sections[i]
	fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.title, strings.TrimSpace(s.body))
	return b.String()
}

// words counts the words of the whole report.
func (r report) words() int {
	n := len(strings.Fields(r.title)) + len(strings.Fields(r.intro))
	for _, s := range r.sections {
		n += len(strings.Fields(s.title)) + len(strings.Fields(s.body))
	}
	return n
}

// briefReport is the report on one topic: four sections, eight when long. A follow-up ("more")
// brings the four sections a short brief leaves out.
func briefReport(j job, c conversation) report {
	t := "**" + j.topic + "**"
	core := []section{
		{"Summary", "This brief looks at " + t + " from four angles: what it is about, why it matters now, " +
			"what is still unclear and what to do next. A scripted demo agent wrote it, so treat it as a " +
			"frame to fill in rather than as research."},
		{"Key points", "- **Scope**: say which part of " + t + " is in question; most disagreements are about scope.\n" +
			"- **Evidence**: keep what was measured apart from what was assumed, with a source next to each claim.\n" +
			"- **Trade-offs**: every option costs something — time, money, attention or the freedom to change course."},
		{"Open questions", "1. Who is affected most by " + t + ", and have they been asked?\n" +
			"2. What would change the current view within a year?\n" +
			"3. Which numbers would settle the question, and who has them?"},
		{"Next steps", "- Write down the one decision this brief should support.\n" +
			"- Collect two or three sources and note each as a `source:` line.\n" +
			"- Ask me to `compare` two options once the choice narrows."},
	}
	extra := []section{
		{"Background", "People usually come to " + t + " with a concrete problem. State that problem in one " +
			"sentence, note what has been tried already, and what happened."},
		{"Stakeholders", "- **Users**: feel the effects first and notice problems early.\n" +
			"- **Owners**: pay for changes and answer for the outcome.\n" +
			"- **Sceptics**: find the weak spots; invite them early rather than late."},
		{"Risks", "1. **Moving too fast**: a decision made before the open questions are answered.\n" +
			"2. **Moving too slowly**: the question settles itself while it is being studied.\n" +
			"3. **Measuring the wrong thing**: a number that is easy to get instead of one that matters."},
		{"Timeline", "- **This week**: agree on the question and on who decides.\n" +
			"- **This month**: collect the evidence and test one small change.\n" +
			"- **This quarter**: decide, and write down what would make you revisit the decision."},
	}
	r := report{title: "Brief: " + capitalize(j.topic), sections: core}
	switch {
	case j.more:
		r.title = "More on " + j.topic
		r.sections = extra
	case j.long:
		r.sections = []section{core[0], extra[0], core[1], extra[1], extra[2], core[2], extra[3], core[3]}
	}
	r.intro = intro(j, c)
	return r
}

// compareReport weighs two things against the same criteria.
func compareReport(j job, c conversation) report {
	a, b := "**"+j.pair[0]+"**", "**"+j.pair[1]+"**"
	width := max(utf8.RuneCountInString(j.pair[0]), utf8.RuneCountInString(j.pair[1]), len("availability"))
	row := func(name, x, y string) string {
		return fmt.Sprintf("%-*s  %-*s  %s\n", width, name, width, x, y)
	}
	sheet := "```\n" + row("criterion", j.pair[0], j.pair[1]) +
		row("cost", "?", "?") + row("availability", "?", "?") + row("effort", "?", "?") + row("risk", "?", "?") + "```"
	r := report{
		title: capitalize(j.pair[0]) + " vs " + j.pair[1],
		sections: []section{
			{"What is compared", a + " and " + b + ", judged on the same four criteria so that neither gets an easier test."},
			{"Criteria", "1. **Cost**: money and time, to start and to stop.\n" +
				"2. **Availability**: how easy it is to get, today and in a year.\n" +
				"3. **Effort**: what it asks of the people who use it every day.\n" +
				"4. **Risk**: what goes wrong, how likely it is, and how bad."},
			{"Scoring sheet", "Fill in a score from 1 to 5 for each cell:\n\n" + sheet},
			{"How to decide", "- Pick " + a + " if it wins on the criterion that matters most to you.\n" +
				"- Pick " + b + " if it is close on that one and clearly ahead on the others.\n" +
				"- If neither wins clearly, pick the one that is easier to reverse."},
		},
	}
	if j.long {
		r.sections = append(r.sections,
			section{"Background", "Comparisons go wrong when the two options answer different questions. " +
				"Check that " + a + " and " + b + " solve the same problem before scoring them."},
			section{"Evidence", "- Use the same kind of source for both sides.\n- Prefer recent numbers over memorable stories."},
			section{"Risks", "1. Scoring the familiar option more kindly.\n2. Adding criteria until one side wins."},
			section{"Timeline", "- **Today**: fill in the sheet.\n- **Next week**: check the two closest scores with someone who disagrees."},
		)
	}
	r.intro = intro(j, c)
	return r
}

// intro is the line under a report's title: what it answers and what the agent remembered.
func intro(j job, c conversation) string {
	lines := []string{"_Requested: “" + oneLine(c.request) + "”._"}
	switch {
	case j.more:
		lines = append(lines, "_Continuing our conversation about **"+j.topic+"**._")
	case c.earlier != "":
		lines = append(lines, "_Earlier in this conversation: **"+c.earlier+"**._")
	}
	if c.bearer {
		lines = append(lines, "_The request carried a bearer token (this demo agent accepts any)._")
	}
	return strings.Join(lines, "\n\n")
}

// oneLine shortens text to one line of at most 80 characters for quoting.
func oneLine(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) > 80 {
		text = string([]rune(text)[:79]) + "…"
	}
	return text
}

func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
