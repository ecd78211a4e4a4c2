import type { AppProps } from 'next/app';
import { Component, type ReactNode } from 'react';
import { useFocusAfterNavigation } from '../components/focusAfterNavigation';
import { loadBrowserReporting } from '../observability/browser/loader';

/**
 * Production reports an exception thrown while the browser renders from the error page Next then renders (_error.tsx).
 * `next dev` shows its overlay instead and never renders that page (next/dist/client/index.js, renderError), so
 * Spotlight would not see the error. In development this reports it the same way, then hands it on to Next.
 */
class ReportedInDevelopment extends Component<
  { pathname: string; children: ReactNode },
  { error?: Error; reported?: boolean }
> {
  override state: { error?: Error; reported?: boolean } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  // Called once the boundary has rendered in its error state (nothing), so that render must not throw at first.
  override componentDidCatch(error: Error) {
    const { pathname } = this.props;
    void loadBrowserReporting().then((sdk) => sdk?.captureUnderscoreErrorException({ err: error, pathname }));
    this.setState({ reported: true });
  }

  override render() {
    if (this.state.reported) throw this.state.error;
    return this.state.error ? null : this.props.children;
  }
}

export default function App({ Component: Page, pageProps, router }: AppProps) {
  useFocusAfterNavigation();
  const page = <Page {...pageProps} />;
  return process.env.NODE_ENV === 'development' ? (
    <ReportedInDevelopment pathname={router.pathname}>{page}</ReportedInDevelopment>
  ) : (
    page
  );
}
