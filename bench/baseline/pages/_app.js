// The app's own _app, restated (Next takes global CSS only from the project's own _app): the stylesheet and the focus
// handling are the page's cost, not observability's (docs/performance.md).
import { useFocusAfterNavigation } from '../../../src/components/focusAfterNavigation';
import '../../../src/styles/global.css';

export default function App({ Component, pageProps }) {
  useFocusAfterNavigation();
  return <Component {...pageProps} />;
}
