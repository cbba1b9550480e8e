import { describe, expect, it } from 'vitest';
import { createLagTracker } from './copy-lag';
import { createSecuredTracker } from './copy-secured';
import { litestreamYaml, positionsInMetrics } from './litestream';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, seconds));
const pos = (...n: number[]) => n.map(BigInt);

describe('the copy’s lag', () => {
  it('is how long ago the copy was last seen holding everything written here, never less', () => {
    const lag = createLagTracker(at(0));
    // Nothing looked at yet: counted from the start.
    expect(lag.lagSeconds(at(5))).toBe(5);
    lag.observe(at(10), { local: pos(0, 100), copy: pos(0, 100) });
    expect(lag.lagSeconds(at(10))).toBe(0);
    expect(lag.copyAnswered).toBe(true);
    // Written at 11 and 12, the copy still at 100: everything up to the look at 10 is there.
    lag.observe(at(11), { local: pos(0, 200), copy: pos(0, 100) });
    lag.observe(at(12), { local: pos(0, 300), copy: pos(0, 100) });
    expect(lag.lagSeconds(at(40))).toBe(30);
    // The copy passes 200: what the look at 11 saw is in it, not yet what the look at 12 saw.
    lag.observe(at(41), { local: pos(0, 300), copy: pos(0, 250) });
    expect(lag.lagSeconds(at(41))).toBe(30);
    lag.observe(at(42), { local: pos(0, 300), copy: pos(0, 300) });
    expect(lag.lagSeconds(at(42))).toBe(0);
  });

  it('grows while the copy does not answer, and starts again with a new generation', () => {
    const lag = createLagTracker(at(0));
    lag.observe(at(1), { local: pos(3, 500), copy: pos(3, 500) });
    lag.observe(at(2), undefined);
    lag.observe(at(30), { local: pos(3, 900), copy: undefined });
    expect(lag.copyAnswered).toBe(false);
    expect(lag.lagSeconds(at(90))).toBe(89);
    // A new generation: positions from 0 again; the copy holding it clears what was waiting.
    lag.observe(at(91), { local: pos(0, 10), copy: pos(0, 10) });
    expect(lag.lagSeconds(at(91))).toBe(0);
  });

  it('compares WAL indexes before offsets', () => {
    const lag = createLagTracker(at(0));
    lag.observe(at(1), { local: pos(1, 10), copy: pos(0, 4000) });
    expect(lag.lagSeconds(at(1))).toBe(1);
    lag.observe(at(2), { local: pos(1, 10), copy: pos(1, 10) });
    expect(lag.lagSeconds(at(2))).toBe(0);
  });
});

describe('Litestream', () => {
  it('reads its shadow WAL’s and its replica’s positions from its metrics', () => {
    const text = [
      '# HELP litestream_shadow_wal_index The current shadow WAL index',
      'litestream_shadow_wal_index{db="/data/comando.sqlite"} 2',
      'litestream_shadow_wal_size{db="/data/comando.sqlite"} 32992',
      'litestream_replica_wal_index{db="/data/comando.sqlite",name="s3"} 1',
      'litestream_replica_wal_offset{db="/data/comando.sqlite",name="s3"} 4120',
    ].join('\n');
    expect(positionsInMetrics(text)).toEqual({ local: pos(2, 32992), copy: pos(1, 4120) });
    // Before its first sync the replica has no position yet.
    expect(positionsInMetrics(text.split('\n').slice(0, 3).join('\n'))).toEqual({
      local: pos(2, 32992),
      copy: undefined,
    });
    expect(positionsInMetrics('')).toBeUndefined();
  });

  it('is configured with the database, its replica and no key in the file', () => {
    const yaml = litestreamYaml(
      '/var/lib/comando/comando.sqlite',
      {
        kind: 's3',
        bucket: 'copias',
        path: 'zulia',
        endpoint: 'https://s3.example.org',
        region: 'auto',
        accessKeyId: 'AKIA',
        secretAccessKey: 'secreto',
        forcePathStyle: true,
        syncSeconds: 1,
      },
      '127.0.0.1:9999',
    );
    expect(yaml).toBe(
      [
        'addr: "127.0.0.1:9999"',
        'dbs:',
        '  - path: "/var/lib/comando/comando.sqlite"',
        '    monitor-interval: 1s',
        '    replicas:',
        '      - type: s3',
        '        bucket: "copias"',
        '        path: "zulia"',
        '        region: "auto"',
        '        endpoint: "https://s3.example.org"',
        '        force-path-style: true',
        '        sync-interval: 1s',
        '',
      ].join('\n'),
    );
    expect(yaml).not.toContain('secreto');
    expect(litestreamYaml('/d/comando.sqlite', { kind: 'file', path: '/mnt/otro/copia', syncSeconds: 5 })).toContain(
      '      - type: file\n        path: "/mnt/otro/copia"\n        sync-interval: 5s\n',
    );
  });
});

describe('up to when the copy surely holds what was committed (Asegurado)', () => {
  it('PostgreSQL: a look is held once the standby replays past the position read at it', () => {
    const secured = createSecuredTracker();
    expect(secured.securedUntil).toBeNull();
    secured.observe(at(1), { local: pos(100), copy: pos(50) });
    secured.observe(at(2), { local: pos(200), copy: pos(150) });
    expect(secured.securedUntil).toEqual(at(1));
    secured.observe(at(3), { local: pos(200), copy: pos(200) });
    expect(secured.securedUntil).toEqual(at(3));
  });

  it('Litestream: a look counts only once two more syncs have run, even with the replica level with the shadow WAL', () => {
    const secured = createSecuredTracker();
    secured.observe(at(1), { local: pos(0, 100), copy: pos(0, 100), syncs: 10n });
    // One sync since: it may have begun before the look, so what the look could see may be missing.
    secured.observe(at(2), { local: pos(0, 100), copy: pos(0, 100), syncs: 11n });
    expect(secured.securedUntil).toBeNull();
    // A Litestream that stopped syncing moves nothing forward however long it is looked at.
    secured.observe(at(30), { local: pos(0, 100), copy: pos(0, 100), syncs: 11n });
    expect(secured.securedUntil).toBeNull();
    // Two syncs after the look at 1: the shadow WAL now covers it, and the replica holds it.
    secured.observe(at(31), { local: pos(0, 300), copy: pos(0, 200), syncs: 12n });
    expect(secured.securedUntil).toBeNull();
    secured.observe(at(32), { local: pos(0, 300), copy: pos(0, 300), syncs: 13n });
    expect(secured.securedUntil).toEqual(at(30));
    // A Litestream started again counts its syncs from zero: nothing secured goes back.
    secured.observe(at(40), { local: pos(0, 10), copy: pos(0, 10), syncs: 1n });
    secured.observe(at(41), { local: pos(0, 10), copy: pos(0, 10), syncs: 3n });
    expect(secured.securedUntil).toEqual(at(40));
  });
});
