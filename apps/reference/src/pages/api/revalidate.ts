import { revalidationRouteFor } from '@web-foundation/foundation/pages/api/revalidate';
import { product } from '../../product';

export default revalidationRouteFor(product);

// Next reads an API route's `config` from the route's own file. Not parsed by Next:
// malformed JSON gets the route's JSON 400 instead of Next's text.
export const config = { api: { bodyParser: false } };
