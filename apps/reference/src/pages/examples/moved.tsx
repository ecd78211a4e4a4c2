import type { GetServerSideProps } from 'next';

/** A framework redirect: answered with 307 to /examples/new, never reported as an error. */
export const getServerSideProps: GetServerSideProps = async () => ({
  redirect: { destination: '/examples/new', permanent: false },
});

export default function Moved() {
  return null;
}
