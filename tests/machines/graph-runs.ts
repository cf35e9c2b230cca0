/**
 * The walks of every machine for the generated path tests: inputs, and the concrete events each walk may
 * send. Invoked actors do not run in a walk; their results are `xstate.done.actor.<id>` (with `output`) and
 * `xstate.error.actor.<id>` (with `error`) events. Delays appear as `xstate.after.<delay>.<state id>`
 * events, which xstate/graph offers by itself since they are transitions of the state.
 */
import type { AnyStateMachine, EventObject } from 'xstate';
import { MACHINES, type MachineName } from '../../machines/catalogue';
import {
  activeSubscription,
  appleCredential,
  cancellingSubscription,
  firebaseError,
  googleCredential,
  googleSession,
  inactiveSession,
  inactiveSubscription,
  tokenlessCredential,
} from './fixtures';
import type { GraphRun } from './graph-support';

const done = (id: string, output?: unknown): EventObject => ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
const failed = (id: string, error: unknown): EventObject => ({ type: `xstate.error.actor.${id}`, error }) as EventObject;

const sessionEvents: EventObject[] = [
  done('initialise', { storedSessionToken: 'stored-token' }),
  done('initialise', { storedSessionToken: null }),
  failed('initialise', new Error('Missing identity provider configuration')),
  done('verifySession', googleSession),
  failed('verifySession', Object.assign(new Error('Your session has expired. Please sign in again.'), { status: 401 })),
  failed('verifySession', Object.assign(new Error('Failed to verify session'), { status: null })),
  done('signOutProvider'),
  failed('signOutProvider', new Error('offline')),
  { type: 'session.signedIn', session: inactiveSession } as EventObject,
  { type: 'auth.changed', signedIn: false, storedSessionToken: null } as EventObject,
  { type: 'auth.changed', signedIn: true, storedSessionToken: 'stored-token' } as EventObject,
  { type: 'auth.changed', signedIn: true, storedSessionToken: null } as EventObject,
  { type: 'subscription.refresh' },
  { type: 'subscription.updated', subscription: cancellingSubscription } as EventObject,
  done('fetchSubscription', activeSubscription),
  failed('fetchSubscription', new Error('offline')),
  failed('fetchSubscription', Object.assign(new Error('Your session has expired. Please sign in again.'), { status: 401 })),
  { type: 'session.expired' },
  { type: 'connection.online' },
  { type: 'session.signOut' },
  done('signOut'),
  failed('signOut', new Error('offline')),
  { type: 'session.ended' },
];

const signInEvents: EventObject[] = [
  done('consumeRedirectResult', { credential: googleCredential, providerSignedIn: true, hasStoredSession: false }),
  done('consumeRedirectResult', { credential: null, providerSignedIn: true, hasStoredSession: false }),
  done('consumeRedirectResult', { credential: null, providerSignedIn: false, hasStoredSession: false }),
  failed('consumeRedirectResult', firebaseError('auth/network-request-failed')),
  done('getIdToken', googleCredential),
  done('getIdToken', tokenlessCredential),
  failed('getIdToken', firebaseError('auth/internal-error')),
  { type: 'signIn.start', provider: 'google', pathname: '/signin', search: '' } as EventObject,
  { type: 'signIn.start', provider: 'apple', pathname: '/', search: '' } as EventObject,
  done('signInWithPopup', appleCredential),
  done('signInWithPopup', tokenlessCredential),
  failed('signInWithPopup', firebaseError('auth/popup-blocked')),
  failed('signInWithPopup', firebaseError('auth/user-disabled')),
  done('startRedirect'),
  failed('startRedirect', firebaseError('auth/operation-not-allowed')),
  done('exchangeToken', googleSession),
  failed('exchangeToken', new Error('This account was recently deleted. Try again later.')),
  failed('exchangeToken', new Error('Backend authentication failed')),
  done('signOutProvider'),
  failed('signOutProvider', new Error('offline')),
  done('deepLink', { outcome: 'account' }),
  failed('deepLink', new Error('boom')),
];

const deepLinkEvents: EventObject[] = [done('openDesktopApp'), failed('openDesktopApp', new Error('No hand-off token'))];
const deepLinkBase = { sessionToken: 'session-google', search: '' };

