// The page bench/widgets.ts measures: the widget gallery (the DataTable with 10,000 generated clients)
// in a production build of its own, with React's production build. The app's production bundle does not
// carry the gallery, so the bench brings it here instead.
import i18next from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initReactI18next } from 'react-i18next';
import GalleryPage from '../../apps/web/src/features/gallery/GalleryPage';
import gallery from '../../apps/web/src/features/gallery/locales/es.json';
import core from '../../apps/web/src/locales/es.json';
import '../../apps/web/src/styles/tokens.css';
import '../../apps/web/src/styles/base.css';

await i18next.use(initReactI18next).init({
  lng: 'es',
  resources: { es: { translation: { ...core, ...gallery } } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');
createRoot(root).render(
  <StrictMode>
    <GalleryPage />
  </StrictMode>,
);
