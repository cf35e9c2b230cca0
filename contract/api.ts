/**
 * The API contract: every request and response body of design §7, as zod schemas and inferred types.
 * The SPA's API client and the server's routes both import this module, so the two cannot drift apart.
 * Written by subject in contract/api-*.ts (issue 49, item 5); callers import this module.
 */
export * from './api-common.ts';
export * from './api-account.ts';
export * from './api-billing.ts';
export * from './api-devices.ts';
export * from './api-staff.ts';
