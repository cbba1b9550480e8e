import A11yDialog from 'a11y-dialog';
import { PUBLIC_MENU_ID, PUBLIC_TEMPLATES } from './template-ids';

/**
 * The slide-over menu of a public page without the app: the page's own copy of it (a <template> made by
 * the app's components) opened as a modal dialog by a11y-dialog, which keeps the focus inside, closes
 * on Escape, on the close button and on a tap outside, and gives the focus back to the menu button.
 * It is in the page only while open, as the app's (Headless UI) is. Following a link loads the next
 * page, which closes it.
 */
export function wireMenu(button: HTMLButtonElement, signal: AbortSignal): void {
  const template = document.getElementById(PUBLIC_TEMPLATES.menu);
  if (!(template instanceof HTMLTemplateElement)) return;
  let dialog: A11yDialog | undefined;

  const close = () => dialog?.hide();
  signal.addEventListener('abort', close);

  button.addEventListener(
    'click',
    () => {
      if (dialog) return;
      document.body.append(template.content.cloneNode(true));
      const container = document.getElementById(PUBLIC_MENU_ID);
      if (!container) return;
      const opened = new A11yDialog(container);
      dialog = opened;
      opened.on('hide', () => {
        button.setAttribute('aria-expanded', 'false');
        document.documentElement.style.overflow = '';
        // After a11y-dialog has given the focus back: then the menu leaves the page.
        queueMicrotask(() => {
          opened.destroy();
          document.getElementById(PUBLIC_MENU_ID)?.remove();
          dialog = undefined;
        });
      });
      opened.show();
      button.setAttribute('aria-expanded', 'true');
      // The page behind does not scroll while the menu is open, as with the app's menu.
      document.documentElement.style.overflow = 'hidden';
      // Like the app's menu, the focus starts on its first control (the close button).
      container.querySelector<HTMLElement>('[data-a11y-dialog-hide]:not([aria-hidden])')?.focus();
    },
    { signal },
  );
}
