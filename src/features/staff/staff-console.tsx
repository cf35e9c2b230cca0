import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { useAppActor } from '../../app/hooks/use-app-machine';
import { brand } from '../../config/brand';
import { PageSpinner } from '../../components/page-spinner';
import { NotFoundPage } from '../../screens/not-found-page';
import { StaffConsoleFrame, StaffSignIn } from '../../screens/staff-console';
import { ActionDialog } from './action-dialog';
import { CustomerOrResults } from './customer';
import { Search } from './search';
import { STAFF_SEARCH_ID, staffAction, staffSearch } from './services';

/** Search engines keep out of the console (it is also linked from nowhere). */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

/**
 * The /staff console (issue 30, item 7; src/features/staff/README.md): its search machine and its one action
 * machine, each part reading only what it shows. Anyone the API does not take as staff sees the plain 404
 * page; a sign-in to renew (a role just granted) is asked for (issue 45 T12).
 */
export function StaffConsolePage() {
  useNoIndex();
  const search = useAppActor(staffSearch, STAFF_SEARCH_ID, {}, STAFF_SEARCH_ID);
  const action = useAppActor(staffAction, 'staff.action', {});
  const ended = useSelector(search, (state) => (state.matches('notFound') ? 'notFound' : state.matches('signInNeeded') ? 'signInNeeded' : null));
  const role = useSelector(search, (state) => state.context.role);

  useEffect(() => {
    if (role) document.title = `Staff console | ${brand.productName}`;
  }, [role]);

  if (ended === 'notFound') return <NotFoundPage />;
  if (ended === 'signInNeeded') return <StaffSignIn />;
  if (!role) return <PageSpinner />;
  return (
    <StaffConsoleFrame role={role}>
      <Search search={search} />
      <CustomerOrResults role={role} search={search} action={action} />
      <ActionDialog search={search} action={action} />
    </StaffConsoleFrame>
  );
}
