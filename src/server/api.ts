import type { NextApiRequest, NextApiResponse } from 'next';

/** Every API answer, errors included, is JSON. */
export function sendJson(res: NextApiResponse, status: number, body: unknown): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

export function sendJsonError(res: NextApiResponse, status: number, message: string): void {
  sendJson(res, status, { error: { status, message } });
}

/** Answers 405 with an Allow header unless the method is allowed; returns whether the handler may go on. */
export function allowMethods(req: NextApiRequest, res: NextApiResponse, methods: readonly string[]): boolean {
  if (methods.includes(req.method ?? '')) return true;
  res.setHeader('Allow', methods.join(', '));
  sendJsonError(res, 405, `Method ${req.method ?? ''} is not allowed here. Allowed: ${methods.join(', ')}.`);
  return false;
}
