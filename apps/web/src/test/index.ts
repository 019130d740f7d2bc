// The web tests' helpers, one import away: `import { setupTestI18n, renderWithQuery, mockFetch } from '../../test'`.
export { expectNoSeriousA11yViolations } from './a11y';
export { jsonResponse, mockFetch, type RecordedCall } from './api';
export { eventStream } from './event-stream';
export { type ClientsListOptions, clientsListRoute } from './clients-server';
export { csvFile, makeClient, makeMedia, makeSegment } from './fixtures';
export { initTestI18n, setupTestI18n, type TestLanguage } from './i18n';
export { installTestLayout, type TestLayoutOptions, useTestLayout } from './layout';
export { type FakeUpload, mockXhr } from './xhr';
export { newQueryClient, renderFeature, renderRoutes, renderWithI18n, renderWithQuery } from './render';

/** Per-test timeout of screen tests (jsdom, queries, modals and axe on a busy machine). */
export const SCREEN_TEST_TIMEOUT = 30_000;
