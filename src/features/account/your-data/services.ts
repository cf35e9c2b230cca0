/**
 * The "Your data" card's services (issue 31, item 4): the copy from POST /api/account/export with a fresh
 * ID token, signing in again when the API wants a recent sign-in, and saving the copy as a file.
 */
import { fromPromise } from 'xstate';
import type { AccountExport } from '../../../../contract/api';
import { dataExportMachine, exportFileName } from '../../../../machines/data-export';
import { api } from '../../../services/api-client';
import { idToken } from '../../../app/flows/checkout-services';
import { getClientConfig } from '../../../app/flows/session-services';
import { toast } from '../session-calls';

/** The copy as a JSON file the browser downloads (named by the day it was made). */
function saveAsFile(copy: AccountExport): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(copy, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(copy);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function provideDataExport() {
  // The ID token of the last sign-in again, used for the export that follows it.
  let freshToken: string | null = null;
  return dataExportMachine.provide({
    actors: {
      // A 401 here is the export's own answer (reauth_required), not the session's end: no withSession.
      exportData: fromPromise<AccountExport>(async () => {
        const token = freshToken ?? (await idToken());
        freshToken = null;
        return api.exportData({ idToken: token });
      }),
      reauthenticate: fromPromise<void>(async () => {
        const { reauthenticate } = await import('../../../services/firebase-auth');
        freshToken = await reauthenticate(getClientConfig());
      }),
    },
    actions: {
      saveFile: (_, params: { copy: AccountExport }) => saveAsFile(params.copy),
      showToast: toast,
    },
  });
}
