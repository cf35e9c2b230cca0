/**
 * What the header needs to know about the signed-in customer; null when signed out, undefined until the
 * session is known (the header then keeps a placeholder of its size). Its own module so the
 * header and its lazily loaded account menu both read it without importing each other.
 */
export interface HeaderAccount {
  email: string;
  subscriptionStatus: string | null;
}
