import { useServerStatus } from '../../app/hooks/use-server-status';
import { ServerStatusBoard } from '../../screens/server-status-board';
import { provideStaffServerStatus } from './services';

const machine = provideStaffServerStatus();

/**
 * The staff console's server table (issue 48 item 3): the public status page's board, under the console's
 * section heading, with the peer-list version each server applied (issue 47 item 2).
 */
export function StaffServerStatus() {
  return <ServerStatusBoard {...useServerStatus('staff.servers', machine)} headingOrder={3} />;
}
