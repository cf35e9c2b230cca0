/**
 * The e2e browsers block every request that leaves this machine (tests/support/browser.ts). Playwright matches
 * the blocking route's regular expression itself; these hold it to the plain reading of "local" the harness
 * uses elsewhere (`isLocal`, by the parsed host), on the URLs a page of ours asks for and on look-alikes.
 */
import { describe, expect, test } from 'vitest';
import { isLocal, LEAVES_THIS_MACHINE } from '../support/browser';

const URLS = [
  'http://127.0.0.1:43529/account',
  'http://127.0.0.1:43529/',
  'http://127.0.0.1:43529',
  'http://127.0.0.1:9299/emulator/auth/handler?apiKey=x',
  'http://localhost:9299/__/auth/iframe?apiKey=x#frag',
  'http://localhost/',
  'ws://127.0.0.1:43529/socket',
  'http://[::1]:8080/api/health',
  'data:text/html,<p>hi</p>',
  'blob:http://127.0.0.1:43529/7b7f0c8e-0000-4000-8000-000000000000',
  'about:blank',
  'https://apis.google.com/js/api.js?onload=x',
  'https://www.gstatic.com/firebasejs/ui.js',
  'http://127.0.0.1.example.com/',
  'http://localhost.example.com:9299/',
  'https://example.com/?next=http://127.0.0.1/',
  'http://127.0.0.2/',
  'wss://relay.example.com/',
];

describe('which requests the e2e browsers block', () => {
  test.each(URLS)('%s', (url) => {
    expect(LEAVES_THIS_MACHINE.test(url)).toBe(!isLocal(url));
  });

  test('the outside ones are blocked, ours are not', () => {
    expect(URLS.filter((url) => LEAVES_THIS_MACHINE.test(url))).toEqual([
      'https://apis.google.com/js/api.js?onload=x',
      'https://www.gstatic.com/firebasejs/ui.js',
      'http://127.0.0.1.example.com/',
      'http://localhost.example.com:9299/',
      'https://example.com/?next=http://127.0.0.1/',
      'http://127.0.0.2/',
      'wss://relay.example.com/',
    ]);
  });
});
