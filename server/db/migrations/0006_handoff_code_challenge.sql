-- Hand-off pairing started by the desktop app (issue 23, RFC 8252 / PKCE): a hand-off minted for
-- /account?pair=<challenge> keeps the challenge (base64url SHA-256 of the app's verifier), and redeems
-- only with the verifier. Null: a website-initiated Open VPN App link, redeemed as before.
ALTER TABLE handoff_tokens ADD COLUMN code_challenge text;
