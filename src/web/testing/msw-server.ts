import { setupServer } from 'msw/node';

/** MSW for web unit tests only; each test adds the handlers it needs with server.use(). */
export const server = setupServer();
