import { describe, expect, it } from 'vitest';
import { navigationFocusTarget } from '../../packages/foundation/src/components/focusAfterNavigation';

// Stand-ins for the page's elements: the decision only compares them.
const body = 'body';
const main = 'main';
const heading = 'main h1';

describe('where focus goes after a client-side navigation (issue 17)', () => {
  it('moves to the new page main heading once the followed link is gone (focus fell back to the body)', () => {
    expect(navigationFocusTarget({ focused: body, body, main, mainHeading: heading })).toBe(heading);
  });

  it('moves there too when nothing is focused at all', () => {
    expect(navigationFocusTarget({ focused: null, body, main, mainHeading: heading })).toBe(heading);
  });

  it('moves to the top of the main content when the page has no level-one heading', () => {
    expect(navigationFocusTarget({ focused: body, body, main, mainHeading: null })).toBe(main);
  });

  it('leaves focus on the body of a page with no main landmark', () => {
    expect(navigationFocusTarget({ focused: body, body, main: null, mainHeading: null })).toBeNull();
  });

  it('leaves focus on an element that is still there (a search field updating the URL, a shared link)', () => {
    expect(navigationFocusTarget({ focused: 'input', body, main, mainHeading: heading })).toBeNull();
  });
});
