// One HTTP/1.1 exchange over a raw socket, for requests that fetch refuses to send (bad encodings, odd methods).
import { connect } from 'node:net';

export interface RawAnswer {
  /** The status code, or 0 when the server closed the connection without answering. */
  status: number;
  headers: string;
  body: string;
}

export function rawRequest(port: number, host: string, bytes: string | Buffer, timeoutMs = 5000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // write, not end: a half-closed client makes Node's server drop the request unanswered. Every request here says
    // `Connection: close`, or is malformed enough that the server answers and closes.
    const socket = connect(port, host, () => socket.write(bytes));
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, headers: head, body: rest.join('\r\n\r\n') });
    });
  });
}
