// Moved to src/test/ (the one home of the web test helpers); kept so older imports still resolve.
export { jsonResponse } from '../test/api';
export { setupTestI18n } from '../test/i18n';
export { renderRoutes, renderWithI18n } from '../test/render';
