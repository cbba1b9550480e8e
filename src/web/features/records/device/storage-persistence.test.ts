import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepDataOnThisPhone, resetDataPersistenceForTests } from './storage-persistence';

function stubStorage(storage: Partial<StorageManager> | undefined) {
  Object.defineProperty(navigator, 'storage', { value: storage, configurable: true });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'storage');
  resetDataPersistenceForTests();
});

describe('keepDataOnThisPhone', () => {
  it('asks the browser once, however many times it is called', async () => {
    const persist = vi.fn(async () => true);
    stubStorage({ persisted: async () => false, persist });
    expect(await Promise.all([keepDataOnThisPhone(), keepDataOnThisPhone()])).toEqual([true, true]);
    expect(await keepDataOnThisPhone()).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('does not ask again when the data is already kept', async () => {
    const persist = vi.fn(async () => true);
    stubStorage({ persisted: async () => true, persist });
    expect(await keepDataOnThisPhone()).toBe(true);
    expect(persist).not.toHaveBeenCalled();
  });

  it('answers false, without throwing, where the browser has no such question or refuses it', async () => {
    stubStorage(undefined);
    expect(await keepDataOnThisPhone()).toBe(false);
    resetDataPersistenceForTests();
    stubStorage({ persisted: async () => false, persist: async () => Promise.reject(new Error('no')) });
    expect(await keepDataOnThisPhone()).toBe(false);
  });
});
