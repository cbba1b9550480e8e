import { afterEach, describe, expect, it } from 'vitest';
import {
  type SmsGatewayContractServer,
  startSmsGatewayContractServer,
} from '#tests/support/sms-gateway-contract-server';
import { createAndroidSmsGateway, signWebhook } from './android-sms-gateway';

let gateway: SmsGatewayContractServer | undefined;
afterEach(async () => gateway?.close());

const NOW = new Date('2026-12-06T15:00:00.000Z');
const seconds = (at: Date) => String(Math.floor(at.getTime() / 1000));

describe('SMS Gateway for Android adapter', () => {
  it('sends a reply through the official client, which the stand-in takes as the gateway’s API does', async () => {
    gateway = await startSmsGatewayContractServer();
    const adapter = createAndroidSmsGateway({
      url: gateway.url,
      login: gateway.login,
      password: gateway.password,
      signingKey: gateway.signingKey,
    });
    const { id } = await adapter.send('+584141234567', 'Registrado: María P., Cabimas: FA, LC');
    expect(id).toBe(gateway.sent[0]?.id);
    expect(gateway.sent[0]).toMatchObject({
      phoneNumbers: ['+584141234567'],
      message: 'Registrado: María P., Cabimas: FA, LC',
      login: gateway.login,
      userAgent: 'android-sms-gateway/3.0 (client; js)',
    });

    const wrong = createAndroidSmsGateway({ url: gateway.url, login: 'otro', password: 'x', signingKey: 'k' });
    await expect(wrong.send('+584141234567', 'hola')).rejects.toThrow('La pasarela respondió 401');
    gateway.mode = 'down';
    await expect(adapter.send('+584141234567', 'hola')).rejects.toThrow('La pasarela respondió 500');
  });

  it('takes a webhook signed over its raw body and timestamp within five minutes, and nothing else', () => {
    const adapter = createAndroidSmsGateway({ url: 'http://x', login: 'l', password: 'p', signingKey: 'clave' });
    const rawBody = JSON.stringify({ event: 'sms:received', payload: { message: 'V 1 FA' } });
    const signed = (body: string, at: Date, key = 'clave') => ({
      rawBody: body,
      headers: { 'x-signature': signWebhook(key, body, seconds(at)), 'x-timestamp': seconds(at) },
    });
    expect(adapter.authenticate(signed(rawBody, NOW), NOW)).toEqual({ ok: true });
    expect(adapter.authenticate(signed(rawBody, new Date(NOW.getTime() - 299_000)), NOW)).toEqual({ ok: true });
    expect(adapter.authenticate(signed(rawBody, new Date(NOW.getTime() - 301_000)), NOW)).toMatchObject({ ok: false });
    expect(adapter.authenticate(signed(rawBody, new Date(NOW.getTime() + 301_000)), NOW)).toMatchObject({ ok: false });
    expect(adapter.authenticate(signed(rawBody, NOW, 'otra'), NOW)).toMatchObject({ ok: false });
    // The same signature over a body changed by one character.
    const tampered = { ...signed(rawBody, NOW), rawBody: rawBody.replace('FA', 'LC') };
    expect(adapter.authenticate(tampered, NOW)).toMatchObject({ ok: false });
    expect(
      adapter.authenticate({ rawBody, headers: { 'x-signature': 'abc', 'x-timestamp': seconds(NOW) } }, NOW),
    ).toMatchObject({
      ok: false,
    });
    expect(adapter.authenticate({ rawBody, headers: {} }, NOW)).toEqual({
      ok: false,
      reason: 'Faltan las cabeceras X-Signature y X-Timestamp.',
    });
  });

  it('reads an sms:received event as the documentation gives it, and ignores the other events', () => {
    const adapter = createAndroidSmsGateway({ url: 'http://x', login: 'l', password: 'p', signingKey: 'k' });
    const received = {
      deviceId: 'ffffffffceb0b1db0000018e937c815b',
      event: 'sms:received',
      id: 'Ey6ECgOkVVFjz3CL48B8C',
      payload: {
        messageId: 'abc123',
        message: 'V 7K2M9X FA',
        phoneNumber: '+584141234567',
        simNumber: 1,
        receivedAt: '2026-12-06T11:00:00.000-04:00',
      },
      webhookId: 'w1',
    };
    expect(adapter.incoming(received)).toEqual({
      from: '+584141234567',
      text: 'V 7K2M9X FA',
      receivedAt: '2026-12-06T11:00:00.000-04:00',
      gatewayId: 'abc123',
    });
    expect(adapter.incoming({ ...received, event: 'sms:delivered' })).toBeUndefined();
    expect(adapter.incoming({ event: 'system:ping', payload: {} })).toBeUndefined();
  });
});
