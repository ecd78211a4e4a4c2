import { errorPageDescription } from '../config/site';
import { errorText, errorTitle } from '../config/errorText';
import { PageHead } from './PageHead';

export interface ErrorScreenProps {
  /** The HTTP status; absent for an exception thrown in the browser. */
  statusCode?: number;
  /** The error reporter's id for this failure, so that a user can quote it to support. */
  eventId?: string;
}

/** The generic error page of the spec (§2): the status code and the text chosen by status. */
export function ErrorScreen({ statusCode, eventId }: ErrorScreenProps) {
  return (
    // The page's main landmark, so that screen-reader users can jump to it as on every other page.
    <main className="error-page" data-testid="error-page">
      <PageHead title={errorTitle(statusCode)} description={errorPageDescription} />
      {statusCode === undefined ? (
        // No status to head the page: the text is its heading.
        <h1 className="error-text">{errorText(statusCode)}</h1>
      ) : (
        <>
          <h1>{statusCode}</h1>
          <p>{errorText(statusCode)}</p>
        </>
      )}
      {eventId && (
        <p className="error-reference">
          Reference: <code data-testid="event-id">{eventId}</code>
        </p>
      )}
    </main>
  );
}
