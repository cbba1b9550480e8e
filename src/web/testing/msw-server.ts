import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

/**
 * MSW for web unit tests only; each test adds the handlers it needs with server.use(). The one handler
 * every test has: the phone's field report, which the outbox sends in the background on any page.
 */
export const server = setupServer(
  http.post('*/api/field/reports', () => HttpResponse.json({ receivedAt: new Date().toISOString() })),
);
