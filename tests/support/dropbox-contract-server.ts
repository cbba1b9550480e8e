// A local server that speaks Dropbox's documented HTTP contract (API v2), api and content paths on one URL:
//   POST /oauth2/token  grant_type=refresh_token&refresh_token=… in a form body or in the query string (as the
//        official SDK sends it), with the app key/secret as HTTP Basic auth (or client_id/client_secret among
//        the parameters) → { access_token, token_type: 'bearer', expires_in };
//        400 { error: 'invalid_grant' } for an unknown refresh token, 400 invalid_client for a bad app.
//   POST /2/files/upload       Dropbox-API-Arg {path, mode, autorename, mute, strict_conflict}, the bytes as
//        application/octet-stream → file metadata; 409 path/conflict/file/ in add mode.
//   POST /2/files/download     Dropbox-API-Arg {path} → the bytes, metadata in Dropbox-API-Result; 409 path/not_found/.
//   POST /2/files/get_metadata, /2/files/delete_v2, /2/files/copy_v2, /2/sharing/list_shared_links,
//        /2/sharing/revoke_shared_link, /2/sharing/create_shared_link_with_settings,
//        /2/sharing/get_shared_link_metadata {url} (the link's metadata, path_lower among it) (JSON in, JSON
//        out; 409 with error_summary and error, e.g. shared_link_already_exists/ with the existing link's
//        metadata, shared_link_not_found/ for a link revoked or never made).
// Every call but the token one needs `Authorization: Bearer <access token>`: 401 expired_access_token once a
// token has expired, invalid_access_token for an unknown one. The Dropbox-API-Arg header must be ASCII
// (non-ASCII escaped as \uXXXX), or the call is refused with a 400 in plain text, as Dropbox does.
// Switches: the next requests answer 429 with Retry-After or 503, a route's next request finds its token
// expired, token lifetime and delay; counters of token exchanges and stored uploads per path.
// Files and links live in memory. GET /health answers 200 (end-to-end servers wait for it).
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DropboxContractOptions {
  appKey?: string;
  appSecret?: string;
  refreshToken?: string;
  /** Seconds an access token lives (Dropbox: 14 400). */
  tokenLifetimeSeconds?: number;
  port?: number;
}

interface StoredFile {
  id: string;
  pathDisplay: string;
  data: Buffer;
  rev: string;
  serverModified: string;
}

interface Link {
  url: string;
  pathLower: string;
  id: string;
}

interface Fault {
  route: string | undefined;
  kind: 'rate_limit' | 'unavailable' | 'expire_token';
  retryAfter?: string;
}

export interface DropboxRequestLog {
  route: string;
  status: number;
  /** The argument (header or JSON body) as the server decoded it. */
  arg: unknown;
}

export interface DropboxContractServer {
  url: string;
  appKey: string;
  appSecret: string;
  refreshToken: string;
  tokenLifetimeSeconds: number;
  /** How long the token endpoint takes to answer (to overlap concurrent refreshes in tests). */
  tokenDelayMs: number;
  /** Successful refresh-token exchanges. */
  readonly tokenExchanges: number;
  /** Every request but /health, in arrival order. */
  readonly requests: DropboxRequestLog[];
  /** The next request (to `route`, or any) answers 429 too_many_requests with this Retry-After. */
  rateLimitNext(options?: { route?: string; retryAfter?: number | string; times?: number }): void;
  /** The next request (to `route`, or any) answers 503 (with Retry-After when given). */
  unavailableNext(options?: { route?: string; retryAfter?: number | string; times?: number }): void;
  /** When the next request to `route` arrives, every issued access token expires (it answers 401). */
  expireTokenOnNext(route: string): void;
  /** Every issued access token expires now. */
  expireTokens(): void;
  /** Runs `action` when the next request to `route` arrives, before it is answered (races in tests). */
  beforeNext(route: string, action: () => void): void;
  /** Stored uploads to this path (case-insensitive, as Dropbox paths are). */
  uploadsTo(path: string): number;
  /** The bytes at a path, or undefined. */
  file(path: string): Buffer | undefined;
  /** Display paths of every file, sorted. */
  files(): string[];
  putFile(path: string, data: Buffer): void;
  /** URLs of the live shared links of a path. */
  links(path: string): string[];
  /** URLs of every live shared link. */
  allLinks(): string[];
  /** A link made outside the app (or by an earlier run). */
  addSharedLink(path: string): string;
  readonly revokedLinks: string[];
  /** The next list_shared_links calls answer no links (a link made elsewhere, not listed yet). */
  hideLinksFromNextLists: number;
  /** shared_link_already_exists carries the existing link's metadata (Dropbox sends it when it can). */
  alreadyExistsWithMetadata: boolean;
  close(): Promise<void>;
}

