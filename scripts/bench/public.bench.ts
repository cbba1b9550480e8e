import { createAgendaRepository } from '#server/features/agenda/agenda.repository';
import { createNotasRepository } from '#server/features/notas/notas.repository';
import { dateInTimeZone } from '#shared/platform/format';
import type { BenchSuite } from './types';

export const suite: BenchSuite = {
  name: 'Sitio público',
  async seed(db, now) {
    const agenda = createAgendaRepository(db.kysely);
    const today = dateInTimeZone(now);
    for (let i = 0; i < 12; i++) {
      await agenda.insert(
        {
          fecha: today,
          hora24h: `${String(7 + i).padStart(2, '0')}:00`,
          descripcion: `Evento ${i}`,
          lugar: 'Maracaibo',
        },
        now,
      );
    }
    const notas = createNotasRepository(db.kysely);
    const body =
      '<h2>Título</h2><p>Texto con <strong>negritas</strong> y <a href="https://example.org">enlace</a>.</p><ul><li>uno</li><li>dos</li></ul>'.repeat(
        4,
      );
    for (let i = 0; i < 200; i++) {
      await notas.insert(
        { title: `Nota ${i}`, html: body, publishedAt: new Date(now.getTime() - i * 60_000).toISOString() },
        now,
      );
    }
  },
  cases: [
    {
      name: 'GET /api/agenda/today',
      connections: 50,
      targetP99: 10,
      requests: () => [{ method: 'GET', path: '/api/agenda/today' }],
    },
    {
      name: 'GET /api/notas (10 por página)',
      connections: 50,
      targetP99: 10,
      requests: () => [{ method: 'GET', path: '/api/notas?page=1&pageSize=10' }],
    },
  ],
};
