import { MEDIA_MAX_BYTES, mediaKindOfName } from '@hablabot/contract';

/**
 * What can be said about a file before sending it, from its name and size only (the server judges the
 * bytes): the text key of the problem, or null. Saves sending 100 MB to hear it was too big.
 */
export function uploadProblem(file: File | null): string | null {
  if (!file) return 'media.upload.required';
  const kind = mediaKindOfName(file.name);
  if (!kind) return 'media.upload.unsupported';
  if (file.size > MEDIA_MAX_BYTES[kind]) return `media.upload.tooLarge.${kind}`;
  return null;
}
