export { default } from '@web-foundation/foundation/pages/api/diagnostics/body';
// Next reads an API route's `config` from the route's own file. Not parsed by Next:
// the route reads the body as it arrived, byte for byte.
export const config = { api: { bodyParser: false } };
