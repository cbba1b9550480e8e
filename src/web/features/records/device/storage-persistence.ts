let asked: Promise<boolean> | undefined;

/**
 * Asks the browser, once per page, to keep this site's data when the phone runs short of space: by
 * default IndexedDB is "best effort" and may be cleared, and what waits there (votes, photos) exists
 * nowhere else. Chromium decides without asking the person (it grants installed apps and sites in
 * use); other browsers may ask. Answers whether the data is kept; never throws.
 */
export function keepDataOnThisPhone(): Promise<boolean> {
  asked ??= (async () => {
    try {
      const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
      if (!storage?.persist) return false;
      if (await storage.persisted?.()) return true;
      return await storage.persist();
    } catch {
      return false;
    }
  })();
  return asked;
}

/** Tests start each case with the question not asked yet. */
export function resetDataPersistenceForTests(): void {
  asked = undefined;
}