const checkoutUser = { uid: 'uid-1', email: 'ada@example.com' };
const checkoutEvents: EventObject[] = [
  { type: 'checkout.start', user: null, subscription: null } as EventObject,
  { type: 'checkout.start', user: checkoutUser, subscription: activeSubscription } as EventObject,
  { type: 'checkout.start', user: checkoutUser, subscription: inactiveSubscription } as EventObject,
  done('createCheckout', { url: 'https://checkout.example/session' }),
  failed('createCheckout', new Error('Failed to create checkout session')),
  { type: 'checkout.reset' },
];

const autoRenewalEvents: EventObject[] = [
  { type: 'subscription.refresh' },
  done('refreshSubscription'),
  failed('refreshSubscription', new Error('offline')),
  { type: 'autoRenewal.turnOff' },
  { type: 'autoRenewal.confirm' },
  { type: 'autoRenewal.dismiss' },
  { type: 'autoRenewal.reEnable' },
  done('cancelSubscription'),
  failed('cancelSubscription', 'network down'),
  done('resumeSubscription'),
  failed('resumeSubscription', new Error('No active subscription found.')),
  { type: 'refund.start' },
  { type: 'refund.confirm' },
  { type: 'refund.dismiss' },
  done('refundSubscription'),
  failed('refundSubscription', 'network down'),
];

const billingHistoryEvents: EventObject[] = [
  done('loadBillingHistory', { items: [], refundableUntil: null }),
  failed('loadBillingHistory', new Error('Could not load your billing history')),
  { type: 'billingHistory.reload' },
];

const activityEvents: EventObject[] = [
  done('loadActivity', { items: [{ kind: 'staff_action', by: 'support', date: '2026-11-26', detail: { action: 'refund' } }], nextCursor: '2026-11-26.7' }),
  done('loadActivity', { items: [], nextCursor: null }),
  failed('loadActivity', new Error('Could not load your account activity')),
  done('loadMoreActivity', { items: [{ kind: 'auto_renewal_off', by: 'customer', date: '2026-11-20', detail: {} }], nextCursor: null }),
  failed('loadMoreActivity', new Error('Could not load more of your account activity')),
  { type: 'activity.reload' },
  { type: 'activity.more' },
];

const staffCustomer = { profile: { id: 'usr_1' } };
const forbidden = Object.assign(new Error('Your staff role does not allow this.'), { status: 403, code: 'staff_forbidden' });
const staffSearchEvents: EventObject[] = [
  done('loadRole', 'admin'),
  done('loadRole', null),
  failed('loadRole', new Error('Please sign in again.')),
  failed('loadRole', Object.assign(new Error('Please sign in again.'), { code: 'sign_in_again' })),
  { type: 'search.submit', query: 'ada@' } as EventObject,
  done('searchCustomers', { role: 'admin', customers: [{ id: 'usr_1', email: 'ada@example.com', name: 'Ada', status: 'active', createdAt: '2026-11-01T00:00:00.000Z' }] }),
  failed('searchCustomers', new Error('offline')),
  failed('searchCustomers', forbidden),
  { type: 'customer.open', userId: 'usr_1' } as EventObject,
  done('loadCustomer', { role: 'admin', customer: staffCustomer }),
  failed('loadCustomer', new Error('Customer not found.')),
  failed('loadCustomer', forbidden),
  { type: 'customer.reload' },
  { type: 'customer.close' },
];

const staffActionEvents: EventObject[] = [
  { type: 'action.start', action: 'revoke_device', userId: 'usr_1', deviceId: 'ses_1' } as EventObject,
  { type: 'reason.change', reason: 'Lost laptop' } as EventObject,
  { type: 'reason.change', reason: 'no' } as EventObject,
  { type: 'action.confirm' },
  { type: 'action.cancel' },
  done('performAction'),
  failed('performAction', new Error('Device not found.')),
];

const dataExportEvents: EventObject[] = [
  { type: 'dataExport.start' },
  { type: 'dataExport.reauth' },
  { type: 'dataExport.cancel' },
  done('exportData', { exportedAt: '2026-11-26T10:00:00.000Z', accountId: 'usr_1', summary: ['Subscription: none.'], parts: [], emailsSent: [] }),
  failed('exportData', Object.assign(new Error('For your security, please sign in again to download your data.'), { code: 'reauth_required' })),
  failed('exportData', new Error('Too many attempts. Please wait a moment and try again.')),
  done('reauthenticate'),
  failed('reauthenticate', new Error('The popup was closed')),
];

