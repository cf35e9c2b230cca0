-- Issue 34: a charge names the provider's payment that paid it (Stripe's payment intent), so that a refund
-- the provider reports (charge.refunded names the payment intent) is matched to exactly that charge. Null
-- for charges stored before, and when it is not known (the local checkout): those keep the date/currency rule.
ALTER TABLE charges ADD COLUMN payment_intent text;
