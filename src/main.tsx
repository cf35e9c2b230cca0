// The app, started by src/boot.ts once the page has painted (boot.ts loads the stylesheets and sets the colour
// scheme). Its largest library is evaluated in a task of its own before the app's code (issue 32 item 4).
import { importInSteps } from './app/boot/main-thread';

await importInSteps([() => import('@tanstack/react-router')]);
const { startApp } = await import('./app/boot/start-app');
await startApp();
