import { afterEach, beforeEach } from 'vitest';

export interface TestLayoutOptions {
  /** Height of a table row or a list option, in px. Default 48. */
  rowHeight?: number;
  /** Width of an element without a px width of its own. Default 1024. */
  width?: number;
}

function px(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)px$/.exec(value.trim());
  return match ? Number(match[1]) : undefined;
}

/**
 * jsdom does no layout: every element measures 0×0. A virtualised list then renders no rows at all, so
 * a test that only counts "fewer than 100 rows" passes while checking nothing. This gives elements the
 * sizes a browser would for our lists: an element's own px `height` (else `max-height`) and `width`
 * from its inline style — the scrolling viewports set theirs — and `rowHeight` for table rows and
 * listbox options. Returns a function that puts jsdom's own measurements back.
 */
export function installTestLayout({ rowHeight = 48, width = 1024 }: TestLayoutOptions = {}): () => void {
  const heightOf = (el: HTMLElement): number => {
    const own = px(el.style.height) ?? px(el.style.maxHeight);
    if (own !== undefined) return own;
    if (el.tagName === 'TR' || el.getAttribute('role') === 'option') return rowHeight;
    return 0;
  };
  const widthOf = (el: HTMLElement): number => px(el.style.width) ?? width;
  const proto = HTMLElement.prototype;
  const saved = (['clientHeight', 'offsetHeight', 'clientWidth', 'offsetWidth'] as const).map(
    (key) =>
      [
        key,
        Object.getOwnPropertyDescriptor(key.startsWith('client') ? Element.prototype : proto, key),
      ] as const,
  );
  const savedRect = Element.prototype.getBoundingClientRect;
  for (const key of ['clientHeight', 'offsetHeight'] as const) {
    Object.defineProperty(proto, key, {
      configurable: true,
      get(this: HTMLElement) {
        return heightOf(this);
      },
    });
  }
  for (const key of ['clientWidth', 'offsetWidth'] as const) {
    Object.defineProperty(proto, key, {
      configurable: true,
      get(this: HTMLElement) {
        return widthOf(this);
      },
    });
  }
  Element.prototype.getBoundingClientRect = function (this: Element) {
    const el = this as HTMLElement;
    const height = el instanceof HTMLElement ? heightOf(el) : 0;
    const w = el instanceof HTMLElement ? widthOf(el) : 0;
    return DOMRect.fromRect({ x: 0, y: 0, width: w, height });
  };
  // jsdom has no ResizeObserver either. Sizes here follow the inline style, so a style change is a
  // resize: observers hear about an element once when they start watching it and after each change.
  const savedObserver = window.ResizeObserver;
  class StyleResizeObserver {
    private readonly watchers = new Map<Element, MutationObserver>();
    constructor(private readonly callback: ResizeObserverCallback) {}
    private notify(target: Element) {
      const el = target as HTMLElement;
      const size = { blockSize: heightOf(el), inlineSize: widthOf(el) };
      const entry = {
        target,
        contentRect: DOMRect.fromRect({ width: size.inlineSize, height: size.blockSize }),
        borderBoxSize: [size],
        contentBoxSize: [size],
        devicePixelContentBoxSize: [size],
      } as unknown as ResizeObserverEntry;
      this.callback([entry], this as unknown as ResizeObserver);
    }
    observe(target: Element) {
      if (this.watchers.has(target)) return;
      const watcher = new MutationObserver(() => this.notify(target));
      watcher.observe(target, { attributes: true, attributeFilter: ['style'] });
      this.watchers.set(target, watcher);
      queueMicrotask(() => {
        if (this.watchers.has(target)) this.notify(target);
      });
    }
    unobserve(target: Element) {
      this.watchers.get(target)?.disconnect();
      this.watchers.delete(target);
    }
    disconnect() {
      for (const watcher of this.watchers.values()) watcher.disconnect();
      this.watchers.clear();
    }
  }
  if (!savedObserver) window.ResizeObserver = StyleResizeObserver as unknown as typeof ResizeObserver;

  return () => {
    if (!savedObserver) delete (window as { ResizeObserver?: unknown }).ResizeObserver;
    for (const [key, descriptor] of saved) {
      delete (proto as unknown as Record<string, unknown>)[key];
      if (descriptor && key.startsWith('offset')) Object.defineProperty(proto, key, descriptor);
    }
    Element.prototype.getBoundingClientRect = savedRect;
  };
}

/** Installs the test layout around every test of the calling file (see installTestLayout). */
export function useTestLayout(options?: TestLayoutOptions): void {
  let restore: (() => void) | undefined;
  beforeEach(() => {
    restore = installTestLayout(options);
  });
  afterEach(() => {
    restore?.();
  });
}
