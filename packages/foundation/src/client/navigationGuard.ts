// Every client-side navigation either completes or becomes a full navigation to its target within the spec's route
// load time-out (3.8 s) and a small margin. Next's router means to do this itself, but in Next 16.4 it can wait for
// ever (docs/navigation-reliability.md):
// - it arms its time-out inside a requestIdleCallback with no timeout, and after a pointer click Chromium may run no
//   idle callback until a frame is drawn: the time-out starts late, or never;
// - a navigation that joins a prefetch's load of the same route waits on a promise that settles only if that load
//   succeeds (`withFuture` in next/dist/client/route-loader.js);
// - a page-data request that hangs has no time-out at all.
// After a deploy, a page still running the old build asks for scripts the new build no longer has: once one of the
// build's own assets has failed to load, the page is outdated, and every later navigation is a full one.
// One click loads one document (issue 21). Two actors can start a full navigation, the guard and Next's router, and
// each would otherwise start its own: the guard never acts inside a router event but a task later at the soonest, so
// that Next, when it already knows the load failed, goes first and the guard stands down; when the guard goes, it
// cancels Next's load, and refuses a second navigation to the address it is already leaving for: Next's, in the
// router event that announces it (every engine), and any other, through the Navigation API (where there is one).
import Router from 'next/router';
import { routeLoadTimeoutMs } from '../config/specification.mts';

/** Path prefix of the build's own scripts and stylesheets. */
const buildAssets = '/_next/static/';

/**
 * When the guard turns a navigation that has not completed into a full one, counted from Next's routeChangeStart.
 * Next's own time-out, when its idle callback runs promptly, fires 3.8–3.9 s after the start: it goes first.
 */
export const fullNavigationAfterMs = routeLoadTimeoutMs + 200;

/**
 * The URL a failed script or stylesheet was loading, if the event is such a failure. A failed prefetch (a `<link
 * rel=prefetch>`) does not count: the router swallows it and loads the route afresh when the user follows the link.
 */
export function failedAssetUrl(target: EventTarget | null): string | undefined {
  if (typeof HTMLScriptElement !== 'undefined' && target instanceof HTMLScriptElement) return target.src;
  if (typeof HTMLLinkElement !== 'undefined' && target instanceof HTMLLinkElement && target.rel === 'stylesheet') {
    return target.href;
  }
  return undefined;
}

/** True when the URL is one of this build's assets on this origin. */
export function isBuildAsset(url: string | undefined, origin: string): boolean {
  if (!url) return false;
  const parsed = new URL(url, origin);
  return parsed.origin === origin && parsed.pathname.startsWith(buildAssets);
}

export interface Navigations {
  /** The client-side navigation under way, numbered so that a late timer of an earlier one is told apart. */
  pending: { id: number; url: string } | undefined;
  /** How many navigations have started. */
  started: number;
  /** One of the build's assets failed to load: a newer build has replaced this page's. */
  outdated: boolean;
  /** The full navigation the guard started, until a new client-side navigation shows the page stayed. */
  leavingTo: string | undefined;
}

export const noNavigation: Navigations = { pending: undefined, started: 0, outdated: false, leavingTo: undefined };

export type NavigationEvent =
  /** Next's routeChangeStart: a new navigation, which replaces any under way. */
  | { type: 'start'; url: string }
  /** It completed, failed into the error page, was cancelled, or the page is leaving (Next went full itself). */
  | { type: 'settled' }
  /** A script or stylesheet of the build failed to load. */
  | { type: 'assetFailed' }
  /** The timer of navigation `id` ran out. */
  | { type: 'deadline'; id: number }
  /** The guard has started its full navigation to `url`. */
  | { type: 'left'; url: string };

export interface Decision {
  state: Navigations;
  /** Start a full navigation to this URL. */
  fullNavigationTo?: string;
  /** (Re)arm the one timer: after `afterMs`, send `{ type: 'deadline', id }`. */
  deadline?: { id: number; afterMs: number };
}

/** What to do on each event: the whole policy, free of the browser so that it is unit-tested. */
export function decide(state: Navigations, event: NavigationEvent): Decision {
  switch (event.type) {
    case 'start': {
      const id = state.started + 1;
      // Outdated: full, but from the next task, by when Next has armed its cancel for this navigation, or has gone
      // full itself because it already knows the route failed.
      return {
        state: { ...state, started: id, pending: { id, url: event.url }, leavingTo: undefined },
        deadline: { id, afterMs: state.outdated ? 0 : fullNavigationAfterMs },
      };
    }
    case 'settled':
      return { state: { ...state, pending: undefined } };
    case 'assetFailed':
      // A navigation whose own script failed is made full by Next in the same task (routeChangeError arrives first);
      // one that joined a failed prefetch never hears of it. So: full at the next task, unless it settled by then.
      return {
        state: { ...state, outdated: true },
        ...(state.pending && { deadline: { id: state.pending.id, afterMs: 0 } }),
      };
    case 'deadline':
      if (state.pending?.id !== event.id) return { state };
      return { state: { ...state, pending: undefined }, fullNavigationTo: state.pending.url };
    case 'left':
      return { state: { ...state, leavingTo: event.url } };
  }
}

