import Head from 'next/head';
import { errorText, errorTitle } from '../config/errorText';

export interface ErrorScreenProps {
  /** The HTTP status; absent for an exception thrown in the browser. */
  statusCode?: number;
}

/** The generic error page of the spec (§2): the status code and the text chosen by status. */
export function ErrorScreen({ statusCode }: ErrorScreenProps) {
  return (
    <div className="error-page" data-testid="error-page">
      <Head>
        <title>{errorTitle(statusCode)}</title>
      </Head>
      {statusCode !== undefined && <h1>{statusCode}</h1>}
      <p>{errorText(statusCode)}</p>
    </div>
  );
}
