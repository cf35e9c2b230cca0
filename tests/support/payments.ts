/** Sends a signed payment event to a running API, as the provider (Stripe or the local checkout) would. */
import { createHmac, randomUUID } from 'node:crypto';

export const LOCAL_WEBHOOK_SECRET = 'whsec_local_development_only';

export async function sendSubscriptionEvent(
  apiUrl: string,
  {
    userId,
    status,
    cancelAtPeriodEnd = false,
    periodEnd = new Date(Date.now() + 365 * 86_400_000),
    subscriptionId = `sub_test_${userId}`,
    type = 'customer.subscription.updated',
    secret = LOCAL_WEBHOOK_SECRET,
  }: {
    userId: string;
    status: string;
    cancelAtPeriodEnd?: boolean;
    periodEnd?: Date;
    subscriptionId?: string;
    type?: string;
    secret?: string;
  },
): Promise<Response> {
  const created = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({
    id: `evt_test_${randomUUID()}`,
    type,
    created,
    data: {
      object: {
        id: subscriptionId,
        status,
        cancel_at_period_end: cancelAtPeriodEnd,
        current_period_end: Math.floor(periodEnd.getTime() / 1000),
        metadata: { userId },
      },
    },
  });
  const signature = createHmac('sha256', secret).update(`${created}.${body}`).digest('hex');
  return fetch(`${apiUrl}/api/webhooks/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': `t=${created},v1=${signature}` },
    body,
  });
}

/** The user id behind a session token. */
export async function userIdOf(apiUrl: string, sessionToken: string): Promise<string> {
  const response = await fetch(`${apiUrl}/api/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sessionToken }),
  });
  const body = (await response.json()) as { user?: { id: string } };
  if (!body.user) throw new Error(`verify failed: ${JSON.stringify(body)}`);
  return body.user.id;
}
