import { describe, expect, it } from 'vitest';
import { cellText, departmentIndex, mapAgendaRow, mapRecordRow, photoLinkOf, voteCodesOf } from './airtable.mapping';

const departments = departmentIndex([
  { id: 1, slug: 'cabimas', title: 'Cabimas' },
  { id: 2, slug: 'machiques-de-perija', title: 'Machiques de Perijá' },
]);

describe('Airtable cells', () => {
  it('reads text, numbers and lists as text; objects are not text', () => {
    expect(cellText('  Ana  ')).toBe('Ana');
    expect(cellText('   ')).toBeUndefined();
    expect(cellText(4146123456)).toBe('4146123456');
    expect(cellText(['FA', 'LC'])).toBe('FA, LC');
    expect(cellText(undefined)).toBeUndefined();
    expect(cellText({ specialValue: 'NaN' })).toBeNull();
  });

  it('reads voto as candidate codes, in any case and spacing, once each', () => {
    expect(voteCodesOf('FA,LC')).toEqual(['FA', 'LC']);
    expect(voteCodesOf(' fa , lc,FA ')).toEqual(['FA', 'LC']);
    expect(voteCodesOf(['NR'])).toEqual(['NR']);
    expect(voteCodesOf('')).toBeNull();
    expect(voteCodesOf(' , ')).toBeNull();
    expect(voteCodesOf(undefined)).toBeNull();
  });

  it('takes a photo link from a URL or the first attachment; Dropbox links become direct downloads', () => {
    expect(photoLinkOf('https://example.org/a.jpg')).toEqual({ url: 'https://example.org/a.jpg' });
    expect(photoLinkOf([{ url: 'https://dl.airtable.com/x.jpg', filename: 'x.jpg' }, { url: 'https://b' }])).toEqual({
      url: 'https://dl.airtable.com/x.jpg',
    });
    expect(photoLinkOf('https://www.dropbox.com/s/abc/foto.jpg?dl=0')).toEqual({
      url: 'https://www.dropbox.com/s/abc/foto.jpg?dl=1',
    });
    expect(photoLinkOf([])).toBeUndefined();
    expect(photoLinkOf('')).toBeUndefined();
    expect(photoLinkOf('foto.jpg')).toEqual({ problem: '«foto.jpg» no es un enlace' });
    expect(photoLinkOf('file:///etc/passwd')).toEqual({ problem: '«file:///etc/passwd» no es un enlace web' });
    expect(photoLinkOf([{ filename: 'x' }])).toBeUndefined();
    expect(photoLinkOf(42)).toEqual({ problem: 'no es un enlace ni un adjunto' });
  });
});

describe('Airtable rows', () => {
  it('maps a pending record of a known municipality, by slug or by title', () => {
    const mapped = mapRecordRow(
      {
        id: 'recA',
        fields: {
          Comunidades: 'La Rosa',
          Nombre: 'Ana',
          UBCH: 'U1',
          Telefono: '+58 414 612 3456',
          status: 'Pendiente',
          rephrase: 'MACHIQUES DE PERIJA',
          voto: 'lc',
          gobernador: 'https://example.org/g.jpg',
          an: 'no es enlace',
        },
      },
      departments,
    );
    expect(mapped).toEqual({
      ok: true,
      row: {
        airtableId: 'recA',
        sourceId: 'airtable:recA',
        departmentId: 2,
        fields: { comunidad: 'La Rosa', nombre: 'Ana', ubch: 'U1', telefono: '+58 414 612 3456' },
        voteCodes: ['LC'],
        photos: { gobernador: 'https://example.org/g.jpg' },
        warnings: ['foto an: «no es enlace» no es un enlace'],
      },
    });
  });

  it('skips a record without a municipality, or whose fields are not text', () => {
    expect(mapRecordRow({ id: 'r', fields: { Nombre: 'A', Telefono: '04141234567' } }, departments)).toEqual({
      ok: false,
      reason: 'sin municipio (rephrase vacío)',
    });
    expect(
      mapRecordRow(
        { id: 'r', fields: { Nombre: { x: 1 }, Telefono: '04141234567', rephrase: 'cabimas' } },
        departments,
      ),
    ).toEqual({ ok: false, reason: 'Nombre: no es texto' });
  });

  it('maps an agenda event; an empty time is allowed, a wrong one is not', () => {
    expect(mapAgendaRow({ id: 'e', fields: { fecha: '2026-11-23', hora_24h: '9:00', descripcion: 'Acto' } })).toEqual({
      ok: true,
      row: {
        airtableId: 'e',
        sourceId: 'airtable:e',
        fecha: '2026-11-23',
        hora24h: '09:00',
        descripcion: 'Acto',
        lugar: null,
      },
    });
    expect(mapAgendaRow({ id: 'e', fields: { descripcion: 'Sin fecha' } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^fecha vacía: /),
    });
    expect(mapAgendaRow({ id: 'e', fields: { fecha: '2026-11-23', descripcion: 'x'.repeat(501) } })).toEqual({
      ok: false,
      reason: 'La descripción no puede tener más de 500 caracteres.',
    });
  });
});
