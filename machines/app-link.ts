/**
 * Opening the desktop app through its `veilvpn://` link, told to the customer (issue 22 item 2): the page
 * says "Opening Veil VPN…" while the link opens; if the page is still in front after `appLinkFallback`
 * (about 1.5 s: the app did not take over, it is probably not installed) it offers the download and a way
 * to try again. Used by Open VPN App (/account), Open Desktop App (/success) and Return to App (/cancel).
 */
import { fromPromise, setup } from 'xstate';
import { invokeCall } from './invoke-call';

/** How long the page waits for the app to take over before offering the download. */
export const APP_LINK_FALLBACK_MS = 1500;

export type AppLinkEvent =
  | { type: 'appLink.open' }
  | { type: 'page.hidden' }
  /** The link was opened elsewhere (a desktop sign-in on /signin) and the page is still in front. */
  | { type: 'appLink.notOpened' };

export const appLinkMachine = setup({
  types: {
    events: {} as AppLinkEvent,
    tags: {} as 'opening' | 'notOpened',
  },
  actors: {
    /** Opens the link (for Open VPN App: mints a one-time hand-off token first). Rejects if it could not. */
    openAppLink: fromPromise<void>(() => Promise.reject(new Error('openAppLink not provided'))),
  },
  delays: {
    appLinkFallback: APP_LINK_FALLBACK_MS,
  },
}).createMachine({
  id: 'appLink',
  initial: 'idle',
  states: {
    idle: {
      on: { 'appLink.open': { target: 'opening' }, 'appLink.notOpened': { target: 'notOpened' } },
    },
    opening: {
      tags: ['opening'],
      // On failure the link could not be made (the caller has said why): nothing is opening.
      invoke: invokeCall('openAppLink', { onDone: 'waiting', onError: 'idle' }),
    },
    waiting: {
      tags: ['opening'],
      // The app took over: the browser hid the page or the window lost focus (the SPA sends this on
      // `visibilitychange` to hidden and on `blur`, which the browser's "Open Veil VPN?" prompt also causes).
      on: { 'page.hidden': { target: 'opened' } },
      // Still in front: the app did not open.
      after: { appLinkFallback: { target: 'notOpened' } },
    },
    notOpened: {
      tags: ['notOpened'],
      on: { 'appLink.open': { target: 'opening' } },
    },
    opened: {
      on: { 'appLink.open': { target: 'opening' } },
    },
  },
});