const deletionEvents: EventObject[] = [
  { type: 'account.delete' },
  { type: 'account.confirmDelete' },
  { type: 'account.cancelDelete' },
  done('deleteAccount'),
  failed('deleteAccount', new Error('offline')),
  done('refreshSubscription'),
  failed('refreshSubscription', new Error('unauthorised')),
];

const activationEvents: EventObject[] = [
  done('checkSubscription', activeSubscription),
  done('checkSubscription', inactiveSubscription),
  failed('checkSubscription', new Error('offline')),
  { type: 'activation.retry' },
];

const appLinkEvents: EventObject[] = [
  { type: 'appLink.open' },
  { type: 'appLink.notOpened' },
  { type: 'page.hidden' },
  done('openAppLink'),
  failed('openAppLink', new Error('offline')),
];

const device = { id: 'ses_1', kind: 'desktop', deviceName: 'MacBook', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: '2026-11-20T10:00:00Z' };
const wireguardDevice = { id: 'wgk_1', kind: 'wireguard', deviceName: 'Home router', createdAt: '2026-11-02T10:00:00Z' };
const devicesEvents: EventObject[] = [
  done('listDevices', [device, wireguardDevice]),
  failed('listDevices', new Error('offline')),
  { type: 'devices.reload' },
  { type: 'devices.revoke', deviceId: 'ses_1' } as EventObject,
  { type: 'devices.revoke', deviceId: 'wgk_1' } as EventObject,
  { type: 'devices.confirmRemoval' },
  { type: 'devices.cancelRemoval' },
  done('revokeDevice', 7),
  failed('revokeDevice', new Error('Device not found.')),
];

const removalEvents: EventObject[] = [
  { type: 'removal.check', version: 7 } as EventObject,
  done('checkRemoval', { confirmed: true, lagging: [] }),
  done('checkRemoval', { confirmed: false, lagging: ['Lagos, Nigeria'] }),
  failed('checkRemoval', new Error('offline')),
  done('checkRemovalAgain', { confirmed: true, lagging: [] }),
  done('checkRemovalAgain', { confirmed: false, lagging: ['Lagos, Nigeria'] }),
  failed('checkRemovalAgain', new Error('offline')),
];

const server = {
  id: 'us-nyc-1',
  country: 'US',
  countryName: 'United States',
  city: 'New York',
  hostname: 'us-nyc-1.vpn.veil.example',
  endpointHost: '192.0.2.10',
  endpointPort: 51820,
  publicKey: 'JRvNKoxqtv74Qb4fnNzUOAiNl9GcMDHaFNTWAYDgPA8=',
  dns: ['10.64.0.1'],
};
const addDeviceEvents: EventObject[] = [
  { type: 'addDevice.open' },
  { type: 'addDevice.replace', deviceId: 'wgk_1', name: 'Phone' } as EventObject,
  done('choosePlatform', 'android'),
  done('choosePlatform', null),
  failed('choosePlatform', new Error('storage refused')),
  done('loadServers', [server]),
  failed('loadServers', new Error('offline')),
  { type: 'addDevice.submit', name: 'Phone', platform: 'ios', serverId: 'us-nyc-1' } as EventObject,
  done('generateKeyPair', { privateKey: 'cHJpdmF0ZQ==', publicKey: 'G8arjbiZ2lErtbJZgeRirmxED+XvVUQw67DAHCq1BDM=' }),
  failed('generateKeyPair', new Error('This browser could not make a key')),
  done('registerKey', { id: 'wgk_1', kind: 'wireguard', name: 'Phone', publicKey: 'G8arjbiZ2lErtbJZgeRirmxED+XvVUQw67DAHCq1BDM=', ipv4Address: '10.64.0.2', ipv6Address: 'fd76:6569:6c00::2', createdAt: '2026-11-26T10:00:00Z' }),
  failed('registerKey', Object.assign(new Error('This account already has 10 devices'), { code: 'device_limit' })),
  failed('registerKey', Object.assign(new Error('For your security, please sign in again to add a device.'), { code: 'reauth_required' })),
  { type: 'addDevice.reauth' },
  done('reauthenticate'),
  failed('reauthenticate', new Error('The popup was closed')),
  { type: 'addDevice.retry' },
  { type: 'addDevice.close' },
];

