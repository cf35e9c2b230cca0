/**
 * A local stand-in for the part of Stripe's API the adapter calls, reached through the official SDK
 * (its host/port/protocol options). It keeps customers, checkout sessions and subscriptions in memory and
 * records every request, so tests assert what was sent and what Stripe would now hold.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

interface StandInSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  /** Set by a cancel (DELETE) with `cancellation_details[comment]`. */
  cancellation_details?: { comment: string | null };
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  latest_invoice: string | null;
  items: { object: 'list'; data: { current_period_end: number; price: { nickname: string | null } }[] };
  metadata: Record<string, string>;
}

interface StandInCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  expires_at: number;
}

interface StandInRefund {
  id: string;
  object: 'refund';
  payment_intent: string;
  amount: number;
  currency: string;
  status: string;
  failure_reason?: string;
  metadata: Record<string, string>;
}

interface StandInError {
  status: number;
  error: { type: string; code?: string; message: string };
}

export interface StripeStandIn {
  url: string;
  requests: RecordedRequest[];
  /** Refunds made through it, oldest first. */
  refunds: StandInRefund[];
  /** What a payment intent paid (default 10000 usd): a refund returns what is left of it. */
  paymentAmounts: Map<string, number>;
  /** Each charge's customer, as GET /v1/charges/:id answers (unknown charges: 404). */
  chargeCustomers: Map<string, string>;
  /** Makes the next call of `path` do its work, then answer 500 (the answer is lost, the work is done). */
  failNextAfterDoing: (path: string) => void;
  /** Makes the next call of `path` answer `error` (e.g. 400 charge_disputed, 402). */
  refuseNext: (path: string, error: StandInError) => void;
  subscriptions: Map<string, StandInSubscription>;
  /** Checkout sessions made through it; `status` goes to `expired` on POST …/expire (tests may set `complete`). */
  checkoutSessions: Map<string, StandInCheckoutSession>;
  /** Makes the next call of `path` (e.g. "/v1/refunds") that changes something (not a GET) answer 500 once. */
  failNext: (path: string) => void;
  /** A Stripe that never answers: every call of `path` is left hanging until `answerAgain` (the SDK times out). */
  stopAnswering: (path: string) => void;
  answerAgain: (path: string) => void;
  /** A subscription as Stripe would hold it after a paid checkout: invoice in_<id>, payment pi_<id>. */
  addSubscription: (id: string, customer: string, userId: string, overrides?: Partial<StandInSubscription>) => StandInSubscription;
  close: () => Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    request.on('data', (chunk) => (data += chunk));
    request.on('end', () => resolve(data));
  });
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const subscriptions = new Map<string, StandInSubscription>();
  const checkoutSessions = new Map<string, StandInCheckoutSession>();
  const failing = new Set<string>();
  const failingAfter = new Set<string>();
  const refusing = new Map<string, StandInError>();
  const refunds: StandInRefund[] = [];
  const paymentAmounts = new Map<string, number>();
  const chargeCustomers = new Map<string, string>();
  // As Stripe keeps them: the first answer under an idempotency key is replayed for any request with it
  // (a 500 too), and a request with other parameters under a used key is refused.
  const answered = new Map<string, { body: string; status: number; answer: unknown }>();
  const silent = new Set<string>();
  let counter = 0;

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.statusCode = status;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(body));
  };
  const missing = (response: ServerResponse, what: string) =>
    send(response, 404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });

  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://stand-in');
    const body = new URLSearchParams(await readBody(request));
    requests.push({
      method: request.method!,
      path: url.pathname,
      query: url.searchParams,
      body,
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
    });
    if (silent.has(url.pathname)) return undefined;
    const key = request.method === 'POST' || request.method === 'DELETE' ? (request.headers['idempotency-key'] as string | undefined) : undefined;
    const earlier = key ? answered.get(key) : undefined;
    if (earlier) {
      if (earlier.body !== body.toString()) {
        return send(response, 400, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
      }
      return send(response, earlier.status, earlier.answer);
    }
    const answer = (status: number, value: unknown) => {
      if (key) answered.set(key, { body: body.toString(), status, answer: value });
      return send(response, status, value);
    };
    // The faults below are of calls that change something (a read of the same path still answers).
    const changes = request.method !== 'GET';
    if (changes && failing.delete(url.pathname)) return answer(500, { error: { type: 'api_error', message: 'stand-in failure' } });
    const refusal = changes ? refusing.get(url.pathname) : undefined;
    if (refusal) {
      refusing.delete(url.pathname);
      return answer(refusal.status, { error: refusal.error });
    }
    const lost = changes && failingAfter.delete(url.pathname);
    const reply = (status: number, value: unknown) => (lost ? answer(500, { error: { type: 'api_error', message: 'stand-in failure after the work' } }) : answer(status, value));

    const [, , resource, id] = url.pathname.split('/');
    if (request.method === 'POST' && url.pathname === '/v1/customers') {
      counter += 1;
      return reply(200, { id: `cus_standin_${counter}`, object: 'customer', email: body.get('email') });
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      counter += 1;
      const session = `cs_test_${counter}`;
      const created: StandInCheckoutSession = {
        id: session,
        object: 'checkout.session',
        url: `https://checkout.stripe.com/c/pay/${session}`,
        status: 'open',
        expires_at: Number(body.get('expires_at')),
      };
      checkoutSessions.set(session, created);
      return answer(200, created);
    }
    const checkoutPath = url.pathname.match(/^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/);
    if (checkoutPath) {
      const session = checkoutSessions.get(checkoutPath[1]!);
      if (!session) return missing(response, `checkout.session: '${checkoutPath[1]}'`);
      if (request.method === 'POST' && checkoutPath[2]) {
        // As Stripe answers: only an open session can be expired.
        if (session.status !== 'open') {
          return send(response, 400, {
            error: { type: 'invalid_request_error', message: 'Only Checkout Sessions with a status in ["open"] can be expired.' },
          });
        }
        session.status = 'expired';
      }
      return answer(200, session);
    }
    if (resource === 'subscriptions' && id) {
      const subscription = subscriptions.get(id);
      if (!subscription) return missing(response, `subscription: '${id}'`);
      if (request.method === 'POST') {
        if (body.has('cancel_at_period_end')) subscription.cancel_at_period_end = body.get('cancel_at_period_end') === 'true';
        // An empty value unsets a field, as Stripe does.
        if (body.has('cancel_at')) subscription.cancel_at = body.get('cancel_at') ? Number(body.get('cancel_at')) : null;
      } else if (request.method === 'DELETE') {
        if (subscription.status === 'canceled') {
          return answer(400, { error: { type: 'invalid_request_error', message: 'already canceled' } });
        }
        subscription.status = 'canceled';
        // The SDK sends a DELETE's parameters in the query string.
        subscription.cancellation_details = { comment: url.searchParams.get('cancellation_details[comment]') ?? body.get('cancellation_details[comment]') };
      }
      return reply(200, subscription);
    }
    if (request.method === 'GET' && url.pathname === '/v1/invoice_payments') {
      const invoice = url.searchParams.get('invoice') ?? '';
      const data = invoice.startsWith('in_')
        ? [
            {
              id: `inpay_${invoice}`,
              object: 'invoice_payment',
              invoice,
              status: 'paid',
              amount_paid: paymentAmounts.get(invoice.replace(/^in_/, 'pi_')) ?? 10000,
              currency: 'usd',
              payment: { type: 'payment_intent', payment_intent: invoice.replace(/^in_/, 'pi_') },
            },
          ]
        : [];
      return send(response, 200, { object: 'list', url: '/v1/invoice_payments', has_more: false, data });
    }
    if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      counter += 1;
      const session = `bps_test_${counter}`;
      return answer(200, { id: session, object: 'billing_portal.session', customer: body.get('customer'), return_url: body.get('return_url'), url: `https://billing.stripe.com/p/session/${session}` });
    }
    if (request.method === 'GET' && resource === 'prices' && id) {
      // Every price is of the product `prod_<price id>`.
      return send(response, 200, { id, object: 'price', product: `prod_${id}` });
    }
    if (request.method === 'GET' && resource === 'charges' && id) {
      const customer = chargeCustomers.get(id);
      return customer ? send(response, 200, { id, object: 'charge', customer }) : missing(response, `charge: '${id}'`);
    }
    if (request.method === 'GET' && url.pathname === '/v1/refunds') {
      const paymentIntent = url.searchParams.get('payment_intent');
      const data = refunds.filter((refund) => !paymentIntent || refund.payment_intent === paymentIntent).reverse();
      return send(response, 200, { object: 'list', url: '/v1/refunds', has_more: false, data });
    }
    if (request.method === 'POST' && url.pathname === '/v1/refunds') {
      // As Stripe does: without an amount, what is left of the payment; nothing left is refused.
      const paymentIntent = body.get('payment_intent') ?? '';
      const refunded = refunds.filter((refund) => refund.payment_intent === paymentIntent && refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);
      const left = (paymentAmounts.get(paymentIntent) ?? 10000) - refunded;
      if (left <= 0) {
        return answer(400, { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } });
      }
      counter += 1;
      const metadata: Record<string, string> = {};
      for (const [name, value] of body) {
        const field = /^metadata\[(.+)\]$/.exec(name);
        if (field) metadata[field[1]!] = value;
      }
      const refund: StandInRefund = { id: `re_${counter}`, object: 'refund', payment_intent: paymentIntent, amount: Number(body.get('amount') ?? left), currency: 'usd', status: 'succeeded', metadata };
      refunds.push(refund);
      return reply(200, refund);
    }
    return missing(response, url.pathname);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refunds,
    paymentAmounts,
    chargeCustomers,
    subscriptions,
    checkoutSessions,
    failNext: (path) => failing.add(path),
    failNextAfterDoing: (path) => failingAfter.add(path),
    refuseNext: (path, error) => refusing.set(path, error),
    stopAnswering: (path) => silent.add(path),
    answerAgain: (path) => silent.delete(path),
    addSubscription: (id, customer, userId, overrides = {}) => {
      const subscription: StandInSubscription = {
        id,
        object: 'subscription',
        customer,
        status: 'active',
        cancel_at_period_end: false,
        cancel_at: null,
        latest_invoice: `in_${id}`,
        items: { object: 'list', data: [{ current_period_end: Math.floor(Date.now() / 1000) + 365 * 86_400, price: { nickname: null } }] },
        metadata: { userId },
        ...overrides,
      };
      subscriptions.set(id, subscription);
      return subscription;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Requests left hanging (stopAnswering) would keep it open.
        server.closeAllConnections();
      }),
  };
}
