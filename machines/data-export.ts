/**
 * The account page's "Your data" card (issue 31, item 4): "Download your data" asks the API for the
 * customer's copy and saves it as a file. The API wants a sign-in within the last 10 minutes: when it
 * answers `reauth_required`, the card asks the customer to sign in again, then asks once more.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { AccountExport } from '../contract/api';
import { errorMessage } from './error-message';
import type { NoInputMachineTypes } from './types';

export interface DataExportContext {
  /** What went wrong last, shown on the card; null once a copy was saved. */
  error: string | null;
  /** The last copy saved: its file's name and its summary, shown beside the download (issue 45, T16). */
  saved: { fileName: string; summary: string[] } | null;
}

export type DataExportEvent = { type: 'dataExport.start' } | { type: 'dataExport.reauth' } | { type: 'dataExport.cancel' };

/** The name the copy is saved under: the product's and the day it was made. */
export const exportFileName = (copy: Pick<AccountExport, 'exportedAt'>) => `veil-vpn-data-${copy.exportedAt.slice(0, 10)}.json`;

/** The API's answer when the sign-in is older than 10 minutes. */
const REAUTH_REQUIRED = 'reauth_required';

export const dataExportMachine = setup({
  types: {} as NoInputMachineTypes<DataExportContext, DataExportEvent, 'busy'>,
  actors: {
    /** POST /api/account/export {idToken}: the copy. */
    exportData: fromPromise<AccountExport>(() => Promise.reject(new Error('exportData not provided'))),
    /** The provider's sign-in again (a popup), for a fresh `auth_time`. */
    reauthenticate: fromPromise<void>(() => Promise.reject(new Error('reauthenticate not provided'))),
  },
  actions: {
    /** Saves the copy as a file the browser downloads. */
    saveFile: (_args, _params: { copy: AccountExport }) => {},
    showToast: (_args, _params: { type: 'success' | 'error'; title: string; message: string }) => {},
    assignError: assign((_args, params: { message: string | null }) => ({ error: params.message })),
    assignSaved: assign((_args, params: { copy: AccountExport }) => ({ saved: { fileName: exportFileName(params.copy), summary: params.copy.summary } })),
  },
  guards: {
    needsSignIn: (_args, params: { error: unknown }) => (params.error as { code?: unknown } | null)?.code === REAUTH_REQUIRED,
  },
}).createMachine({
  id: 'dataExport',
  context: { error: null, saved: null },
  initial: 'idle',
  states: {
    idle: { on: { 'dataExport.start': 'exporting' } },
    exporting: {
      tags: ['busy'],
      invoke: {
        id: 'exportData',
        src: 'exportData',
        onDone: {
          target: 'idle',
          actions: [
            { type: 'saveFile', params: ({ event }) => ({ copy: event.output }) },
            { type: 'assignSaved', params: ({ event }) => ({ copy: event.output }) },
            { type: 'assignError', params: { message: null } },
            { type: 'showToast', params: { type: 'success', title: 'Your data', message: 'Your file was downloaded.' } },
          ],
        },
        onError: [
          { guard: { type: 'needsSignIn', params: ({ event }) => ({ error: event.error }) }, target: 'signInNeeded', actions: { type: 'assignError', params: { message: null } } },
          {
            target: 'idle',
            actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'Could not prepare your data. Please try again.') }) },
          },
        ],
      },
    },
    signInNeeded: { on: { 'dataExport.reauth': 'reauthenticating', 'dataExport.cancel': 'idle' } },
    reauthenticating: {
      tags: ['busy'],
      invoke: {
        id: 'reauthenticate',
        src: 'reauthenticate',
        onDone: 'exporting',
        onError: {
          target: 'signInNeeded',
          actions: { type: 'assignError', params: ({ event }) => ({ message: errorMessage(event.error, 'The sign-in did not complete. Please try again.') }) },
        },
      },
    },
  },
});
