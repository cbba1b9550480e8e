import type { Readable } from 'node:stream';
import type { StorageConfig } from '#server/platform/config/config';
import { createDropboxClient, type DropboxClientOptions, DropboxError, isDropboxError } from './dropbox-client';
import { isStorageKey, newStorageKey, type PhotoStorage } from './photo-storage';

type DropboxConfig = Extract<StorageConfig, { driver: 'dropbox' }>;

/** The app's own folder for files under their generated keys: `/_comando/<2 hex>/<32 hex>.<suffix>`. */
export const DROPBOX_KEY_FOLDER = '/_comando';

/** Dropbox takes up to 150 MB in one upload call; photos are far below (20 MB by default). */
const MAX_UPLOAD_BYTES = 150 * 1024 * 1024;

interface FileMetadata {
  size: number;
  content_hash?: string;
}

interface SharedLink {
  url: string;
  /** Present for links to files in the app's own Dropbox. */
  path_lower?: string;
}

export function dropboxKeyPath(key: string): string {
  return `${DROPBOX_KEY_FOLDER}/${key}`;
}

/**
 * Photos in Dropbox (docs/decisions/012). Every file lives at its key path, which is what `get` reads.
 * An original ballot photo is also published at its readable path (`/<department>/<Gobernador|AN|CLEZ>/
 * <name>.<ext>`, overwritten like the original app did) with a fresh shared link; the key path holds a
 * server-side copy, so a later overwrite of the readable path never loses the evidence.
 */
