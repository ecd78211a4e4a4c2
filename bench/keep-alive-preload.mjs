// bench:https only, preloaded into a server (`node --import`): every https.Agent the server creates keeps its
// connections alive, or not, as BENCH_KEEP_ALIVE (true or false) says, whatever its creator asked for. The only such
// agent in the reference app's server is the Sentry Node transport's (`fetch` uses its own), so one build serves both
// sides of the comparison, and nothing else differs between them.
import https from 'node:https';
import { syncBuiltinESMExports } from 'node:module';

const keepAlive = process.env.BENCH_KEEP_ALIVE === 'true';
const { Agent } = https;
https.Agent = class extends Agent {
  /** @param {import('node:https').AgentOptions} [options] */
  constructor(options) {
    super({ ...options, keepAlive });
  }
};
// `import * as https from 'node:https'` (the SDK's ESM build) sees the replacement too.
syncBuiltinESMExports();
