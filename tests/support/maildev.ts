/**
 * A real mail server for tests (issue 21): maildev on free ports of 127.0.0.1, in memory. Tests send
 * through its SMTP port and read what arrived with its JSON API (`GET /api/email`), as a person would in
 * its inbox; nothing is mocked.
 */
import { MailDev } from 'maildev';

export interface ReceivedMail {
  id: string;
  subject: string;
  text: string;
  html: string;
  to: Array<{ address: string; name: string }>;
  from: Array<{ address: string; name: string }>;
}

export interface TestMailServer {
  smtpUrl: string;
  apiUrl: string;
  /** Every mail received so far, oldest first. */
  mails(): Promise<ReceivedMail[]>;
  /** The mails to `address` (those `which` keeps), once `count` of them have arrived (throws after `timeoutMs`). */
  waitForMails(address: string, count?: number, timeoutMs?: number, which?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

export async function startTestMailServer(smtpPort = 0): Promise<TestMailServer> {
  const maildev = new MailDev({ smtp: smtpPort, web: 0, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true });
  const servers = await maildev.start();
  const smtp = servers.smtp.getAddress();
  const api = servers.api?.getAddress();
  if (!api) throw new Error('maildev started without its web API');
  const apiUrl = `http://127.0.0.1:${api.port}`;
  const mails = async () => {
    const response = await fetch(`${apiUrl}/api/email`);
    if (!response.ok) throw new Error(`maildev answered ${response.status}`);
    return (await response.json()) as ReceivedMail[];
  };
  return {
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    apiUrl,
    mails,
    async waitForMails(address, count = 1, timeoutMs = 20_000, which = () => true) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = (await mails()).filter((mail) => mail.to.some((to) => to.address.toLowerCase() === address.toLowerCase()) && which(mail));
        if (found.length >= count) return found;
        if (Date.now() > deadline) throw new Error(`${found.length} of ${count} mails to ${address} arrived within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () => maildev.stop(),
  };
}
