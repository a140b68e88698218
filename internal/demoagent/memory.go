package demoagent

import "sync"

// topicMemory remembers the topic of the last report in each context, so that a conversation
// continued with the same context id ("tell me more") knows what it is about. It keeps at most
// limit contexts and forgets the oldest first.
type topicMemory struct {
	mu     sync.Mutex
	limit  int
	topics map[string]string
	order  []string // context ids, oldest first
}

func newTopicMemory(limit int) *topicMemory {
	return &topicMemory{limit: limit, topics: make(map[string]string)}
}

func (m *topicMemory) get(contextID string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.topics[contextID]
}

func (m *topicMemory) put(contextID, topic string) {
	if contextID == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.topics[contextID]; !ok {
		m.order = append(m.order, contextID)
	}
	m.topics[contextID] = topic
	for len(m.order) > m.limit {
		delete(m.topics, m.order[0])
		m.order = m.order[1:]
	}
}
