import { type PointerEvent, useEffect, useRef } from 'react';

/** How long a finger rests on a message before its action is offered. */
export const LONG_PRESS_MS = 500;
/** A finger that moves more than this (pixels) is scrolling, not pressing. */
const LONG_PRESS_SLOP = 10;

/**
 * A long press with a finger (never a mouse or pen: those have hover) calls `action`, the phone's way to
 * reach what a pointer finds on hover. Moving, lifting or cancelling the touch before the time is up
 * does nothing. Returns the handlers to spread on the element.
 */
export function useLongPress(action: (() => void) | undefined) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  };
  // A press still running when the message goes away does nothing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: clears on unmount only (cancel reads refs)
  useEffect(() => cancel, []);
  if (!action) return {};
  return {
    onPointerDown: (event: PointerEvent) => {
      if (event.pointerType !== 'touch') return;
      cancel();
      start.current = { x: event.clientX, y: event.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        action();
      }, LONG_PRESS_MS);
    },
    onPointerMove: (event: PointerEvent) => {
      const from = start.current;
      if (from && Math.hypot(event.clientX - from.x, event.clientY - from.y) > LONG_PRESS_SLOP) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
  };
}
