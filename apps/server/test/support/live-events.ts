import { expect } from 'vitest';

/** A live inbox stream (GET /api/user/events) and the `mail` events read from it. */
export async function openEvents(baseUrl: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/user/events?token=${token}`, { signal: controller.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  // A read outlives a wait that timed out: the next wait takes it over rather than losing its chunk.
  let pending: ReturnType<typeof reader.read> | null = null;
  /** Whether a `mail` event for `subject` arrives within `timeoutMs` (earlier events are skipped). */
  const waitFor = async (subject: string, timeoutMs: number): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (let match = /event: mail\ndata: (.*)\n\n/.exec(buffer); match; ) {
        buffer = buffer.slice((match.index ?? 0) + match[0].length);
        if ((JSON.parse(match[1] ?? 'null') as { subject?: string }).subject === subject) return true;
        match = /event: mail\ndata: (.*)\n\n/.exec(buffer);
      }
      pending ??= reader.read();
      const chunk = await Promise.race([
        pending,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(1, deadline - Date.now()))),
      ]);
      if (!chunk) continue;
      pending = null;
      if (chunk.done) return false;
      buffer += decoder.decode(chunk.value, { stream: true });
    }
    return false;
  };
  return { waitFor, close: () => controller.abort() };
}
