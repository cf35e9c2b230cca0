import { useSignIn } from '../../app/hooks/use-sign-in';
import { SignInPage } from '../../screens/signin-page';
import { mantinePage } from '../../app/frame/mantine-page';

/**
 * /signin's buttons wired to the sign-in flow (src/routes/_mantine/signin.tsx shows it under the router).
 * The flow reads `?redirect=` from the address itself (src/app/actors/app-actors.ts), not from a router.
 */
export function SignIn() {
  const { busy, openingApp, start, prepare, supportMessage, recentlyDeleted } = useSignIn();
  return (
    <SignInPage
      busy={busy}
      openingApp={openingApp}
      supportMessage={supportMessage}
      recentlyDeleted={recentlyDeleted}
      onGoogle={() => start('google')}
      onApple={() => start('apple')}
      onPrepare={prepare}
    />
  );
}

export const PublicPage = mantinePage(SignIn);
