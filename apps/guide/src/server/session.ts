import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { product } from '../product';

export const sessionCookieName = 'session';
/** 8 hours; signing in again starts a new session. */
export const sessionMaxAgeSeconds = 8 * 60 * 60;

function signature(payload: string): Buffer {
  // Checked at start with the other settings (section 4a); read here, when a request needs it.
  return createHmac('sha256', product.settings().sessionSecret).update(payload).digest();
}

/** The cookie's value for a new session: `<user id>.<expiry in seconds>.<signature>`. */
export function newSession(userId: string, now = Date.now()): string {
  const payload = `${userId}.${Math.floor(now / 1000) + sessionMaxAgeSeconds}`;
  return `${payload}.${signature(payload).toString('base64url')}`;
}

/** The user a cookie names, if we signed it and it has not expired; undefined otherwise. */
export function sessionUser(value: string | undefined, now = Date.now()): string | undefined {
  const [userId, expiry, mac, ...rest] = value?.split('.') ?? [];
  if (!userId || !expiry || !mac || rest.length > 0) return undefined;
  const expected = signature(`${userId}.${expiry}`);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return Number(expiry) * 1000 > now ? userId : undefined;
}

function cookie(req: IncomingMessage, value: string, maxAgeSeconds: number): string {
  const secure = req.headers['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  return `${sessionCookieName}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

export function setSessionCookie(req: IncomingMessage, res: ServerResponse, value: string): void {
  res.setHeader('Set-Cookie', cookie(req, value, sessionMaxAgeSeconds));
}

export function clearSessionCookie(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Set-Cookie', cookie(req, '', 0));
}
