/**
 * The runtime client configuration that the API writes into index.html (contract/client-config.ts), as a
 * test of the composed app needs it in the document: the session's `initialise` step reads it.
 */
export function writeClientConfig(): void {
  const config = document.createElement('script');
  config.id = 'client-config';
  config.type = 'application/json';
  config.textContent = JSON.stringify({ firebase: { apiKey: 'k', authDomain: 'a.example', projectId: 'demo-p' } });
  document.head.append(config);
}

export function removeClientConfig(): void {
  document.getElementById('client-config')?.remove();
}
