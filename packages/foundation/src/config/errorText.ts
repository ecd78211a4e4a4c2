import { clientExceptionText, errorTexts, unexpectedErrorText } from './specification.mts';

/** The spec's error-page text for a status; no status means a client-side exception. */
export function errorText(statusCode: number | undefined): string {
  if (statusCode === undefined) return clientExceptionText;
  return errorTexts[statusCode as keyof typeof errorTexts] ?? unexpectedErrorText;
}

/** The error page's title: `<status>: <text>`, or the text alone when there is no status. */
export function errorTitle(statusCode: number | undefined): string {
  const text = errorText(statusCode);
  return statusCode === undefined ? text : `${statusCode}: ${text}`;
}
