import type { NextPageContext } from 'next';
import { ErrorScreen, type ErrorScreenProps } from '../components/ErrorScreen';

export default function ErrorPage(props: ErrorScreenProps) {
  return <ErrorScreen {...props} />;
}

ErrorPage.getInitialProps = ({ res, err }: NextPageContext): ErrorScreenProps => {
  // As Next's own error page: the response's status on the server, an error's own status in the
  // browser (none for a client-side exception), and 404 when neither exists (client-side not-found).
  const statusCode = res ? res.statusCode : err ? (err as { statusCode?: number }).statusCode : 404;
  return statusCode === undefined ? {} : { statusCode };
};