const statusAnswer = {
  servers: [
    {
      id: 'us-nyc-1',
      country: 'US',
      countryName: 'United States',
      city: 'New York',
      online: true,
      maintenance: false,
      load: 37,
      lastReportAt: '2026-11-28T10:00:00.000Z',
      uptime30d: 100,
      uptime90d: 99.95,
      days: Array.from({ length: 90 }, () => 1),
    },
  ],
  updatedAt: '2026-11-28T10:00:30.000Z',
};
const statusReading = { status: statusAnswer, receivedAt: Date.parse('2026-11-28T10:00:31.000Z') };
const serverStatusEvents: EventObject[] = [
  done('fetchServerStatus', statusReading),
  failed('fetchServerStatus', new Error('Could not load the server status')),
  { type: 'status.refresh' },
];

export interface MachineWalk {
  name: string;
  machine: AnyStateMachine;
  runs: GraphRun[];
}

/** The runs of every catalogued machine: a machine added to machines/catalogue.ts without runs does not compile. */
const RUNS: Record<MachineName, GraphRun[]> = {
  session: [{ name: 'app start', events: sessionEvents }],
  'sign-in': [
    { name: 'desktop on /signin', input: { isDesktop: true, location: { pathname: '/signin', search: '' } }, events: signInEvents },
  ],
  'deep-link': [
    { name: 'not active', input: { ...deepLinkBase, subscriptionActive: false, isDesktop: true, mode: 'popup', pathname: '/' } },
    { name: 'active, mobile', input: { ...deepLinkBase, subscriptionActive: true, isDesktop: false, mode: 'popup', pathname: '/' } },
    { name: 'active, desktop, popup on /', input: { ...deepLinkBase, subscriptionActive: true, isDesktop: true, mode: 'popup', pathname: '/' } },
    { name: 'active, desktop, popup on /account', input: { ...deepLinkBase, subscriptionActive: true, isDesktop: true, mode: 'popup', pathname: '/account' } },
    { name: 'active, desktop, redirect on /', input: { ...deepLinkBase, subscriptionActive: true, isDesktop: true, mode: 'redirect', pathname: '/' } },
  ].map((run) => ({ ...run, events: deepLinkEvents })),
  checkout: [{ name: 'subscribe page', events: checkoutEvents }],
  'auto-renewal': [
    { name: 'signed in', input: { user: checkoutUser }, events: autoRenewalEvents },
    { name: 'no user', input: { user: null }, events: autoRenewalEvents },
  ],
  devices: [{ name: 'account page', events: devicesEvents }],
  'add-device': [{ name: 'account page', events: addDeviceEvents }],
  'removal-confirmation': [{ name: 'account page', events: removalEvents }],
  'billing-history': [{ name: 'account page', events: billingHistoryEvents }],
  'account-activity': [{ name: 'account page', events: activityEvents }],
  'staff-search': [{ name: 'console', events: staffSearchEvents }],
  'staff-action': [{ name: 'revoke a device', events: staffActionEvents }],
  'data-export': [{ name: 'account page', events: dataExportEvents }],
  'server-status': [
    { name: 'staff console (fetches on open)', input: {}, events: serverStatusEvents },
    { name: 'status page, its first figures shown', input: { first: { outcome: 'received', reading: statusReading } }, events: serverStatusEvents },
    { name: 'status page, its first fetch failed', input: { first: { outcome: 'failed' } }, events: serverStatusEvents },
  ],
  activation: [{ name: 'after payment', events: activationEvents }],
  'app-link': [{ name: 'open the app', events: appLinkEvents }],
  'account-deletion': [
    { name: 'signed in', input: { user: checkoutUser }, events: deletionEvents },
    { name: 'no email', input: { user: { uid: 'uid-1', email: '' } }, events: deletionEvents },
  ],
};

export const walks: MachineWalk[] = MACHINES.map(({ name, machine }) => ({ name, machine, runs: RUNS[name] }));
