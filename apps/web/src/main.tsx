import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { prefetchFirstPage } from './features/chat/first-page';
import { setUnauthorizedHandler } from './lib/api-client';
import { initI18n } from './lib/i18n';
import { startSessionSync } from './lib/session-sync';
import './styles/tokens.css';
import './styles/base.css';

// A full page load of the chat asks for its list's first page before anything else: the request is then
// first in line, ahead of the screen's chunks (a browser opens six connections to a server at a time, and
// the route's dozens of chunks would otherwise queue it behind them).
if (matchPath({ path: '/admin/chat' }, window.location.pathname)) prefetchFirstPage();

const router = createAppRouter();

// Any 401 on a protected call ends the session and goes to /.
// (The query cache empties itself when the session goes; see app/query-client.ts.)
setUnauthorizedHandler(() => {
  void router.navigate('/', { replace: true });
});

// After a deploy, an open tab may ask for chunks that no longer exist: reload once to get the new build.
window.addEventListener('vite:preloadError', (event) => {
  const key = 'hablabot.chunkReloadAt';
  const last = Number(sessionStorage.getItem(key) ?? 0);
  if (Date.now() - last < 10_000) return;
  event.preventDefault();
  sessionStorage.setItem(key, String(Date.now()));
  window.location.reload();
});

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

// Render once the detected language's catalogue is in, so no screen flashes untranslated keys, and once
// another signed-in tab of this browser has handed its session over (a link opened in a new tab).
Promise.all([
  initI18n().catch((error: unknown) => console.error('i18n failed to start', error)),
  // A failed hand-over leaves this tab signed out; it never keeps the app from starting.
  Promise.resolve()
    .then(startSessionSync)
    .catch((error: unknown) => console.error('session hand-over failed', error)),
]).finally(() => {
  createRoot(container).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
