// Seeds the known e2e data once, into the template folder the seeded app instances copy their database
// from (start-server.mjs): one seed for main, s3, dropbox and firebase instead of one each.
import fs from 'node:fs';
import { seedE2E } from './seed';
import { e2eTemplateDir } from './servers';

const dir = e2eTemplateDir();
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
await seedE2E(dir);
