// Preloaded into a server under bench:ab (`node --import`), beside the app's own preload: it answers the bench's
// `allocated` message with the bytes V8 has allocated on the heap since the process started. Unlike CPU time, a
// request's allocations hardly vary with what else the machine runs, so a difference of a few percent shows in one
// round; and what a request allocates, the garbage collector's threads spend CPU on later.
import { getHeapStatistics } from 'node:v8';

process.on('message', (message) => {
  if (message === 'allocated') process.send?.({ allocatedBytes: getHeapStatistics().total_allocated_bytes });
});
