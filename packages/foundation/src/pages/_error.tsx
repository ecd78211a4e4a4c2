import type { NextPageContext } from 'next';
import { ErrorScreen, type ErrorScreenProps } from '../components/ErrorScreen';
import { loadBrowserReporting } from '../observability/browser/loader';

/** The server's SDK is running from start-up; the browser's may not have loaded yet, so the error page loads it. */
const reportingSdk = () => (typeof window === 'undefined' ? import('@sentry/nextjs') : loadBrowserReporting());

export default function ErrorPage(props: ErrorScreenProps) {
  return <ErrorScreen {...props} />;
}

ErrorPage.getInitialProps = async (context: NextPageContext): Promise<ErrorScreenProps> => {
  const { res, err } = context;
  // As Next's own error page: the response's status on the server, an error's own status in the
  // browser (none for a client-side exception), and 404 when neither exists (client-side not-found).
  const statusCode = res ? res.statusCode : err ? (err as { statusCode?: number }).statusCode : 404;
  // Reports 5xx and client-side exceptions (the SDK skips statuses below 500); its id is shown to the user.
  const eventId = await (await reportingSdk())?.captureUnderscoreErrorException(context);
  return { ...(statusCode === undefined ? {} : { statusCode }), ...(eventId ? { eventId } : {}) };
};
