import { afterEach, describe, expect, it } from 'vitest';
import { requireValidationDepartment } from '#server/core/records/records';
import { setElectionPhase } from '#server/testing/election';
import { addRecords, castVote, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp } from '#server/testing/test-app';

/*
 * The names an SMS vote decides on (sms.service: applyVote): the vote use case and the department check
 * refuse by name, and the HTTP status of each name stays what the app's phones always got.
 */

let t: TestApp;
afterEach(async () => t?.close());

const NOON = new Date('2026-11-27T16:00:00Z');

describe('the refusals an SMS vote reads', () => {
  it('names a record voted by someone else, a voided one, a department not yours, and the day’s phase', async () => {
    t = await createTestApp({ now: () => NOON });
    const cookies = await signInPeople(t);
    const [first, second, third] = (await addRecords(t, SLUG_A, 3)) as [number, number, number];

    await castVote(t, first, ['FA']);
    await expect(castVote(t, first, ['LC'])).rejects.toMatchObject({ name: 'already_voted', statusCode: 409 });

    const voided = await t.request({
      method: 'POST',
      url: `/api/admin/records/${second}/void`,
      headers: { cookie: cookies.admin },
      payload: { reason: 'Persona repetida' },
    });
    expect(voided.statusCode, voided.body).toBe(200);
    await expect(castVote(t, second, ['FA'])).rejects.toMatchObject({ name: 'voided', statusCode: 409 });

    const validatorA = { id: 0, email: PEOPLE.validatorA, role: 'staff' as const };
    await expect(requireValidationDepartment(t.db.kysely, validatorA, SLUG_B)).rejects.toMatchObject({
      name: 'not_in_your_departments',
      statusCode: 404,
    });

    await setElectionPhase(t.db, 'preparacion', NOON);
    await expect(castVote(t, third, ['FA'])).rejects.toMatchObject({ name: 'preparing', statusCode: 409 });
    await setElectionPhase(t.db, 'cerrada', NOON);
    await expect(castVote(t, third, ['FA'])).rejects.toMatchObject({ name: 'closed', statusCode: 409 });
  });
});
