// The benchmarks' own calls to the service (seeding), over HTTPS with its self-signed certificate.
import https from 'node:https';

/** POST answering the `id` of a 200 response; anything else rejects. */
export function postJson(url: string, headers: Record<string, string>, body: object): Promise<string> {
  return sendJson('POST', url, headers, body);
}

/** The answer's `id` (undefined for an answer without one). */
export function sendJson(method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body: object): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method, headers, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => (res.statusCode === 200 ? resolve((JSON.parse(text) as { id: string }).id) : reject(new Error(`${url}: ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
