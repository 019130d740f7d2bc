import { type CSSProperties, type RefObject, useLayoutEffect, useState } from 'react';

const LIST_MAX_HEIGHT = 264;

/**
 * Where an open list sits: fixed to the viewport so scrolling containers (a modal's body) never clip it,
 * under its field, or above it when there is more room there. Follows scrolling and resizing.
 */
export function useListPlacement(
  open: boolean,
  controlRef: RefObject<HTMLElement | null>,
  listRef: RefObject<HTMLElement | null>,
): CSSProperties | undefined {
  const [placement, setPlacement] = useState<CSSProperties | undefined>(undefined);
  useLayoutEffect(() => {
    if (!open) return;
    const place = () => {
      const control = controlRef.current;
      if (!control) return;
      const rect = control.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) return;
      const below = window.innerHeight - rect.bottom - 12;
      const above = rect.top - 12;
      const up = below < 200 && above > below;
      const maxHeight = Math.max(120, Math.min(LIST_MAX_HEIGHT, up ? above : below));
      setPlacement({
        position: 'fixed',
        left: rect.left,
        width: rect.width,
        right: 'auto',
        maxHeight,
        ...(up ? { top: 'auto', bottom: window.innerHeight - rect.top + 4 } : { top: rect.bottom + 4 }),
      });
    };
    place();
    const onScroll = (event: Event) => {
      if (event.target !== listRef.current) place();
    };
    window.addEventListener('scroll', onScroll, true);
    window.addEventListener('resize', place);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    if (controlRef.current) observer?.observe(controlRef.current);
    return () => {
      window.removeEventListener('scroll', onScroll, true);
      window.removeEventListener('resize', place);
      observer?.disconnect();
    };
  }, [open, controlRef, listRef]);
  return placement;
}
