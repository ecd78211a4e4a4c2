import { useRouter } from 'next/router';
import { useEffect } from 'react';

/** The parts of the page, after a client-side navigation, that decide where keyboard focus goes. */
export interface NavigatedPage<E> {
  /** `document.activeElement`: the body (or null) once the link that was followed left with the old page. */
  focused: E | null;
  body: E;
  /** The new page's main landmark and its first level-one heading, if it has them. */
  main: E | null;
  mainHeading: E | null;
}

/**
 * Where focus goes after a client-side navigation, or null to leave it. Focus that fell back to the body (the link
 * the user followed is gone) moves to the new page's main heading, else to the top of its main content, so that the
 * next Tab starts there. Focus still on an element (a search field updating the URL, a link of a shared layout)
 * stays: moving it would interrupt the user. The route announcer reads the title; nothing else is announced.
 */
export function navigationFocusTarget<E>({ focused, body, main, mainHeading }: NavigatedPage<E>): E | null {
  if (focused !== null && focused !== body) return null;
  return mainHeading ?? main;
}

/** Applies navigationFocusTarget after every client-side navigation (`_app.tsx`). */
export function useFocusAfterNavigation() {
  const { events } = useRouter();
  useEffect(() => {
    const moveFocus = () => {
      const target = navigationFocusTarget<Element>({
        focused: document.activeElement,
        body: document.body,
        main: document.querySelector('main'),
        mainHeading: document.querySelector('main h1'),
      });
      if (!(target instanceof HTMLElement)) return;
      // Headings and main take focus from a script only with tabindex -1, which adds no Tab stop.
      if (!target.hasAttribute('tabindex')) target.tabIndex = -1;
      // The router has already scrolled (to the top, or to the URL's fragment).
      target.focus({ preventScroll: true });
    };
    events.on('routeChangeComplete', moveFocus);
    return () => events.off('routeChangeComplete', moveFocus);
  }, [events]);
}
