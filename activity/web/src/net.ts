// Login through the Embedded App SDK, the token exchange and the socket's URL and backoff.

/** The socket beside the page: `ws` in the page's directory, as an absolute ws:/wss: URL. */
export function socketUrl(pageHref: string): string {
  const url = new URL("ws", pageHref);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.search = "";
  url.hash = "";
  return url.toString();
}

/** Seconds to wait before reconnect attempt `n` (1, 2, 3, ...): 1 s, 2 s, ... at most 5 s. */
export function backoff(attempt: number): number {
  return Math.min(5, Math.max(1, attempt));
}

export interface TokenAnswer {
  access_token: string;
  session: string;
  user: { id: string; name: string };
  locale: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** `POST api/token` (relative to the page): the code for a token and the server's session. */
export async function exchange(code: string, instanceId: string, fetcher: typeof fetch = fetch): Promise<TokenAnswer> {
  const res = await fetcher("api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: instanceId }),
  });
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    body = {};
  }
  if (!res.ok) throw new HttpError(res.status, String(body["error"] ?? res.statusText ?? res.status));
  return body as unknown as TokenAnswer;
}

export function sessionKey(instanceId: string): string {
  return `rummy-session:${instanceId}`;
}
