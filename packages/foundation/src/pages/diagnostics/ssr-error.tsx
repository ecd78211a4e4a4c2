import type { GetServerSideProps } from 'next';
import { serverSettings } from '../../config/settings.mts';

export const getServerSideProps: GetServerSideProps = async () => {
  if (!serverSettings().enableDiagnostics) return { notFound: true };
  throw new Error('Diagnostics: an exception thrown in getServerSideProps');
};

export default function SsrError() {
  return null;
}
