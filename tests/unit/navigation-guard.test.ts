import { describe, expect, it } from 'vitest';
import {
  decide,
  failedAssetUrl,
  fullNavigationAfterMs,
  isBuildAsset,
  noNavigation,
  type NavigationEvent,
  refusesRouterFullNavigation,
  repeatsFullNavigation,
  routeCancelled,
  type Navigations,
} from '../../packages/foundation/src/client/navigationGuard';
import { routeLoadTimeoutMs } from '../../packages/foundation/src/config/specification.mts';

// Issues 6 and 16: every client-side navigation completes or becomes a full one within the route load time-out.

/** Runs the events through the policy; returns the final state and every full navigation and timer it asked for. */
function run(events: NavigationEvent[], state: Navigations = noNavigation) {
  const full: string[] = [];
  const deadlines: { id: number; afterMs: number }[] = [];
  for (const event of events) {
    const decision = decide(state, event);
    state = decision.state;
    if (decision.fullNavigationTo) full.push(decision.fullNavigationTo);
    if (decision.deadline) deadlines.push(decision.deadline);
  }
  return { state, full, deadlines };
}

describe('decide', () => {
  it('arms the time-out at each start: the spec’s 3.8 s and a margin that lets Next go first', () => {
    expect(fullNavigationAfterMs).toBeGreaterThan(routeLoadTimeoutMs);
    expect(fullNavigationAfterMs).toBeLessThanOrEqual(routeLoadTimeoutMs + 500);
    expect(run([{ type: 'start', url: '/a' }]).deadlines).toEqual([{ id: 1, afterMs: fullNavigationAfterMs }]);
  });

  it('does nothing for a navigation that completes, or that Next ends itself, before its time-out', () => {
    for (const end of [[{ type: 'settled' }], [{ type: 'settled' }, { type: 'settled' }]] as NavigationEvent[][]) {
      const { full, state } = run([{ type: 'start', url: '/a' }, ...end, { type: 'deadline', id: 1 }]);
      expect(full).toEqual([]);
      expect(state.pending).toBeUndefined();
    }
  });

  it('turns a navigation still pending at its time-out into a full one, once', () => {
    const { full } = run([
      { type: 'start', url: '/a' },
      { type: 'deadline', id: 1 },
      { type: 'deadline', id: 1 },
      { type: 'settled' },
    ]);
    expect(full).toEqual(['/a']);
  });

  it('a new navigation replaces the pending one: only its own time-out counts', () => {
    const { full, deadlines } = run([
      { type: 'start', url: '/a' },
      { type: 'start', url: '/b' },
      { type: 'deadline', id: 1 },
      { type: 'deadline', id: 2 },
    ]);
    expect(deadlines.map((d) => d.id)).toEqual([1, 2]);
    expect(full).toEqual(['/b']);
  });

  it('the same target twice (a cancelled click, then another) is still told apart', () => {
    const { full } = run([
      { type: 'start', url: '/a' },
      { type: 'settled' },
      { type: 'start', url: '/a' },
      { type: 'deadline', id: 1 },
    ]);
    expect(full).toEqual([]);
  });

  it('a failed build asset ends the pending navigation at the next task, unless Next ends it first', () => {
    const failed = run([{ type: 'start', url: '/a' }, { type: 'assetFailed' }]);
    expect(failed.deadlines.at(-1)).toEqual({ id: 1, afterMs: 0 });
    expect(run([{ type: 'deadline', id: 1 }], failed.state).full).toEqual(['/a']);
    expect(run([{ type: 'settled' }, { type: 'deadline', id: 1 }], failed.state).full).toEqual([]);
  });

  // Issue 21: the guard and Next's router must never both start a full navigation. Next goes full after a failed load
  // (routeChangeError, then its own hard navigation, which the guard hears as 'settled'); the guard from its timer.
  describe('after a failed build asset, every later navigation is full, started by one actor', () => {
    const outdated = run([{ type: 'assetFailed' }]).state;

    it('the guard never acts inside the start event: it arms its timer for the next task', () => {
      const { full, deadlines } = run([{ type: 'start', url: '/b' }], outdated);
      expect(full).toEqual([]);
      expect(deadlines).toEqual([{ id: 1, afterMs: 0 }]);
    });

    it('Next first (it knew the route failed): the guard stands down', () => {
      const { full } = run([{ type: 'start', url: '/b' }, { type: 'settled' }, { type: 'deadline', id: 1 }], outdated);
      expect(full).toEqual([]);
    });

    it('the guard first: one full navigation; Next, which then ends its load, starts none', () => {
      const { full, state } = run(
        [{ type: 'start', url: '/b' }, { type: 'deadline', id: 1 }, { type: 'left', url: '/b' }, { type: 'settled' }],
        outdated,
      );
      expect(full).toEqual(['/b']);
      // Should Next still go full to the same address, the page refuses that second navigation.
      expect(repeatsFullNavigation(state, 'https://app.example/b', 'https://app.example')).toBe(true);
      expect(repeatsFullNavigation(state, '/b', 'https://app.example')).toBe(true);
      expect(repeatsFullNavigation(state, '/c', 'https://app.example')).toBe(false);
    });

    it('Next announcing a failed load of where the guard goes (its full navigation follows) is refused', () => {
      const { state } = run(
        [{ type: 'start', url: '/b' }, { type: 'deadline', id: 1 }, { type: 'left', url: '/b' }, { type: 'settled' }],
        outdated,
      );
      const failedLoad = new Error('Failed to load static props');
      expect(refusesRouterFullNavigation(state, failedLoad, '/b', 'https://app.example')).toBe(true);
      // Its own cancellations, and failures elsewhere, are not the guard's business.
      expect(refusesRouterFullNavigation(state, routeCancelled(), '/b', 'https://app.example')).toBe(false);
      expect(refusesRouterFullNavigation(state, failedLoad, '/c', 'https://app.example')).toBe(false);
      // Before the guard went, Next's full navigation is the only one: it goes ahead.
      const going = run([{ type: 'start', url: '/b' }], outdated).state;
      expect(refusesRouterFullNavigation(going, failedLoad, '/b', 'https://app.example')).toBe(false);
    });

    it('the refusal is the error Next’s router treats as a quiet cancel', () => {
      expect(routeCancelled()).toMatchObject({ message: 'Route Cancelled', cancelled: true });
    });

    it('a later client-side navigation shows the page stayed: nothing is refused any more', () => {
      const { state } = run(
        [
          { type: 'start', url: '/b' },
          { type: 'deadline', id: 1 },
          { type: 'left', url: '/b' },
          { type: 'start', url: '/b' },
        ],
        outdated,
      );
      expect(repeatsFullNavigation(state, '/b', 'https://app.example')).toBe(false);
    });
  });

  it('refuses nothing before the guard has started a full navigation', () => {
    expect(repeatsFullNavigation(noNavigation, '/b', 'https://app.example')).toBe(false);
    const next = run([{ type: 'start', url: '/b' }, { type: 'settled' }]).state;
    expect(repeatsFullNavigation(next, '/b', 'https://app.example')).toBe(false);
  });
});

describe('isBuildAsset', () => {
  const origin = 'https://app.example';
  it('is true for the build’s own scripts and styles, with or without the deployment query', () => {
    expect(isBuildAsset('https://app.example/_next/static/chunks/0abc.js', origin)).toBe(true);
    expect(isBuildAsset('https://app.example/_next/static/chunks/0abc.js?dpl=abc123', origin)).toBe(true);
    expect(isBuildAsset('/_next/static/css/1.css', origin)).toBe(true);
  });
  it('is false for other paths, other origins and nothing', () => {
    expect(isBuildAsset('https://app.example/_next/image?url=%2Fhero.png&w=640&q=75', origin)).toBe(false);
    expect(isBuildAsset('https://app.example/api/health', origin)).toBe(false);
    expect(isBuildAsset('https://cdn.other.example/_next/static/chunks/0abc.js', origin)).toBe(false);
    expect(isBuildAsset(undefined, origin)).toBe(false);
  });
});

describe('failedAssetUrl', () => {
  it('ignores targets that are not scripts or stylesheets (here, outside a browser)', () => {
    expect(failedAssetUrl(null)).toBeUndefined();
    expect(failedAssetUrl({} as EventTarget)).toBeUndefined();
  });
});
