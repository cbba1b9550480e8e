import { describe, expect, it } from 'vitest';
import { recordCodeFor } from '#shared/platform/record-code';
import { parseSmsVote } from './sms.parse';

const CANDIDATES = ['FA', 'LC', 'NR'];
const CODE = recordCodeFor(4_321);
/** The same code with its zeros typed as O, ones as I or l, and in lower case. */
const lookalike = (code: string) => code.replace(/0/g, 'O').replace(/1/g, 'l').toLowerCase();
const CODE_WITH_ZERO = recordCodeFor(17); // has a 0 and a 1 in it (checked below)

describe('parseSmsVote: forty spellings seen in the field', () => {
  it('uses a code with the characters that are typed wrong', () => {
    expect(CODE_WITH_ZERO).toMatch(/[01]/);
  });

  const votes: [string, string, string[]][] = [
    ['V CODE FA LC', CODE, ['FA', 'LC']],
    ['v code fa lc', CODE, ['FA', 'LC']],
    ['V  CODE  FA  LC', CODE, ['FA', 'LC']],
    ['  V CODE FA LC  ', CODE, ['FA', 'LC']],
    ['V CODE FA,LC', CODE, ['FA', 'LC']],
    ['V, CODE, FA, LC', CODE, ['FA', 'LC']],
    ['V CODE FA, LC.', CODE, ['FA', 'LC']],
    ['V CODE FA;LC', CODE, ['FA', 'LC']],
    ['V CODE FA/LC', CODE, ['FA', 'LC']],
    ['V CODE FA+LC', CODE, ['FA', 'LC']],
    ['V CODE FA-LC', CODE, ['FA', 'LC']],
    ['V CODE LC FA', CODE, ['FA', 'LC']],
    ['V CODE FA FA LC', CODE, ['FA', 'LC']],
    ['V CODE FALC', CODE, ['FA', 'LC']],
    ['V CODE falcnr', CODE, ['FA', 'LC', 'NR']],
    ['Voto CODE FA LC', CODE, ['FA', 'LC']],
    ['VOTÓ CODE FA', CODE, ['FA']],
    ['vota code nr', CODE, ['NR']],
    ['V CODE 0', CODE, []],
    ['V CODE ninguno', CODE, []],
    ['v code ningúno', CODE, []],
    ['V CODE nadie', CODE, []],
    ['V CODE O', CODE, []],
    ['v code o', CODE, []],
    ['VCODE FA', CODE, ['FA']],
    ['vcode fa lc', CODE, ['FA', 'LC']],
    ['V CO-DE FA', CODE, ['FA']],
    ['V COD E FA', CODE, ['FA']],
    ['V ZERO FA LC', CODE_WITH_ZERO, ['FA', 'LC']],
    ['v zero fa', CODE_WITH_ZERO, ['FA']],
    ['V CODE\nFA\nLC', CODE, ['FA', 'LC']],
    ['V\tCODE\tFA', CODE, ['FA']],
    ['V CODE FÁ LC', CODE, ['FA', 'LC']],
    ['V. CODE. FA. LC.', CODE, ['FA', 'LC']],
  ];
  const spell = (text: string) =>
    text
      .replace('CO-DE', `${CODE.slice(0, 3)}-${CODE.slice(3)}`)
      .replace('COD E', `${CODE.slice(0, 3)} ${CODE.slice(3)}`)
      .replace('CODE', CODE)
      .replace('code', CODE.toLowerCase())
      .replace('ZERO', lookalike(CODE_WITH_ZERO).toUpperCase())
      .replace('zero', lookalike(CODE_WITH_ZERO));

  it.each(votes)('reads %j as a vote', (text, code, candidates) => {
    expect(parseSmsVote(spell(text), CANDIDATES)).toEqual({ kind: 'vote', code, candidates });
  });

  const helpful: [string, string][] = [
    ['', 'Escribe: V CODIGO FA LC'],
    ['hola', 'No entendimos el mensaje. Escribe: V CODIGO FA LC'],
    ['V', 'Falta el código del trámite.'],
    [
      'V 12345 FA',
      'El código 12345 no es de ningún trámite. Cópialo de la tarjeta del trámite: son 6 letras y números',
    ],
    ['V CODE9 FA', 'no es de ningún trámite'],
    ['V CODE', 'Faltan los candidatos. Escribe sus códigos (FA, LC, NR) o 0'],
    ['V CODE XX', 'No existe el candidato XX. Los candidatos son: FA, LC, NR (o 0 para ninguno).'],
    ['V CODE FA 0', 'Escribe 0 solo, sin otros candidatos'],
  ];
  it.each(helpful)('answers %j with what to write', (text, reply) => {
    const parsed = parseSmsVote(spell(text), CANDIDATES);
    expect(parsed.kind).toBe('malformed');
    if (parsed.kind === 'malformed') expect(parsed.reply).toContain(reply);
  });

  it('covers forty spellings and more', () => {
    expect(votes.length + helpful.length).toBeGreaterThanOrEqual(40);
  });

  it('reads O as a candidate when the ballot has a candidate O, and as none otherwise', () => {
    expect(parseSmsVote(`V ${CODE} O`, ['FA', 'O'])).toEqual({ kind: 'vote', code: CODE, candidates: ['O'] });
    expect(parseSmsVote(`V ${CODE} O`, CANDIDATES)).toEqual({ kind: 'vote', code: CODE, candidates: [] });
  });

  it('refuses a code with one character mistyped, rather than voting another record', () => {
    const wrong = CODE.slice(0, 2) + (CODE[2] === 'A' ? 'B' : 'A') + CODE.slice(3);
    expect(parseSmsVote(`V ${wrong} FA`, CANDIDATES)).toMatchObject({ kind: 'malformed' });
  });
});
