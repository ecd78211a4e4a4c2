import { scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const hash = promisify(scrypt) as (password: string, salt: string, length: number) => Promise<Buffer>;

const demoUser = {
  id: 'demo-user',
  email: 'demo@example.com',
  salt: 'b3f1c0a9e6d24f7a8c5e1d2b9a0f6e3c',
  passwordHash: '2986016b45535d7254dfcd2ae6c0f0837b052ae69295cc7ffff8379d4a6fedbe',
};

/** The id of the user with this email and password, or undefined. */
export async function verifyCredentials(email: string, password: string): Promise<string | undefined> {
  const given = await hash(password, demoUser.salt, 32);
  const matches = timingSafeEqual(given, Buffer.from(demoUser.passwordHash, 'hex'));
  return matches && email.trim().toLowerCase() === demoUser.email ? demoUser.id : undefined;
}
