import { MediaPickerDialog } from '../media/MediaPickerDialog';
import type { MediaPickerProps } from './media';

/**
 * The media library picker the instruction form opens with 'Agregar media': the company's library in a
 * dialog; the chosen file's public address goes into the description.
 */
export function LibraryPicker({ open, onClose, onPick }: MediaPickerProps) {
  return (
    <MediaPickerDialog
      open={open}
      onClose={onClose}
      onSelect={(item) =>
        onPick({ id: item.id, url: item.url, name: item.file_name, mime_type: item.mime_type })
      }
    />
  );
}
