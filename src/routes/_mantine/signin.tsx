import { createFileRoute } from '@tanstack/react-router';
import { SignIn } from '../../features/signin/signin';

export const Route = createFileRoute('/_mantine/signin')({
  // `redirect`: where a guard sent the visitor from; honoured after sign-in (src/services/navigation.ts).
  validateSearch: (search: Record<string, unknown>): { redirect?: string } =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  component: SignIn,
});
