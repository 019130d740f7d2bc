import { useTranslation } from 'react-i18next';
import { Button, ConfirmProvider } from '../../components';
import { ClientsTableSection } from './ClientsTableSection';
import { ChipsAvatarsSection, FeedbackSection, ModalsSection } from './DemoSections';
import { FormsSection } from './FormsSection';
import './gallery.css';

/** Developer gallery of the shared widgets (route /dev/widgets), with realistic data. */
export default function GalleryPage() {
  return (
    <ConfirmProvider>
      <Gallery />
    </ConfirmProvider>
  );
}

function Gallery() {
  const { t, i18n } = useTranslation();
  const g = (key: string, options?: Record<string, unknown>) => t(`gallery.${key}`, options);

  return (
    <div className="gallery">
      <header className="gallery__header">
        <div>
          <p className="gallery__eyebrow">HablaBot</p>
          <h1>{g('title')}</h1>
          <p className="gallery__lead">{g('lead')}</p>
        </div>
        <fieldset className="gallery__lang">
          <legend className="hb-visually-hidden">{g('language')}</legend>
          {(['es', 'en'] as const).map((language) => (
            <Button
              key={language}
              size="sm"
              variant={i18n.language === language ? 'primary' : 'secondary'}
              aria-pressed={i18n.language === language}
              onClick={() => void i18n.changeLanguage(language)}
            >
              {language.toUpperCase()}
            </Button>
          ))}
        </fieldset>
      </header>

      <ClientsTableSection />

      <div className="gallery__grid">
        <FormsSection />
        <FeedbackSection />
        <ModalsSection />
        <ChipsAvatarsSection />
      </div>
    </div>
  );
}
