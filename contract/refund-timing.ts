/**
 * How long a refund takes to reach the customer's card, said in the same words on the page (the refund
 * dialog, the FAQ) and in the refund e-mail (issue 34: they used to disagree). The product spec's claim.
 */
export const REFUND_ARRIVES_WITHIN = '5–7 business days';
