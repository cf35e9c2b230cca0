import { useSelector } from '@xstate/react';
import type { StaffRole } from '../../../contract/staff';
import { StaffResults } from '../../screens/staff-console';
import { StaffCustomerPage, StaffSection } from '../../screens/staff-customer';
import { StaffServerStatus } from './server-status';
import type { StaffActionActor, StaffSearchActor } from './services';

interface Props {
  role: StaffRole;
  search: StaffSearchActor;
  action: StaffActionActor;
}

/** The customer opened, or the results and every VPN server's state while none is. */
export function CustomerOrResults({ role, search, action }: Props) {
  const customer = useSelector(search, (state) => state.context.customer);
  if (!customer) return <Results search={search} />;
  return (
    <StaffCustomerPage
      role={role}
      customer={customer}
      onClose={() => search.send({ type: 'customer.close' })}
      onAction={(name, deviceId) => action.send({ type: 'action.start', action: name, userId: customer.profile.id, ...(deviceId ? { deviceId } : {}) })}
    />
  );
}

function Results({ search }: { search: StaffSearchActor }) {
  const customers = useSelector(search, (state) => state.context.customers);
  const searched = useSelector(search, (state) => state.context.query !== '');
  return (
    <>
      <StaffResults customers={customers} searched={searched} onOpen={(userId) => search.send({ type: 'customer.open', userId })} />
      <StaffSection id="staff-servers" title="VPN servers">
        <StaffServerStatus />
      </StaffSection>
    </>
  );
}
