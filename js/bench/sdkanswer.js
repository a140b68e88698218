// One streamed answer through @a2a-js/sdk's own client (the benchmarks' JS baseline): sends the
// instruction and returns the text of every artifact update, joined.
import { randomUUID } from 'node:crypto';
import { Role } from '@a2a-js/sdk';

export async function sdkAnswer(client, instruction) {
  const stream = client.sendMessageStream({
    tenant: '', configuration: undefined, metadata: undefined,
    message: {
      messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, metadata: undefined, extensions: [], referenceTaskIds: [],
      parts: [{ content: { $case: 'text', value: instruction }, metadata: undefined, filename: '', mediaType: '' }],
    },
  });
  const texts = [];
  for await (const ev of stream) {
    if (ev.payload?.$case !== 'artifactUpdate') continue;
    for (const p of ev.payload.value.artifact.parts) if (p.content?.$case === 'text') texts.push(p.content.value);
  }
  return texts.join('');
}