/**
 * True when a navigation the page is about to start goes where the guard's full navigation already goes: Next's router
 * going full too, after the guard cancelled its load (a page-data request that fails late still does). A second
 * start would abort the first document request and send another.
 */
export function repeatsFullNavigation(state: Navigations, destination: string, origin: string): boolean {
  return state.leavingTo !== undefined && new URL(state.leavingTo, origin).href === new URL(destination, origin).href;
}

/**
 * Next's own cancellation (`buildCancellationError` in next/dist/shared/lib/router/router.js): a navigation whose
 * code throws it ends quietly, its `router.push` resolving to false.
 */
export function routeCancelled(): Error {
  return Object.assign(new Error('Route Cancelled'), { cancelled: true });
}

/**
 * True when Next's router, announcing a failed load with `routeChangeError` to `url`, is about to navigate in full
 * where the guard already goes (it does so in the same task, right after the event: a page-data request that failed
 * after the guard went, as after a deploy). Its own cancellations announce nothing of the kind.
 */
export function refusesRouterFullNavigation(state: Navigations, error: unknown, url: string, origin: string): boolean {
  const cancelled =
    typeof error === 'object' && error !== null && (error as { cancelled?: unknown }).cancelled === true;
  return !cancelled && repeatsFullNavigation(state, url, origin);
}

/** The part of the Navigation API the guard uses; WebKitGTK and older Safari and Firefox releases lack it. */
interface NavigateEvent extends Event {
  readonly cancelable: boolean;
  readonly destination: { readonly url: string };
}

/** Called once by instrumentation-client.ts, before the app hydrates. */
export function guardClientNavigations(): void {
  let state = noNavigation;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const on = (event: NavigationEvent) => {
    const decision = decide(state, event);
    state = decision.state;
    if (decision.deadline || !state.pending) clearTimeout(timer);
    if (decision.deadline) {
      const { id, afterMs } = decision.deadline;
      timer = setTimeout(() => on({ type: 'deadline', id }), afterMs);
    }
    if (decision.fullNavigationTo) {
      // Next must not start the same full navigation a second time (its own time-out, armed late, or a load that
      // fails after this): cancelling its load makes it stand down (`clc` is the router's cancel for the load under
      // way, armed when the navigation starts).
      Router.router?.clc?.();
      location.assign(decision.fullNavigationTo);
      // Recorded after the assignment, whose own navigate event has been dispatched by then.
      on({ type: 'left', url: decision.fullNavigationTo });
    }
  };
  // Where the Navigation API exists, any navigation that repeats the guard's is refused: the document request under
  // way goes on alone. (Next's own is refused earlier, below, in every engine.)
  const navigation = (globalThis as { navigation?: EventTarget }).navigation;
  navigation?.addEventListener('navigate', (event) => {
    const { cancelable, destination } = event as NavigateEvent;
    if (cancelable && repeatsFullNavigation(state, destination.url, location.origin)) event.preventDefault();
  });
  // Resource load errors do not bubble: listen in the capture phase.
  addEventListener(
    'error',
    (event) => isBuildAsset(failedAssetUrl(event.target), location.origin) && on({ type: 'assetFailed' }),
    true,
  );
  Router.events.on('routeChangeStart', (url: string) => on({ type: 'start', url }));
  Router.events.on('routeChangeComplete', () => on({ type: 'settled' }));
  // Next emits it when it renders the error page, when a newer navigation cancels this one, and just before it
  // turns a failed load into a full navigation itself: in no case is there anything left to do. When that full
  // navigation would repeat the guard's, throwing Next's cancellation out of the event (its emitter calls listeners
  // synchronously) ends Next's navigation before it starts a second document request: in an engine without the
  // Navigation API (WebKitGTK, older Safari), nothing else could refuse it.
  Router.events.on('routeChangeError', (error: unknown, url: string) => {
    on({ type: 'settled' });
    if (refusesRouterFullNavigation(state, error, url, location.origin)) throw routeCancelled();
  });
  // Next starts some full navigations without an event (a redirect off the app, a link to an API route).
  addEventListener('beforeunload', () => on({ type: 'settled' }));
}
