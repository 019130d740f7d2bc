// Temporary placeholder: the widgets helper replaces this file with the real gallery.
export default function GalleryPage() {
  return null;
}
