// After a deploy, a page still running the old build asks for scripts and styles the new build no longer has.
// Next's router answers a missing page-data file, a failed script and a route that takes over 3.8 s with a full
// navigation. It misses one case: a navigation that joins a prefetch of the same route which then fails never
// settles (`withFuture` in next/dist/client/route-loader.js resolves its shared promise only on success), so the
// link seems dead. The fix here is small: once one of the build's own assets has failed to load, this page is
// outdated, and every later navigation, including the one under way, is a full one.
import Router from 'next/router';

/** Path prefix of the build's own scripts and stylesheets. */
const buildAssets = '/_next/static/';

/**
 * The URL a failed script or stylesheet was loading, if the event is such a failure. A failed prefetch does not
 * count: the router swallows it and loads the route afresh when the user follows the link.
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

export function navigateInFullAfterNewDeployment(): void {
  let outdated = false;
  let pending: string | undefined;
  // Resource load errors do not bubble: listen in the capture phase.
  window.addEventListener(
    'error',
    (event) => {
      if (!isBuildAsset(failedAssetUrl(event.target), location.origin)) return;
      outdated = true;
      if (pending) location.assign(pending);
    },
    true,
  );
  Router.events.on('routeChangeStart', (url: string) => {
    pending = url;
    if (outdated) location.assign(url);
  });
  const settled = () => {
    pending = undefined;
  };
  Router.events.on('routeChangeComplete', settled);
  Router.events.on('routeChangeError', settled);
}
