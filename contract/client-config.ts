/**
 * The SPA's runtime configuration, as the server (and Vite in development) hands it over: a
 * non-executed JSON element in index.html, read by src/services/client-config.ts. One build thus runs
 * against the Auth emulator locally and a real Firebase project in production.
 */
export interface ClientConfigPayload {
  firebase: { apiKey: string; authDomain: string; projectId: string; emulatorUrl?: string };
}

type Env = Record<string, string | undefined>;

/**
 * From the process environment. With the emulator, demo values fill what is unset; without it nothing is
 * invented, so a production server missing a value makes the SPA show "Authentication Error".
 */
export function clientConfigFromEnv(env: Env): ClientConfigPayload {
  const projectId = env.FIREBASE_PROJECT_ID ?? 'demo-veil';
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST;
  const emulatorUrl = env.FIREBASE_AUTH_EMULATOR_PUBLIC_URL ?? (emulatorHost ? `http://${emulatorHost}` : undefined);
  return {
    firebase: {
      apiKey: env.FIREBASE_API_KEY ?? (emulatorUrl ? 'demo-api-key' : ''),
      authDomain: env.FIREBASE_AUTH_DOMAIN ?? (emulatorUrl ? `${projectId}.firebaseapp.com` : ''),
      projectId,
      ...(emulatorUrl ? { emulatorUrl } : {}),
    },
  };
}

/** Inserts the configuration element before </head>. `<` is escaped so no value can close the element. */
export function injectClientConfig(html: string, config: ClientConfigPayload): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html.replace('</head>', `    <script id="client-config" type="application/json">${json}</script>\n  </head>`);
}