export function createDropboxStorage(
  config: DropboxConfig,
  tuning: Pick<DropboxClientOptions, 'renewBeforeMs' | 'maxRetries' | 'maxRetryWaitMs' | 'timeoutMs'> = {},
): PhotoStorage {
  const client = createDropboxClient({ ...config, ...tuning });

  const upload = (path: string, bytes: Buffer, mode: 'add' | 'overwrite') =>
    client.upload<FileMetadata>({ path, mode, autorename: false, mute: true, strict_conflict: false }, bytes);

  async function removePath(path: string): Promise<void> {
    try {
      await client.rpc('/2/files/delete_v2', { path });
    } catch (error) {
      if (!isDropboxError(error, 'path_lookup/not_found')) throw error;
    }
  }

  /** Server-side copy of the readable file to the key path; the hashes prove it is the bytes just sent. */
  async function keepEvidence(readablePath: string, keyPath: string, sent: FileMetadata, bytes: Buffer) {
    const copied = await client.rpc<{ metadata: FileMetadata }>('/2/files/copy_v2', {
      from_path: readablePath,
      to_path: keyPath,
      autorename: false,
    });
    if (sent.content_hash && copied.metadata.content_hash === sent.content_hash) return;
    // Another upload overwrote the readable path in between (two records with the same name): the copy
    // holds their bytes, not ours. Replace it with ours.
    await upload(keyPath, bytes, 'overwrite');
  }

  /** Revokes the readable file's old links and creates a new one, as the original app did. */
  async function publish(readablePath: string): Promise<string> {
    for (const link of await listLinks(readablePath)) {
      try {
        await client.rpc('/2/sharing/revoke_shared_link', { url: link.url });
      } catch (error) {
        if (!isDropboxError(error, 'shared_link_not_found')) throw error;
      }
    }
    try {
      const created = await client.rpc<SharedLink>('/2/sharing/create_shared_link_with_settings', {
        path: readablePath,
        settings: { audience: 'public', access: 'viewer' },
      });
      return created.url;
    } catch (error) {
      if (!isDropboxError(error, 'shared_link_already_exists')) throw error;
      // Made meanwhile (another upload of the same path): use it, from the error or from a new list.
      const found = existingLinkUrl(error.error) ?? (await listLinks(readablePath))[0]?.url;
      if (!found) throw error;
      return found;
    }
  }

  async function listLinks(path: string): Promise<SharedLink[]> {
    const links: SharedLink[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.rpc<{ links: SharedLink[]; has_more?: boolean; cursor?: string }>(
        '/2/sharing/list_shared_links',
        cursor ? { path, cursor } : { path, direct_only: true },
      );
      links.push(...page.links);
      cursor = page.has_more ? page.cursor : undefined;
    } while (cursor);
    // direct_only: links to this file itself, not to a folder above it.
    return links;
  }

  return {
    driver: 'dropbox',
    location: `dropbox:${config.appKey}`,

    async put(body, { suffix, readablePath }) {
      const key = newStorageKey(suffix);
      const keyPath = dropboxKeyPath(key);
      // Buffered so a call repeated after an expired token or a 429 sends the same bytes; photos are
      // limited by the app's setting (20 MB by default), far below Dropbox's 150 MB per call.
      const bytes = await readAll(body);
      if (!readablePath) {
        await upload(keyPath, bytes, 'add');
        return { key, size: bytes.length };
      }
      const sent = await upload(readablePath, bytes, 'overwrite');
      try {
        await keepEvidence(readablePath, keyPath, sent, bytes);
        const sharedUrl = await publish(readablePath);
        return { key, size: bytes.length, sharedUrl };
      } catch (error) {
        // The caller never learns this key: do not leave it behind.
        await removePath(keyPath).catch(() => {});
        throw error;
      }
    },

    async putAt(key, body) {
      if (!isStorageKey(key)) throw new Error(`Clave de almacenamiento inválida: ${key}`);
      const bytes = await readAll(body);
      await upload(dropboxKeyPath(key), bytes, 'overwrite');
      return { size: bytes.length };
    },

    async get(key) {
      if (!isStorageKey(key)) return undefined;
      try {
        const { stream, result } = await client.download<FileMetadata>({ path: dropboxKeyPath(key) });
        return { stream, size: result.size };
      } catch (error) {
        if (isDropboxError(error, 'path/not_found')) return undefined;
        throw error;
      }
    },

    async delete(key) {
      if (!isStorageKey(key)) return;
      await removePath(dropboxKeyPath(key));
    },

    async unpublish(sharedUrl) {
      let linked: SharedLink;
      try {
        linked = await client.rpc<SharedLink>('/2/sharing/get_shared_link_metadata', { url: sharedUrl });
      } catch (error) {
        // Revoked already (a later upload to the same readable path revoked it and holds the live one).
        if (isDropboxError(error, 'shared_link_not_found')) return;
        throw error;
      }
      // The link first: a file restored from Dropbox's deleted files must not come back with it.
      try {
        await client.rpc('/2/sharing/revoke_shared_link', { url: sharedUrl });
      } catch (error) {
        if (!isDropboxError(error, 'shared_link_not_found')) throw error;
      }
      // Only a readable copy: the key folder holds the evidence, which `delete` removes when asked.
      const path = linked.path_lower;
      if (path && !path.startsWith(`${DROPBOX_KEY_FOLDER}/`)) await removePath(path);
    },

    async exists(key) {
      if (!isStorageKey(key)) return false;
      try {
        const meta = await client.rpc<{ '.tag': string }>('/2/files/get_metadata', { path: dropboxKeyPath(key) });
        return meta['.tag'] === 'file';
      } catch (error) {
        if (isDropboxError(error, 'path/not_found')) return false;
        throw error;
      }
    },
  };
}

function existingLinkUrl(error: unknown): string | undefined {
  const found = (error as { shared_link_already_exists?: { metadata?: { url?: unknown } } } | undefined)
    ?.shared_link_already_exists?.metadata?.url;
  return typeof found === 'string' ? found : undefined;
}

async function readAll(body: Readable | Buffer): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += piece.length;
    if (size > MAX_UPLOAD_BYTES) {
      body.destroy();
      throw new DropboxError('La foto supera los 150 MB que Dropbox acepta en una carga', 413, '');
    }
    chunks.push(piece);
  }
  return Buffer.concat(chunks);
}
