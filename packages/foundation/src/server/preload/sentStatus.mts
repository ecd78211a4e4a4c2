// A response's status, once sent, stays what the client got. After a proxy error's 500, Next's router goes on to its
// not-found case and sets statusCode to 404 (next/dist/server/lib/router-server.js); a compressed body is still being
// written then, so the access log and the SDK, which read statusCode when the response ends, saw a 404, and the SDK
// dropped the transaction as a not-found one. Setting statusCode after the headers went out changes nothing on the
// wire, so it is ignored.
import http from 'node:http';

const statusCode = Symbol('statusCode');
type WithStatus = http.ServerResponse & { [statusCode]?: number };

export function keepSentStatus(): void {
  // Node's default, 200, is the prototype's value, read by a response that never sets one.
  const defaultStatusCode = http.ServerResponse.prototype.statusCode;
  Object.defineProperty(http.ServerResponse.prototype, 'statusCode', {
    configurable: true,
    enumerable: true,
    get(this: WithStatus) {
      return this[statusCode] ?? defaultStatusCode;
    },
    set(this: WithStatus, status: number) {
      if (!this.headersSent) this[statusCode] = status;
    },
  });
}
