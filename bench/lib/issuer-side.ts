import http from 'node:http';

/** The issuer's side of the authorisation benches (bench:auth, bench:funding-auto): signed webhook requests and what they answer. */

export interface Answer {
  status: number;
  text: string;
}

/** One POST over the kept-open connections of `agent`, answered with its status and body. */
export function post(port: number, agent: http.Agent, path: string, body: string, headers: Record<string, string>, host = 'localhost'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method: 'POST', path, agent, headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** What the webhook answered an authorisation request: a decision (as the body or the envelope's data), or what it said instead. */
export function decisionOf(answer: Answer): { approved: boolean; decline_code: string | null } | { none: string } {
  if (answer.status !== 200) return { none: `HTTP ${answer.status}` };
  let body: { approved?: unknown; decline_code?: unknown; data?: { approved?: unknown; decline_code?: unknown; outcome?: unknown } };
  try {
    body = JSON.parse(answer.text);
  } catch {
    return { none: 'not JSON' };
  }
  for (const candidate of [body, body?.data]) {
    if (candidate && typeof candidate.approved === 'boolean') {
      return { approved: candidate.approved, decline_code: typeof candidate.decline_code === 'string' ? candidate.decline_code : null };
    }
  }
  return { none: typeof body?.data?.outcome === 'string' ? `HTTP 200, outcome "${body.data.outcome}", no decision` : 'HTTP 200, no decision' };
}
