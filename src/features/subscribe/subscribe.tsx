import { useRouter } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { provideCheckout } from '../../app/flows/checkout-services';
import { useAppActors } from '../../app/actors/app-context';
import { useAppMachine } from '../../app/hooks/use-app-machine';
import { useSessionTag, useSessionUser, useSubscription } from '../../app/hooks/use-session';
import { useSignIn } from '../../app/hooks/use-sign-in';
import { SubscribePage } from '../../screens/subscribe-page';
import { isActive } from '../../../machines/subscription-display';

/** /subscribe (src/routes/_mantine/subscribe.tsx shows it): the checkout flow, or the sign-in buttons. */
export function SubscribeRoute() {
  const router = useRouter();
  const actors = useAppActors();
  const { session } = actors;
  const loading = useSessionTag('loading');
  const user = useSessionUser();
  const subscription = useSubscription();
  const signIn = useSignIn();
  const machine = useMemo(() => provideCheckout(({ to }) => void router.navigate({ to })), [router]);
  const [state, send] = useAppMachine(machine, 'subscribe.checkout', {});

  // Back from the payment page through the back/forward cache: make the button usable again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => event.persisted && send({ type: 'checkout.reset' });
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [send]);

  if (loading) return <SubscribePage view="loading" />;
  if (!user) {
    return (
      <SubscribePage
        view="signedOut"
        onGoogle={() => signIn.start('google')}
        onApple={() => signIn.start('apple')}
        signingIn={signIn.busy}
        supportMessage={signIn.supportMessage}
      />
    );
  }
  if (isActive(subscription)) return <SubscribePage view="subscriber" email={user.email} />;
  return (
    <SubscribePage
      view="signedIn"
      email={user.email}
      redirecting={state.hasTag('busy')}
      moneyBackUsed={subscription?.moneyBackUsed === true}
      onSubscribe={() =>
        send({
          type: 'checkout.start',
          user: { uid: user.uid, email: user.email },
          subscription: session.getSnapshot().context.subscription ?? subscription,
        })
      }
    />
  );
}
