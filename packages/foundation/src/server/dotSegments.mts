// Dot segments in a request's raw path. Next routes the raw path, but the proxy sees `request.nextUrl`, which has
// already collapsed `..`, `%2e%2e` and `.%2e`: a slug of `..` got past the slug rule and Next answered 500 ("Requested
// and resolved page mismatch"). Browsers collapse dot segments before they send a request, so only a hand-made one has
// them; the server's preload (packages/foundation/src/server/preload.mts) answers it 400. TypeScript that Node runs as
// it is (`.mts`), for that preload.

/** A segment that is `.` or `..`, its dots written plainly or as `%2e` in either case. */
const dotSegment = /^(?:\.|%2e){1,2}$/i;

/** Whether the path of a request target (`/path?query`) or a local image source, or the page it is data of, has one. */
export function hasDotSegment(target: unknown): boolean {
  if (typeof target !== 'string') return false;
  const query = target.search(/[?#]/);
  const path = query < 0 ? target : target.slice(0, query);
  // Page data names its page with `.json` added: `/_next/data/<build id>/examples/on-demand/...json` is `..`'s.
  const page = path.startsWith('/_next/data/') ? path.replace(/\.json$/i, '') : path;
  // A backslash is a separator to the URL parser Next uses.
  return page.split(/[/\\]/).some((segment) => dotSegment.test(segment));
}
