import type { GetServerSideProps } from 'next';
import { serverEnv } from '../../config/env';

export const getServerSideProps: GetServerSideProps = async () => {
  if (!serverEnv().enableDiagnostics) return { notFound: true };
  throw new Error('Diagnostics: an exception thrown in getServerSideProps');
};

export default function SsrError() {
  return null;
}
