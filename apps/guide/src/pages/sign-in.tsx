import type { GetServerSideProps } from 'next';
import { PageHead } from '@web-foundation/foundation/components/PageHead';
import { sessionCookieName, sessionUser } from '../server/session';

interface SignInProps {
  failed: boolean;
}

export const getServerSideProps: GetServerSideProps<SignInProps> = async ({ req, query }) => {
  if (sessionUser(req.cookies[sessionCookieName])) return { redirect: { destination: '/account', permanent: false } };
  return { props: { failed: query.failed === '1' } };
};

// A plain form: it posts without any script, so the strict CSP has nothing to block.
export default function SignIn({ failed }: SignInProps) {
  return (
    <main>
      <PageHead title="Sign in" description="Sign in to your account." />
      <h1>Sign in</h1>
      {failed && <p role="alert">Wrong email or password.</p>}
      <form method="post" action="/api/sign-in">
        <label>
          Email <input name="email" type="email" autoComplete="username" required />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" required />
        </label>
        <button type="submit">Sign in</button>
      </form>
    </main>
  );
}
