import type { GetServerSideProps } from 'next';
import { ErrorScreen } from '@web-foundation/foundation/components/ErrorScreen';

/** A status the spec has no text for (503): the error page shows its generic text. */
export const getServerSideProps: GetServerSideProps = async ({ res }) => {
  res.statusCode = 503;
  res.setHeader('Retry-After', '120');
  return { props: {} };
};

export default function Unavailable() {
  return <ErrorScreen statusCode={503} />;
}
