import type { Language } from '@hablabot/contract';

/** Server messages of the media library, in both interface languages. */
export const mediaTexts: Record<Language, Record<string, string>> = {
  es: {
    'media.uploaded': '¡Archivo cargado correctamente!',
    'media.deleted': 'Archivo eliminado correctamente.',
    'media.not_found': 'El archivo no existe.',
    'media.file_required': 'Please select a file',
    'media.empty_file': 'El archivo está vacío.',
    'media.unsupported_type':
      'El contenido del archivo no es de un tipo admitido. Se aceptan imágenes JPG y PNG, videos MP4 y 3GP, audios AAC, AMR, MP3, M4A y OGG (Opus), y documentos PDF, Word, Excel, PowerPoint y TXT.',
    'media.too_large_image': 'La imagen supera el tamaño máximo de 5 MB.',
    'media.too_large_video': 'El video supera el tamaño máximo de 16 MB.',
    'media.too_large_audio': 'El audio supera el tamaño máximo de 16 MB.',
    'media.too_large_document': 'El documento supera el tamaño máximo de 100 MB.',
    'errors.range_not_satisfiable': 'El rango pedido está fuera del archivo.',
    'fields.file': 'archivo',
  },
  en: {
    'media.uploaded': 'File uploaded successfully!',
    'media.deleted': 'File deleted successfully.',
    'media.not_found': 'The file does not exist.',
    'media.file_required': 'Please select a file',
    'media.empty_file': 'The file is empty.',
    'media.unsupported_type':
      'The file’s content is not of an accepted type. Accepted: JPG and PNG images, MP4 and 3GP videos, AAC, AMR, MP3, M4A and OGG (Opus) audio, and PDF, Word, Excel, PowerPoint and TXT documents.',
    'media.too_large_image': 'The image is larger than the 5 MB limit.',
    'media.too_large_video': 'The video is larger than the 16 MB limit.',
    'media.too_large_audio': 'The audio is larger than the 16 MB limit.',
    'media.too_large_document': 'The document is larger than the 100 MB limit.',
    'errors.range_not_satisfiable': 'The requested range is outside the file.',
    'fields.file': 'file',
  },
};
