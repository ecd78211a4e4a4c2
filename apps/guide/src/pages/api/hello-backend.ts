import { request } from 'node:http';
import { apiRoute, sendJson, sendJsonError } from '@web-foundation/foundation/api';
import { backendUrl } from '../../server/backend';

/** GET a URL with node:http: its status, and its body as text. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, (answer) => {
      let body = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (body += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

// Traced as `GET /api/hello-backend`, with an http.client span for the call under the handler's span.
export default apiRoute(['GET'], async (req, res) => {
  const stock = await get(backendUrl('/stock'));
  if (stock.status !== 200) return sendJsonError(req, res, 502, `The backend answered ${stock.status}.`);
  sendJson(res, 200, { stock: JSON.parse(stock.body) as unknown });
});
