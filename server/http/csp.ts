/**
 * The SPA's Content Security Policy: our own scripts only, plus what Firebase Auth needs (its REST
 * endpoints, Google's api.js loader and the auth handler iframe) and, locally, the Auth emulator.
 */
import type { Config } from '../config.ts';

export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const emulator = config.client.firebase.emulatorUrl ? [new URL(config.client.firebase.emulatorUrl).origin] : [];
  const authDomain = config.client.firebase.authDomain ? [`https://${config.client.firebase.authDomain}`] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", 'https://apis.google.com'],
    // Mantine writes its theme variables into style elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'https://*.googleusercontent.com'],
    'font-src': ["'self'"],
    'connect-src': [
      "'self'",
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://apis.google.com',
      ...emulator,
    ],
    'frame-src': [...authDomain, 'https://apis.google.com', ...emulator],
    'form-action': ["'self'", 'https://checkout.stripe.com'],
    'frame-ancestors': ["'none'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
  };
}
