// The pages an instance keeps in memory while Redis is unavailable, and their bound: used only during an outage.
import type { StoredEntry } from './entry';

/** Pages an instance keeps for itself while Redis is unavailable (its own copy, as without Redis): so many at most. */
const ownCopyEntries = 500;
/** And so many characters of them in all, as Next's own in-memory cache keeps 50 MB. */
const ownCopyChars = 50 * 1024 * 1024;

/** An entry kept while Redis is unavailable, with the characters it takes. */
export interface OwnCopy {
  entry: StoredEntry;
  size: number;
}

/** An instance's own copies (the shared connection holds them), with the characters they take in all. */
export interface OwnCopies {
  ownCopy: Map<string, OwnCopy>;
  ownCopyChars: number;
}

/** While Redis is unavailable, what this instance wrote is read from here: bounded in entries and in size. */
export function keepOwnCopy(redis: OwnCopies, key: string, copy: OwnCopy | undefined): void {
  const previous = redis.ownCopy.get(key);
  if (previous) redis.ownCopyChars -= previous.size;
  redis.ownCopy.delete(key);
  if (!copy) return;
  redis.ownCopy.set(key, copy);
  redis.ownCopyChars += copy.size;
  for (const [oldest, { size }] of redis.ownCopy) {
    if (redis.ownCopy.size <= ownCopyEntries && redis.ownCopyChars <= ownCopyChars) break;
    redis.ownCopy.delete(oldest);
    redis.ownCopyChars -= size;
  }
}
