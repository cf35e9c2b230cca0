/** Shared test data for the machine tests. */
import type { Subscription } from '../../contract/api';
import type { ProviderCredential, Session } from '../../machines/types';

export const activeSubscription: Subscription = {
  status: 'active',
  plan: 'Premium',
  cancelAtPeriodEnd: false,
  endDate: '2026-10-09T00:00:00.000Z',
};
export const inactiveSubscription: Subscription = { status: 'inactive', cancelAtPeriodEnd: false };
export const cancellingSubscription: Subscription = { ...activeSubscription, cancelAtPeriodEnd: true };

export const googleSession: Session = {
  sessionToken: 'session-google',
  user: { uid: 'uid-1', email: 'ada@example.com', displayName: 'Ada', provider: 'google' },
  subscription: activeSubscription,
};
export const inactiveSession: Session = {
  sessionToken: 'session-inactive',
  user: { uid: 'uid-2', email: 'bob@example.com', displayName: 'Bob', provider: 'apple' },
  subscription: inactiveSubscription,
};

export const googleCredential: ProviderCredential = {
  provider: 'google',
  idToken: 'google-id-token',
  accountUid: 'uid-1',
  providerUid: 'google-sub-1',
  email: 'ada@example.com',
  displayName: 'Ada',
};
export const appleCredential: ProviderCredential = {
  provider: 'apple',
  idToken: 'apple-id-token',
  accountUid: 'uid-2',
  providerUid: 'apple-sub-2',
  email: 'bob@example.com',
  displayName: 'Bob',
};
export const tokenlessCredential: ProviderCredential = { ...googleCredential, idToken: null };

/** A Firebase-style error. */
export function firebaseError(code: string): Error & { code: string } {
  return Object.assign(new Error(`Firebase: Error (${code}).`), { code });
}
