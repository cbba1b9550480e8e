import { afterEach, describe, expect, it, vi } from 'vitest';
import { showToast } from './toasts';

const toasts = () => [...document.querySelectorAll<HTMLElement>('.Toastify__toast')];
const texts = () => toasts().map((t) => t.textContent);
/** The browser ends an animation on this element (jsdom runs none). */
const animationEnds = (element: Element) => element.dispatchEvent(new Event('animationend', { bubbles: true }));
/** The toast's leaving animation ends: then it is gone. */
const leaves = (toast: HTMLElement) => animationEnds(toast);

function screenWidth(phone: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query) =>
      ({ matches: phone, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList,
  );
}

afterEach(() => {
  // Each test starts with none open.
  for (const toast of toasts()) {
    toast.click();
    leaves(toast);
  }
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('the public pages’ toasts', () => {
  it("are react-toastify's: light, top right, with the spec's 20 s on their progress bar, newest on top", () => {
    screenWidth(false);
    showToast('success', 'Agenda copiada con éxito');
    showToast('error', 'Error al copiar agenda');
    expect(document.querySelector('.Toastify__toast-container--top-right')).not.toBeNull();
    expect(texts()).toEqual(['Error al copiar agenda', 'Agenda copiada con éxito']);
    expect(toasts()[1]).toHaveClass('Toastify__toast-theme--light', 'Toastify__toast--success');
    expect(toasts()[1]).toHaveAttribute('role', 'alert');
    const timer = toasts()[1]!.querySelector<HTMLElement>('[role="progressbar"]')!;
    expect(timer.style.animationDuration).toBe('20000ms');
  });

  it('close when their time is up, or on a click', () => {
    screenWidth(false);
    showToast('success', 'uno');
    showToast('success', 'dos');
    const [dos, uno] = toasts();
    animationEnds(uno!.querySelector('[role="progressbar"]')!);
    leaves(uno!);
    expect(texts()).toEqual(['dos']);
    dos!.click();
    leaves(dos!);
    expect(texts()).toEqual([]);
  });

  it('pause while the pointer is over them', () => {
    screenWidth(false);
    showToast('success', 'uno');
    const toast = toasts()[0]!;
    const timer = toast.querySelector<HTMLElement>('[role="progressbar"]')!;
    toast.dispatchEvent(new Event('mouseenter'));
    expect(timer.style.animationPlayState).toBe('paused');
    toast.dispatchEvent(new Event('mouseleave'));
    expect(timer.style.animationPlayState).toBe('running');
  });

  it('are at most two on a phone: a third closes the oldest at once', () => {
    screenWidth(true);
    showToast('error', 'uno');
    showToast('error', 'dos');
    showToast('error', 'tres');
    const leaving = toasts().filter((t) => t.classList.contains('Toastify__bounce-exit--top-right'));
    expect(leaving.map((t) => t.textContent)).toEqual(['uno']);
    for (const toast of leaving) leaves(toast);
    expect(texts()).toEqual(['tres', 'dos']);
  });
});
