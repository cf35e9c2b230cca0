/**
 * The staff console's calls (issue 30): only the /staff chunk imports this module, so no public or
 * customer page carries them. Each takes a fresh ID token: the role is its claim, never the body.
 */
import {
  staffActionAnswerSchema,
  staffCustomerAnswerSchema,
  staffSearchAnswerSchema,
  staffServersAnswerSchema,
} from '../../contract/api';
import type { StaffActionName } from '../../contract/staff';
import { call } from './api-client';

export const staffApi = {
  search: (idToken: string, query: string) => call('post', 'staff/search', { idToken, query }, staffSearchAnswerSchema, 'The search failed'),
  customer: (idToken: string, userId: string) =>
    call('post', 'staff/customer', { idToken, userId }, staffCustomerAnswerSchema, 'Could not open the customer'),
  act: (idToken: string, body: { userId: string; action: StaffActionName; reason: string; deviceId?: string }) =>
    call('post', 'staff/actions', { idToken, ...body }, staffActionAnswerSchema, 'The action failed'),
  /** Every VPN server's status with the peer-list version it applied (issue 47 item 2). */
  servers: (idToken: string) => call('post', 'staff/servers', { idToken }, staffServersAnswerSchema, 'Could not load the servers'),
};
