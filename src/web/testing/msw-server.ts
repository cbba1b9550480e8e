import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

/**
 * MSW for web unit tests only; each test adds the handlers it needs with server.use(). The handlers
 * every test has: the phone's field report, which the outbox sends in the background on any page, and
 * the day's phase, which every page of someone signed in reads (a day under way unless a test says).
 */
export const server = setupServer(
  http.post('*/api/field/reports', () => HttpResponse.json({ receivedAt: new Date().toISOString() })),
  http.get('*/api/election', () =>
    HttpResponse.json({ phase: 'en_curso', closesAt: null, closedAt: null, lateArrivals: 0 }),
  ),
);
