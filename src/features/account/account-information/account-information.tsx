import { useRouter } from '@tanstack/react-router';
import { useAppActors } from '../../../app/actors/app-context';
import { useSessionTag, useSessionUser } from '../../../app/hooks/use-session';
import { AccountInformationCard } from '../../../screens/account-information-card';

/**
 * Account Information: the session's user, and Sign Out. The session machine signs out; a deliberate Sign
 * Out here leads to the home page, where the spec's toast shows (design §8).
 */
export function AccountInformation() {
  const { session } = useAppActors();
  const router = useRouter();
  const user = useSessionUser()!;
  const signingOut = useSessionTag('signingOut');
  return (
    <AccountInformationCard
      user={user}
      signingOut={signingOut}
      onSignOut={() => {
        session.send({ type: 'session.signOut' });
        void router.navigate({ to: '/', replace: true });
      }}
    />
  );
}
