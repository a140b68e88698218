// Wrong on purpose: types.test.js compiles it and checks that each mistake is reported in words
// that name what was meant (never "not assignable to type 'never'").
import { createA2ABackendAdapter } from 'a2aport';

createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', credentials: { bearer: 42 } });
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', credentials: { bearer: { token: 'x' } } });
createA2ABackendAdapter({ agentCardUrl: 'https://a.example/c.json', credentials: { basic: { user: 'x', password: 'y' } } });
