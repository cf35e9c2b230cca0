import { useServerStatus } from '../../app/hooks/use-server-status';
import { ServerStatusBoard } from '../../screens/server-status-board';

/** The staff console's server table (issue 48 item 3): the public status page's board, under the console's section heading. */
export function StaffServerStatus() {
  return <ServerStatusBoard {...useServerStatus('staff.servers')} headingOrder={3} />;
}
