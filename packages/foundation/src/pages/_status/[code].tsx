import type { GetServerSideProps } from 'next';
import { ErrorScreen } from '../../components/ErrorScreen';

interface Props {
  statusCode: number;
}

const statuses = new Set([400, 404, 405]);

/** The error page for a status decided by the proxy (a malformed URL, a method a page does not answer). */
export const getServerSideProps: GetServerSideProps<Props, { code: string }> = async ({ params, res }) => {
  const statusCode = Number(params?.code);
  if (!statuses.has(statusCode)) return { notFound: true };
  res.statusCode = statusCode;
  return { props: { statusCode } };
};

export default function StatusPage({ statusCode }: Props) {
  return <ErrorScreen statusCode={statusCode} />;
}
