/**
 * Issue 45 item 4: one true sentence about encryption (src/content/encryption.ts), used everywhere the site
 * names it. No other module of the site names a cipher or a protocol itself, so none can drift back to
 * "AES-256" for WireGuard (design §7c); the pages that speak of encryption say the module's words.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PAGE_DESCRIPTIONS } from '../../src/app/boot/page-descriptions';
import { ENCRYPTION_FEATURE, ENCRYPTION_SENTENCE, WIREGUARD_SENTENCE } from '../../src/content/encryption';
import { faq } from '../../src/content/faq';
import { privacySections } from '../../src/content/privacy';
import { termsSections } from '../../src/content/terms';

const root = process.cwd();
const CIPHERS = /AES|ChaCha|IKEv2|IPSec|Poly1305/;
const THE_MODULE = 'src/content/encryption.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(tsx?|css|html)$/.test(name) ? [path] : [];
  });
}
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const legalText = (sections: readonly { paragraphs?: readonly string[] }[]) => sections.flatMap((section) => section.paragraphs ?? []).join('\n');

describe('the encryption the site names (issue 45 item 4)', () => {
  test('the sentence names each cipher where it applies: AES-256 for the apps, ChaCha20-Poly1305 for WireGuard', () => {
    expect(ENCRYPTION_SENTENCE).toBe(
      'The Veil VPN apps encrypt your connection with AES-256 over IKEv2/IPSec; a WireGuard configuration from your account page encrypts it with ChaCha20-Poly1305.',
    );
    expect(ENCRYPTION_FEATURE).toBe('AES-256 encryption in our apps (IKEv2/IPSec), ChaCha20-Poly1305 with WireGuard');
    expect(WIREGUARD_SENTENCE).toBe('WireGuard encrypts with ChaCha20-Poly1305.');
  });

  test('no other module of the site names a cipher or a protocol: they all take the module\'s words', () => {
    const naming = files(join(root, 'src'))
      .map((file) => relative(root, file))
      .filter((file) => file !== THE_MODULE && !file.endsWith('routeTree.gen.ts'))
      .filter((file) => CIPHERS.test(read(file)));
    expect(naming).toEqual([]);
  });

  test('the FAQ, the terms, the privacy policy say the sentence; the home page\'s description and the shell\'s the feature', () => {
    const answer = faq.flatMap((category) => category.items).find((item) => item.question === 'What encryption do you use?');
    expect(answer?.answer).toContain(ENCRYPTION_SENTENCE);
    expect(legalText(termsSections)).toContain(ENCRYPTION_SENTENCE);
    expect(legalText(privacySections)).toContain(ENCRYPTION_SENTENCE);
    expect(PAGE_DESCRIPTIONS['/']).toContain(ENCRYPTION_FEATURE);
    // The empty shell's (/subscribe, /staff) is static HTML: the home page's description, word for word.
    expect(/<meta name="description" content="([^"]*)"/.exec(read('index.html'))?.[1]).toBe(PAGE_DESCRIPTIONS['/']);
  });

  test('the home page (twice), /subscribe and /cancel import the module: none can say it otherwise', () => {
    const uses = (file: string) => (read(file).replace(/^import .*$/gm, '').match(/ENCRYPTION_(SENTENCE|FEATURE)\b/g) ?? []).length;
    expect(uses('src/screens/home-page.tsx')).toBe(2);
    expect(uses('src/screens/subscribe-page.tsx')).toBe(1);
    expect(uses('src/screens/cancel-page.tsx')).toBe(1);
  });
});
