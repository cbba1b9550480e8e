import type { Locator } from '@playwright/test';

/**
 * The contrast ratio (WCAG 2) of an element's text against what is drawn behind it, as the screen shows
 * it: the backgrounds of the element and its ancestors composited over white, and the opacity of each
 * applied to everything it draws. axe skips disabled controls, so a dimmed button needs this check.
 */
export function textContrast(element: Locator): Promise<number> {
  return element.evaluate((el) => {
    type Rgba = [number, number, number, number];
    // Any CSS colour (Tailwind's are oklch) to sRGB through a canvas pixel.
    const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('sin canvas');
    const rgba = (css: string): Rgba => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r as number, g as number, b as number, (a as number) / 255];
    };
    const over = (top: Rgba, below: Rgba): Rgba => [
      top[0] * top[3] + below[0] * (1 - top[3]),
      top[1] * top[3] + below[1] * (1 - top[3]),
      top[2] * top[3] + below[2] * (1 - top[3]),
      1,
    ];
    const chain: Element[] = [];
    for (let node: Element | null = el; node; node = node.parentElement) chain.unshift(node);
    const text = rgba(getComputedStyle(el).color);
    // What a pixel of the element's text (or of its background) becomes through every layer.
    const render = (i: number, backdrop: Rgba, isText: boolean): Rgba => {
      if (i === chain.length) return isText ? over(text, backdrop) : backdrop;
      const style = getComputedStyle(chain[i] as Element);
      const painted = over(rgba(style.backgroundColor), backdrop);
      const inner = render(i + 1, painted, isText);
      return over([inner[0], inner[1], inner[2], Number(style.opacity)], backdrop);
    };
    const white: Rgba = [255, 255, 255, 1];
    const luminance = ([r, g, b]: Rgba) => {
      const lin = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const a = luminance(render(0, white, true));
    const b = luminance(render(0, white, false));
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
}
