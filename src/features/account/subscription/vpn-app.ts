import { useEffect, useState } from 'react';
import type { AppActors } from '../../../app/actors/app-actors';
import { useAppLink } from '../../../app/hooks/use-app-link';
import { storage } from '../../../services/storage';
import { openVpnApp } from './services';

/** How long after a sign-in opened the app's link /account still speaks of it (the hand-off takes 2 s). */
const APP_LINK_AFTER_SIGN_IN_MS = 10_000;

/**
 * The desktop app started a pairing (issue 23): /account?pair=<PKCE challenge>. Once signed in, the page
 * asks the customer first (issue 34: any app or page can open this address), and only on their yes mints
 * a link for that challenge and opens the app. The parameter is dropped at once, so a reload does not ask
 * again.
 */
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function usePairingRequest(actors: AppActors) {
  const [challenge, setChallenge] = useState<string | null>(null);
  useEffect(() => {
    const url = new URL(window.location.href);
    const asked = url.searchParams.get('pair');
    if (asked === null) return;
    url.searchParams.delete('pair');
    window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
    // The contract's shape (a base64url SHA-256), checked here without loading zod on this page.
    if (PKCE_CHALLENGE.test(asked)) setChallenge(asked);
  }, []);
  return {
    pending: challenge !== null,
    // A link that could not be made has said why in a toast already.
    confirm: () => {
      if (challenge !== null) openVpnApp(actors, challenge).catch(() => undefined);
      setChallenge(null);
    },
    dismiss: () => setChallenge(null),
  };
}

/**
 * Open VPN App on the Subscription Status card, with what arriving at /account means for it: a pairing
 * request from the desktop app (`pairing`: its confirmation), or a desktop sign-in whose app link did not open.
 */
export function useVpnApp(actors: AppActors) {
  const pairing = usePairingRequest(actors);
  const vpnApp = useAppLink(() => openVpnApp(actors));
  // Sent here by a desktop sign-in that opened the app's link: still in front means it did not open.
  const { notOpened } = vpnApp;
  useEffect(() => {
    const openedAt = storage.takeAppLinkAfterSignIn();
    if (openedAt !== null && Date.now() - openedAt < APP_LINK_AFTER_SIGN_IN_MS && document.hasFocus()) notOpened();
    // Once, on arrival.
  }, []);
  return { ...vpnApp, pairing };
}
