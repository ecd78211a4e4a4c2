import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { sessionCookieName, sessionUser } from '../server/session';

interface AccountProps {
  userId: string;
}

// No valid session: to the sign-in page, before anything of the account is read.
export const getServerSideProps: GetServerSideProps<AccountProps> = async ({ req }) => {
  const userId = sessionUser(req.cookies[sessionCookieName]);
  if (!userId) return { redirect: { destination: '/sign-in', permanent: false } };
  return { props: { userId } };
};

export default function Account({ userId }: AccountProps) {
  return (
    <main>
      <PageHead title="Your account" description="The account you are signed in to." />
      <h1>Your account</h1>
      <p>
        Signed in as <code>{userId}</code>.
      </p>
      <form method="post" action="/api/sign-out">
        <button type="submit">Sign out</button>
      </form>
    </main>
  );
}