/** Dropbox's content_hash: SHA-256 of the concatenated SHA-256 of each 4 MiB block. */
export function dropboxContentHash(data: Buffer): string {
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length; at += 4 * 1024 * 1024) {
    blocks.push(
      createHash('sha256')
        .update(data.subarray(at, at + 4 * 1024 * 1024))
        .digest(),
    );
  }
  return createHash('sha256').update(Buffer.concat(blocks)).digest('hex');
}

const RPC_ROUTES = new Set([
  '/2/files/get_metadata',
  '/2/files/delete_v2',
  '/2/files/copy_v2',
  '/2/sharing/list_shared_links',
  '/2/sharing/revoke_shared_link',
  '/2/sharing/create_shared_link_with_settings',
  '/2/sharing/get_shared_link_metadata',
]);
const CONTENT_ROUTES = new Set(['/2/files/upload', '/2/files/download']);

class ApiError {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A 409 with Dropbox's shape: the tags joined in error_summary, the union in error. */
const conflict = (summaryTags: string, error: unknown) =>
  new ApiError(409, { error_summary: `${summaryTags}/..${randomBytes(1).toString('hex')}`, error });
const notFound = (tag: string) => conflict(`${tag}/not_found`, { '.tag': tag, [tag]: { '.tag': 'not_found' } });
const badInput = (route: string, message: string) =>
  new ApiError(400, `Error in call to API function "${route.slice(3)}": ${message}`);

export async function startDropboxContractServer(options: DropboxContractOptions = {}): Promise<DropboxContractServer> {
  const appKey = options.appKey ?? 'test-app-key';
  const appSecret = options.appSecret ?? 'test-app-secret';
  const refreshToken = options.refreshToken ?? 'test-refresh-token';
  const files = new Map<string, StoredFile>();
  const links = new Map<string, Link>();
  const revokedLinks: string[] = [];
  const tokens = new Map<string, number>();
  const uploads = new Map<string, number>();
  const requests: DropboxRequestLog[] = [];
  let faults: Fault[] = [];
  const hooks: { route: string; action: () => void }[] = [];
  let tokenExchanges = 0;
  let counter = 0;
  const knobs = {
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 14_400,
    tokenDelayMs: 0,
    hideLinksFromNextLists: 0,
    alreadyExistsWithMetadata: true,
  };

  const lower = (path: string) => path.toLowerCase();
  const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const nextRev = () => (++counter).toString(16).padStart(9, '0');
  const isFolder = (path: string) => {
    const prefix = `${lower(path)}/`;
    for (const key of files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  };

  function fileMetadata(file: StoredFile) {
    const name = baseName(file.pathDisplay);
    return {
      '.tag': 'file',
      name,
      path_lower: lower(file.pathDisplay),
      path_display: file.pathDisplay,
      id: file.id,
      client_modified: file.serverModified,
      server_modified: file.serverModified,
      rev: file.rev,
      size: file.data.length,
      is_downloadable: true,
      content_hash: dropboxContentHash(file.data),
    };
  }

  function linkMetadata(link: Link) {
    const file = files.get(link.pathLower);
    return {
      '.tag': 'file',
      url: link.url,
      id: link.id,
      name: baseName(file?.pathDisplay ?? link.pathLower),
      path_lower: link.pathLower,
      link_permissions: {
        resolved_visibility: { '.tag': 'public' },
        can_revoke: true,
        visibility_policies: [],
        can_set_expiry: false,
        can_remove_expiry: false,
        allow_download: true,
        can_allow_download: true,
        can_disallow_download: false,
        allow_comments: true,
        team_restricts_comments: false,
      },
      ...(file
        ? {
            client_modified: file.serverModified,
            server_modified: file.serverModified,
            rev: file.rev,
            size: file.data.length,
          }
        : {}),
    };
  }

  function store(pathDisplay: string, data: Buffer): StoredFile {
    const existing = files.get(lower(pathDisplay));
    const file: StoredFile = {
      id: existing?.id ?? `id:${randomBytes(11).toString('base64url')}`,
      pathDisplay: existing?.pathDisplay ?? pathDisplay,
      data,
      rev: nextRev(),
      serverModified: `${new Date().toISOString().slice(0, 19)}Z`,
    };
    files.set(lower(pathDisplay), file);
    return file;
  }

  function addLink(pathLower: string): Link {
    const id = randomBytes(12).toString('hex');
    const name = encodeURIComponent(baseName(files.get(pathLower)?.pathDisplay ?? pathLower));
    const link = {
      url: `https://www.dropbox.com/scl/fi/${id}/${name}?rlkey=${randomBytes(8).toString('hex')}&dl=0`,
      pathLower,
      id,
    };
    links.set(link.url, link);
    return link;
  }

  function dropLinks(pathLower: string) {
    for (const [url, link] of links) if (link.pathLower === pathLower) links.delete(url);
  }

  function checkPath(route: string, value: unknown, field = 'path'): string {
    if (typeof value !== 'string' || !/^\/./.test(value) || value.endsWith('/')) {
      throw badInput(route, `${field}: '${String(value)}' did not match pattern '(/(.|[\\r\\n])*)|(ns:[0-9]+(/.*)?)'`);
    }
    return value;
  }

  function authorize(req: http.IncomingMessage, route: string) {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer (\S+)$/.exec(header);
    if (!match) {
      throw new ApiError(
        400,
        'Error in call to API function: Invalid authorization value in HTTP header "Authorization"',
      );
    }
    const fault = takeFault(route, 'expire_token');
    if (fault) for (const key of tokens.keys()) tokens.set(key, 0);
    const expiresAt = tokens.get(match[1]!);
    if (expiresAt === undefined) {
      throw new ApiError(401, { error_summary: 'invalid_access_token/...', error: { '.tag': 'invalid_access_token' } });
    }
    if (expiresAt <= Date.now()) {
      throw new ApiError(401, { error_summary: 'expired_access_token/..', error: { '.tag': 'expired_access_token' } });
    }
  }

  function takeFault(route: string, kind?: Fault['kind']): Fault | undefined {
    const index = faults.findIndex(
      (f) => (!f.route || f.route === route) && (kind ? f.kind === kind : f.kind !== 'expire_token'),
    );
    if (index < 0) return undefined;
    const [fault] = faults.splice(index, 1);
    return fault;
  }

  async function token(body: string, req: http.IncomingMessage) {
    // Parameters in the query string (how the official SDK sends its refresh) or in a form body.
    const form = new URLSearchParams(new URL(req.url ?? '/', 'http://localhost').search);
    if (
      /^application\/x-www-form-urlencoded/i.test(String(req.headers['content-type'] ?? '')) ||
      !req.headers['content-type']
    ) {
      for (const [name, value] of new URLSearchParams(body)) form.set(name, value);
    }
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic (\S+)$/.exec(req.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      clientId = decoded.slice(0, colon);
      clientSecret = decoded.slice(colon + 1);
    }
    if (knobs.tokenDelayMs > 0) await new Promise((r) => setTimeout(r, knobs.tokenDelayMs));
    if (clientId !== appKey || clientSecret !== appSecret) {
      throw new ApiError(400, { error: 'invalid_client', error_description: 'Invalid client_id or client_secret' });
    }
    if (form.get('grant_type') !== 'refresh_token') {
      throw new ApiError(400, { error: 'unsupported_grant_type', error_description: 'unsupported grant_type' });
    }
    if (form.get('refresh_token') !== refreshToken) {
      throw new ApiError(400, { error: 'invalid_grant', error_description: 'refresh token is invalid or revoked' });
    }
    tokenExchanges++;
    const access = `sl.${randomBytes(24).toString('base64url')}`;
    tokens.set(access, Date.now() + knobs.tokenLifetimeSeconds * 1000);
    return { access_token: access, token_type: 'bearer', expires_in: knobs.tokenLifetimeSeconds };
  }

  function upload(route: string, arg: Record<string, unknown>, body: Buffer, contentType: string) {
    if (!/^(application\/octet-stream|text\/plain; ?charset=dropbox-cors-hack)$/i.test(contentType)) {
      throw new ApiError(
        400,
        `Error in call to API function "files/upload": Bad HTTP "Content-Type" header: "${contentType}".  Expecting one of "application/octet-stream", "text/plain; charset=dropbox-cors-hack".`,
      );
    }
    const path = checkPath(route, arg.path);
    const mode = typeof arg.mode === 'object' && arg.mode ? (arg.mode as { '.tag'?: string })['.tag'] : arg.mode;
    if (mode !== undefined && mode !== 'add' && mode !== 'overwrite')
      throw badInput(route, `mode: unknown tag '${mode}'`);
    const writeConflict = (what: 'file' | 'folder') =>
      conflict(`path/conflict/${what}`, {
        '.tag': 'path',
        reason: { '.tag': 'conflict', conflict: { '.tag': what } },
        upload_session_id: randomBytes(8).toString('hex'),
      });
    if (isFolder(path)) throw writeConflict('folder');
    const existing = files.get(lower(path));
    if (existing && (mode ?? 'add') === 'add' && !existing.data.equals(body)) throw writeConflict('file');
    uploads.set(lower(path), (uploads.get(lower(path)) ?? 0) + 1);
    return fileMetadata(store(path, body));
  }

  function rpc(route: string, arg: Record<string, unknown>) {
    switch (route) {
      case '/2/files/get_metadata': {
        const path = checkPath(route, arg.path);
        const file = files.get(lower(path));
        if (file) return fileMetadata(file);
        if (isFolder(path)) {
          return {
            '.tag': 'folder',
            name: path.slice(path.lastIndexOf('/') + 1),
            path_lower: lower(path),
            path_display: path,
            id: 'id:folder',
          };
        }
        throw notFound('path');
      }
      case '/2/files/delete_v2': {
        const path = checkPath(route, arg.path);
        const file = files.get(lower(path));
        if (!file) throw notFound('path_lookup');
        files.delete(lower(path));
        dropLinks(lower(path));
        return { metadata: fileMetadata(file) };
      }
      case '/2/files/copy_v2': {
        const from = checkPath(route, arg.from_path, 'from_path');
        const to = checkPath(route, arg.to_path, 'to_path');
        const file = files.get(lower(from));
        if (!file) throw notFound('from_lookup');
        if (files.has(lower(to)) || isFolder(to)) {
          throw conflict('to/conflict/file', {
            '.tag': 'to',
            to: { '.tag': 'conflict', conflict: { '.tag': 'file' } },
          });
        }
        files.delete(lower(to));
        return { metadata: fileMetadata(store(to, Buffer.from(file.data))) };
      }
      case '/2/sharing/list_shared_links': {
        let path = arg.path === undefined ? undefined : checkPath(route, arg.path);
        let offset = 0;
        if (typeof arg.cursor === 'string') {
          const decoded = JSON.parse(Buffer.from(arg.cursor, 'base64url').toString('utf8')) as {
            path?: string;
            offset: number;
          };
          path = decoded.path;
          offset = decoded.offset;
        }
        if (path !== undefined && !files.has(lower(path)) && !isFolder(path)) throw notFound('path');
        if (knobs.hideLinksFromNextLists > 0 && offset === 0) {
          knobs.hideLinksFromNextLists--;
          return { links: [], has_more: false };
        }
        const all = [...links.values()].filter((l) => path === undefined || l.pathLower === lower(path));
        const page = all.slice(offset, offset + 2);
        const hasMore = offset + 2 < all.length;
        return {
          links: page.map(linkMetadata),
          has_more: hasMore,
          ...(hasMore
            ? { cursor: Buffer.from(JSON.stringify({ path, offset: offset + 2 })).toString('base64url') }
            : {}),
        };
      }
      case '/2/sharing/get_shared_link_metadata': {
        if (typeof arg.url !== 'string') throw badInput(route, 'url: missing required field');
        const link = links.get(arg.url);
        if (!link) throw conflict('shared_link_not_found', { '.tag': 'shared_link_not_found' });
        return linkMetadata(link);
      }
      case '/2/sharing/revoke_shared_link': {
        if (typeof arg.url !== 'string') throw badInput(route, 'url: missing required field');
        if (!links.delete(arg.url)) throw conflict('shared_link_not_found', { '.tag': 'shared_link_not_found' });
        revokedLinks.push(arg.url);
        return null;
      }
      case '/2/sharing/create_shared_link_with_settings': {
        const path = checkPath(route, arg.path);
        if (!files.has(lower(path))) throw notFound('path');
        const existing = [...links.values()].find((l) => l.pathLower === lower(path));
        if (existing) {
          throw conflict(
            knobs.alreadyExistsWithMetadata ? 'shared_link_already_exists/metadata' : 'shared_link_already_exists',
            {
              '.tag': 'shared_link_already_exists',
              ...(knobs.alreadyExistsWithMetadata
                ? { shared_link_already_exists: { '.tag': 'metadata', metadata: linkMetadata(existing) } }
                : {}),
            },
          );
        }
        return linkMetadata(addLink(lower(path)));
      }
    }
    throw new ApiError(404, 'Unknown API function');
  }

  function download(route: string, arg: Record<string, unknown>) {
    const path = checkPath(route, arg.path);
    const file = files.get(lower(path));
    if (!file) throw notFound('path');
    return file;
  }

  /** Dropbox-API-Arg: JSON in printable ASCII only. */
  function headerArg(req: http.IncomingMessage, route: string): Record<string, unknown> {
    const raw = req.headers['dropbox-api-arg'];
    if (typeof raw !== 'string') throw badInput(route, 'Missing "Dropbox-API-Arg" HTTP header');
    if (/[^\x20-\x7e]/.test(raw))
      throw badInput(route, 'HTTP header "Dropbox-API-Arg": could not decode input as JSON');
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw badInput(route, 'HTTP header "Dropbox-API-Arg": could not decode input as JSON');
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void handle(req, res, Buffer.concat(chunks));
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    const route = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && route === '/health') return void res.writeHead(200).end('ok');
    const log: DropboxRequestLog = { route, status: 200, arg: undefined };
    requests.push(log);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      log.status = status;
      const isText = typeof payload === 'string';
      res.writeHead(status, {
        'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
        ...headers,
      });
      res.end(isText ? payload : JSON.stringify(payload));
    };
    try {
      if (req.method !== 'POST') throw new ApiError(405, 'Method Not Allowed');
      if (route === '/oauth2/token') {
        const fault = takeFault(route);
        if (fault) throw faultError(fault);
        return send(200, await token(body.toString('utf8'), req));
      }
      if (!RPC_ROUTES.has(route) && !CONTENT_ROUTES.has(route)) throw new ApiError(404, 'Unknown API function');
      const hook = hooks.findIndex((h) => h.route === route);
      if (hook >= 0) hooks.splice(hook, 1)[0]!.action();
      const fault = takeFault(route);
      if (fault) throw faultError(fault);
      authorize(req, route);
      if (route === '/2/files/upload') {
        const arg = headerArg(req, route);
        log.arg = arg;
        return send(200, upload(route, arg, body, String(req.headers['content-type'] ?? '')));
      }
      if (route === '/2/files/download') {
        const arg = headerArg(req, route);
        log.arg = arg;
        const file = download(route, arg);
        log.status = 200;
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': String(file.data.length),
          'dropbox-api-result': JSON.stringify(fileMetadata(file)).replace(
            /[\u007f-\uffff]/g,
            (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
          ),
        });
        return void res.end(file.data);
      }
      if (!/^application\/json/i.test(String(req.headers['content-type'] ?? ''))) {
        throw badInput(
          route,
          `Bad HTTP "Content-Type" header: "${req.headers['content-type'] ?? ''}".  Expecting one of "application/json".`,
        );
      }
      let arg: Record<string, unknown>;
      try {
        arg = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw badInput(route, 'request body: could not decode input as JSON');
      }
      log.arg = arg;
      return send(200, rpc(route, arg));
    } catch (error) {
      if (error instanceof ApiError) return send(error.status, error.body, error.headers);
      return send(500, String(error));
    }
  }

  function faultError(fault: Fault): ApiError {
    const headers: Record<string, string> = fault.retryAfter === undefined ? {} : { 'retry-after': fault.retryAfter };
    if (fault.kind === 'unavailable') return new ApiError(503, 'Service Unavailable', headers);
    return new ApiError(
      429,
      {
        error_summary: 'too_many_requests/..',
        error: { reason: { '.tag': 'too_many_requests' }, retry_after: Math.ceil(Number(fault.retryAfter ?? 1)) },
      },
      headers,
    );
  }

  const addFaults = (
    kind: Fault['kind'],
    o: { route?: string; retryAfter?: number | string; times?: number },
    defaultRetryAfter: string | undefined,
  ) => {
    const retryAfter = o.retryAfter === undefined ? defaultRetryAfter : String(o.retryAfter);
    for (let i = 0; i < (o.times ?? 1); i++) faults.push({ route: o.route, kind, retryAfter });
  };

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${address.port}`,
    appKey,
    appSecret,
    refreshToken,
    get tokenLifetimeSeconds() {
      return knobs.tokenLifetimeSeconds;
    },
    set tokenLifetimeSeconds(s: number) {
      knobs.tokenLifetimeSeconds = s;
    },
    get tokenDelayMs() {
      return knobs.tokenDelayMs;
    },
    set tokenDelayMs(ms: number) {
      knobs.tokenDelayMs = ms;
    },
    get hideLinksFromNextLists() {
      return knobs.hideLinksFromNextLists;
    },
    set hideLinksFromNextLists(n: number) {
      knobs.hideLinksFromNextLists = n;
    },
    get alreadyExistsWithMetadata() {
      return knobs.alreadyExistsWithMetadata;
    },
    set alreadyExistsWithMetadata(v: boolean) {
      knobs.alreadyExistsWithMetadata = v;
    },
    get tokenExchanges() {
      return tokenExchanges;
    },
    requests,
    rateLimitNext(o = {}) {
      addFaults('rate_limit', o, '1');
    },
    unavailableNext(o = {}) {
      addFaults('unavailable', o, undefined);
    },
    expireTokenOnNext(route) {
      faults.push({ route, kind: 'expire_token' });
    },
    expireTokens() {
      for (const key of tokens.keys()) tokens.set(key, 0);
    },
    beforeNext(route, action) {
      hooks.push({ route, action });
    },
    uploadsTo: (path) => uploads.get(lower(path)) ?? 0,
    file: (path) => files.get(lower(path))?.data,
    files: () => [...files.values()].map((f) => f.pathDisplay).sort(),
    putFile(path, data) {
      store(path, data);
    },
    links: (path) => [...links.values()].filter((l) => l.pathLower === lower(path)).map((l) => l.url),
    allLinks: () => [...links.keys()],
    addSharedLink(path) {
      if (!files.has(lower(path))) throw new Error(`No file at ${path}`);
      return addLink(lower(path)).url;
    },
    revokedLinks,
    async close() {
      faults = [];
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// `tsx tests/support/dropbox-contract-server.ts <port>`: run on its own for the end-to-end tests, with the
// credentials the e2e app instance is given.
if (process.argv[1]?.endsWith('dropbox-contract-server.ts')) {
  const { DROPBOX_CONTRACT } = await import('../e2e/support/servers');
  const server = await startDropboxContractServer({
    port: Number(process.argv[2] ?? DROPBOX_CONTRACT.port),
    appKey: DROPBOX_CONTRACT.appKey,
    appSecret: DROPBOX_CONTRACT.appSecret,
    refreshToken: DROPBOX_CONTRACT.refreshToken,
  });
  console.log(`Dropbox de prueba en ${server.url}`);
  process.once('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}
