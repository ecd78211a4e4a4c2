import type { GetServerSideProps } from 'next';
import { serverSettings } from '../../config/settings.mts';

// Operators check that an error thrown while the server renders a page is reported and logged (ENABLE_DIAGNOSTICS=1).
export const getServerSideProps: GetServerSideProps = async () =>
  serverSettings().enableDiagnostics ? { props: {} } : { notFound: true };

export default function RenderError(): never {
  throw new Error('Diagnostics: an exception thrown while the server renders a page');
}
