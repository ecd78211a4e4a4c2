import Head from 'next/head';
import { errorText, errorTitle } from '../config/errorText';

export interface ErrorScreenProps {
  /** The HTTP status; absent for an exception thrown in the browser. */
  statusCode?: number;
  /** The error reporter's id for this failure, so that a user can quote it to support. */
  eventId?: string;
}

/** The generic error page of the spec (§2): the status code and the text chosen by status. */
export function ErrorScreen({ statusCode, eventId }: ErrorScreenProps) {
  return (
    <div className="error-page" data-testid="error-page">
      <Head>
        <title>{errorTitle(statusCode)}</title>
      </Head>
      {statusCode !== undefined && <h1>{statusCode}</h1>}
      <p>{errorText(statusCode)}</p>
      {eventId && (
        <p className="error-reference">
          Reference: <code data-testid="event-id">{eventId}</code>
        </p>
      )}
    </div>
  );
}
