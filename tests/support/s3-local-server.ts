// The end-to-end tests' S3-compatible server: s3rver on 127.0.0.1:<port> (first argument), a fresh
// temporary folder and the bucket of S3_LOCAL. `GET /` lists the buckets (Playwright waits for it).
// Usage: npx tsx tests/support/s3-local-server.ts <port>
import { startS3Local } from '#server/testing/s3-local';
import { S3_LOCAL } from '../e2e/support/servers';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('Uso: npx tsx tests/support/s3-local-server.ts <puerto>');
  process.exit(2);
}

const s3 = await startS3Local({ port, bucket: S3_LOCAL.bucket });

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await s3.stop().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
