import { shallowEqual, useSelector } from '@xstate/react';
import { ACCOUNT_CARDS } from '../../../../machines/account-cards';
import { YourDataCard } from '../../../screens/your-data-card';
import { useCard } from '../use-card';
import { provideDataExport } from './services';

/** Your data: "Download your data", signing in again when the API asks for a recent sign-in (issue 31, item 4). */
export function YourData() {
  const dataExport = useCard(provideDataExport, ACCOUNT_CARDS.dataExport, {});
  const shown = useSelector(
    dataExport,
    (state) => ({
      busy: state.hasTag('busy'),
      signInNeeded: state.matches('signInNeeded') || state.matches('reauthenticating'),
      error: state.context.error,
      saved: state.context.saved,
    }),
    shallowEqual,
  );
  return (
    <YourDataCard
      {...shown}
      onDownload={() => dataExport.send({ type: 'dataExport.start' })}
      onSignInAgain={() => dataExport.send({ type: 'dataExport.reauth' })}
      onCancel={() => dataExport.send({ type: 'dataExport.cancel' })}
    />
  );
}
