/** The webhook HTTP client (infrastructure of the company slice): a POST with a 10 s timeout, no redirects. */
import type { WebhookPoster } from './ports.ts';

export const fetchPoster =
  (timeoutMs = 10_000): WebhookPoster =>
  async (url, body, headers) => {
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { ...headers, 'user-agent': 'mocap-webhooks/1' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  };
