// The reference app's own _app, restated (Next takes global CSS only from the project's own _app): the stylesheet and
// the focus handling are the page's cost, not observability's (docs/performance.md).
import '@web-foundation/foundation/styles/global.css';

export { default } from '@web-foundation/foundation/pages/_app';
