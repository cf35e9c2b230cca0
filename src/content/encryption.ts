/**
 * What encrypts a customer's traffic, said once and used everywhere the site names it (issue 45 item 4; design
 * §7c: WireGuard's cipher is ChaCha20-Poly1305, AES-256 is said of IKEv2 only): the apps and the WireGuard
 * configurations from the account page, each named where it applies. tests/unit/encryption-text.test.ts holds
 * every other module to these words.
 */
import { brand } from '../config/brand';

/** The apps' protocol and cipher. */
const APPS_ENCRYPTION = 'AES-256 over IKEv2/IPSec';
/** WireGuard's cipher: a configuration from the account page uses it, whatever the device. */
const WIREGUARD_ENCRYPTION = 'ChaCha20-Poly1305';

/** The sentence: where the site speaks of the encryption (home, FAQ, terms, privacy). */
export const ENCRYPTION_SENTENCE = `The ${brand.productName} apps encrypt your connection with ${APPS_ENCRYPTION}; a WireGuard configuration from your account page encrypts it with ${WIREGUARD_ENCRYPTION}.`;

/** The same, as one item of a list of features (home, subscribe, cancel) or a page's description. */
export const ENCRYPTION_FEATURE = `AES-256 encryption in our apps (IKEv2/IPSec), ${WIREGUARD_ENCRYPTION} with WireGuard`;

/** Where only WireGuard applies (the Devices card, "Add a device"). */
export const WIREGUARD_SENTENCE = `WireGuard encrypts with ${WIREGUARD_ENCRYPTION}.`;
