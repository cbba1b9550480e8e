import type { TestProject } from 'vitest/node';
import { findPostgresBin, type PostgresCluster, startPostgresCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

let cluster: PostgresCluster | undefined;

/** Gives the server suite a PostgreSQL: TEST_DATABASE_URL, or a throwaway cluster. */
export async function setup(project: TestProject): Promise<void> {
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide('postgresUrl', given);
    return;
  }
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error(
      'No se encontró PostgreSQL para las pruebas del servidor. Instálalo (apt-get install postgresql) o define TEST_DATABASE_URL.',
    );
  }
  cluster = await startPostgresCluster(bin);
  project.provide('postgresUrl', cluster.url);
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
}
