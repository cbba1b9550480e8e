import { smsReplies } from '#shared/features/sms/sms';
import { normaliseRecordCode } from '#shared/platform/record-code';

/** What an SMS asks for: a vote (a record's code and the candidates, none for []), or what is wrong with it. */
export type ParsedSms =
  | { kind: 'vote'; code: string; candidates: string[] }
  | { kind: 'malformed'; reply: string; code?: string };

/** Words that open a vote: V, VOTO, VOTA, VOTE (any case, with or without accents). */
const VOTE_WORDS = new Set(['V', 'VOTO', 'VOTA', 'VOTE', 'VT']);
/** Words for "no candidate". */
const NONE_WORDS = new Set(['0', 'NINGUNO', 'NINGUNA', 'NADIE', 'NULO', 'N0']);

/**
 * Reads `V <código> FA LC` (or `V <código> 0`) as people really type it: any case, accents, extra
 * spaces, commas, full stops, semicolons, slashes or plus signs between the parts, the code with a dash
 * or a space in the middle, V stuck to the code, O typed for 0. Never throws: a message it cannot read
 * gets an answer that says exactly what to write.
 */
export function parseSmsVote(text: string, candidateCodes: readonly string[]): ParsedSms {
  const words = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[,;:./+_|*#()[\]"'¡!¿?]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const notUnderstood: ParsedSms = { kind: 'malformed', reply: smsReplies.notUnderstood(candidateCodes) };
  const first = words.shift();
  if (first === undefined) return notUnderstood;
  if (!VOTE_WORDS.has(first)) {
    // 'V7K2M9X': the V stuck to the code.
    const stuck = first.startsWith('V') ? normaliseRecordCode(first.slice(1)) : undefined;
    if (!stuck) return notUnderstood;
    words.unshift(first.slice(1));
  }
  const typedCode = words.shift();
  if (typedCode === undefined) return { kind: 'malformed', reply: smsReplies.noCode(candidateCodes) };
  let code = normaliseRecordCode(typedCode);
  // '7K2 M9X': a code typed in two halves.
  if (!code && words.length > 0) {
    const joined = normaliseRecordCode(typedCode + words[0]);
    if (joined) {
      code = joined;
      words.shift();
    }
  }
  if (!code) return { kind: 'malformed', reply: smsReplies.badCode(typedCode) };

  // Candidates: their codes apart ('FA LC', 'FA-LC', 'fa,lc') or stuck together ('FALC').
  const known = new Set(candidateCodes);
  const chosen: string[] = [];
  const unknown: string[] = [];
  let none = false;
  for (const word of words.flatMap((w) => w.split('-')).filter(Boolean)) {
    if (known.has(word)) {
      if (!chosen.includes(word)) chosen.push(word);
    } else if (NONE_WORDS.has(word) || word === 'O') {
      // O typed for 0, as for the code's zeros (the README's promise); a candidate O would come first.
      none = true;
    } else {
      const pieces = splitStuck(word, candidateCodes);
      if (!pieces) {
        unknown.push(word);
        continue;
      }
      for (const piece of pieces) if (!chosen.includes(piece)) chosen.push(piece);
    }
  }
  if (unknown.length > 0) {
    return { kind: 'malformed', code, reply: smsReplies.unknownCandidates(unknown, candidateCodes) };
  }
  if (none && chosen.length > 0) return { kind: 'malformed', code, reply: smsReplies.noneWithOthers };
  if (!none && chosen.length === 0) return { kind: 'malformed', code, reply: smsReplies.noCandidates(candidateCodes) };
  // In the ballot's own order, whatever order they were typed in.
  return { kind: 'vote', code, candidates: candidateCodes.filter((c) => chosen.includes(c)) };
}

/** 'FALC' as ['FA', 'LC'] when it is candidates' codes written one after another; otherwise undefined. */
function splitStuck(word: string, codes: readonly string[]): string[] | undefined {
  if (word === '') return [];
  for (const code of codes) {
    if (!word.startsWith(code)) continue;
    const rest = splitStuck(word.slice(code.length), codes);
    if (rest) return [code, ...rest];
  }
  return undefined;
}
