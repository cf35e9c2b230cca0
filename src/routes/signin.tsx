import { createFileRoute } from '@tanstack/react-router';
import { SignInPage } from '../screens/signin-page';

export const Route = createFileRoute('/signin')({
  component: SignInPage,
});
