import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The contents of a key file in the data folder, made by `make` the first time (readable by the server's
 * user only). The new key is written whole under another name, then linked into place: of instances
 * starting at the same moment on one data folder, one links first and the others read its key, complete,
 * never half written.
 */
export function keyFileContents(file: string, make: () => string | Buffer): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, make(), { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  return fs.readFileSync(file);
}
