import { createFileRoute } from '@tanstack/react-router';
import { useSignIn } from '../../app/hooks/use-sign-in';
import { SignInPage } from '../../screens/signin-page';

export const Route = createFileRoute('/_mantine/signin')({
  // `redirect`: where a guard sent the visitor from; honoured after sign-in (src/services/navigation.ts).
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  component: SignInRoute,
});

function SignInRoute() {
  const { busy, openingApp, start, prepare, supportMessage } = useSignIn();
  return (
    <SignInPage
      busy={busy}
      openingApp={openingApp}
      supportMessage={supportMessage}
      onGoogle={() => start('google')}
      onApple={() => start('apple')}
      onPrepare={prepare}
    />
  );
}
